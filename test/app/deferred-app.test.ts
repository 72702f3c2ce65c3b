import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AppContext } from '../../src/app/context.ts';
import { createDeferredApp } from '../../src/app/deferred-app.ts';
import { AppError, ErrorCode } from '../../src/errors.ts';

// The app itself is never looked into here: a marker object stands for it.
const APP = { marker: 'app' } as unknown as AppContext;

function deferredFailing(failures: unknown[]) {
  const reports: string[] = [];
  let builds = 0;
  const deferred = createDeferredApp({
    projectRoot: '/repo',
    report: (text) => reports.push(text),
    build: async () => {
      builds++;
      const failure = failures.shift();
      if (failure) throw failure;
      return APP;
    },
  });
  return { deferred, reports, builds: () => builds };
}

describe('the stdio server app, built on first need', () => {
  it('keeps a configuration error for good: every call gets it with the hint to restart, stderr once', async () => {
    const { deferred, reports, builds } = deferredFailing([new AppError(ErrorCode.Config, 'storage.url is set but storage.backend is sqlite', { hint: 'remove storage.url' })]);
    for (let i = 0; i < 3; i++) {
      await assert.rejects(deferred.get(), (error: AppError) => {
        assert.equal(error.code, ErrorCode.Config);
        assert.equal(error.message, 'cannot start serving /repo: storage.url is set but storage.backend is sqlite');
        assert.match(error.hint ?? '', /^remove storage\.url; then restart the MCP server/);
        return true;
      });
    }
    assert.equal(builds(), 1);
    assert.equal(reports.length, 1);
    assert.equal(deferred.failure()?.code, ErrorCode.Config);
    assert.equal(await deferred.built(), undefined);
  });

  it('tries a failure that may pass again on the next call, and forgets it once a build succeeds', async () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const { deferred, reports, builds } = deferredFailing([busy, busy]);
    for (let i = 0; i < 2; i++) {
      await assert.rejects(deferred.get(), (error: AppError) => {
        assert.equal(error.code, ErrorCode.Unavailable);
        assert.match(error.hint ?? '', /the next call tries again/);
        return true;
      });
    }
    assert.equal(reports.length, 1, 'the same failure is reported once');
    assert.equal(await deferred.get(), APP);
    assert.equal(await deferred.get(), APP);
    assert.equal(builds(), 3);
    assert.equal(deferred.failure(), undefined);
    assert.equal(await deferred.built(), APP);
  });

  it('keeps a build that throws before its first await from sticking as a failure that may pass', async () => {
    let builds = 0;
    const deferred = createDeferredApp({
      projectRoot: '/repo',
      report: () => {},
      build: (() => {
        builds++;
        if (builds === 1) throw new Error('EMFILE: too many open files');
        return Promise.resolve(APP);
      }) as () => Promise<AppContext>,
    });
    await assert.rejects(deferred.get(), /EMFILE/);
    assert.equal(await deferred.get(), APP);
  });
});
