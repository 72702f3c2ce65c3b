// A full disk under the knowledge base (issue 11, item 7), on a real 3 MB tmpfs: needs root to
// mount one, and says so when it cannot.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { KB_MIGRATIONS } from '../../src/kb/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

/** Mounts a tmpfs of `size` at a new folder; a reason string when this machine will not. */
function mountTmpfs(size: string): string | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'needs root to mount a small tmpfs' };
  const dir = fixture();
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    removeDir(dir);
    return { skip: `cannot mount a tmpfs here: ${(r.stderr || r.error?.message || '').trim()}` };
  }
  return dir;
}

function projectFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 500 }, (_, j) => `word${i}x${j} topic${j % 37}`).join(' ');
    files[`notes/n${String(i).padStart(4, '0')}.txt`] = `note ${i}\n\n${words}\n`;
  }
  files['small/one.md'] = '# Recovery\n\nThe knowledge base works again once the disk has room.\n';
  return files;
}

describe('ctx_kb on a full disk', () => {
  const mounted = mountTmpfs('3m');
  const skip = typeof mounted === 'string' ? false : mounted.skip;
  let root: string;
  let t: TestApp;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await t.call(tool, args, createClientSession(crypto.randomUUID()));
    return { r, text: textOf(r) };
  };

  before(() => {
    if (skip) return;
    root = fixture(projectFiles(1000));
    t = testApp(root, {}, { CTXGATE_DATA_DIR: mounted as string });
  });
  after(async () => {
    if (skip) return;
    await t.close();
    removeDir(root);
    spawnSync('umount', [mounted as string]);
    removeDir(mounted as string);
  });

  it('answers "disk full", keeps the database intact, and keeps the session working once space is back', { skip }, async () => {
    const dataRoot = mounted as string;
    const filler = path.join(dataRoot, 'filler');
    writeFileSync(filler, new Uint8Array(2 * 1024 * 1024)); // room to give back later

    const full = await call('ctx_kb', { action: 'index', path: 'notes' });
    assert.equal(full.r.isError, true, full.text);
    assert.match(full.text, /disk full/);
    assert.doesNotMatch(full.text, /INTERNAL|this is a bug|savepoint|syntax error/);

    rmSync(filler);
    const small = await call('ctx_kb', { action: 'index', path: 'small' });
    assert.equal(small.r.isError, undefined, small.text);
    assert.match(small.text, /indexed 1 file/);
    const run = await call('ctx_run', { action: 'execute', command: "seq 1 4500 | sed 's/$/ line of a long output/'" });
    assert.equal(run.r.isError, undefined, run.text);
    assert.match(run.text, /indexed as/);
    const found = await call('ctx_kb', { action: 'search', query: 'disk has room' });
    assert.match(found.text, /small\/one\.md/);

    await t.app.lifecycle.shutdown('check');
    const dbFile = readdirSync(dataRoot, { recursive: true }).map(String).find((f) => f.endsWith('context.db'));
    assert.ok(dbFile, 'the database is in the data dir');
    const db = await openDatabase(runtime, path.join(dataRoot, dbFile), { busyTimeoutMs: 1000, migrations: KB_MIGRATIONS });
    assert.equal(db.value('PRAGMA integrity_check'), 'ok');
    db.close();
  });
});
