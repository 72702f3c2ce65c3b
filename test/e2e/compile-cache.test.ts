// Every MCP session and hook call is a new process: on Node (22.1+: module.enableCompileCache) it keeps
// the code it compiled in the data folder (private), for the next process to start from; Deno caches
// compiled modules itself, and the data folder gets no such folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { trimCompileCache } from '../../src/app/compile-cache.ts';
import { fixture, onDeno, removeDir, repoRoot, runtime } from '../helpers/env.ts';
import { nodeAtLeast } from '../helpers/nodes.ts';
import { runCli } from '../helpers/server.ts';

const node22 = onDeno ? undefined : nodeAtLeast(22);

/** `ctxgate ARGS` on this test's runtime (Node: a Node 22+, this one or one from .cache/nodes). */
function ctxgate(args: string[], env: Record<string, string>): { status: number | null; stderr: string } {
  if (onDeno) return runCli(args, { env });
  const r = spawnSync(node22!.bin, [path.join(repoRoot, 'dist', 'ctxgate.mjs'), ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

const version = (env: Record<string, string>) => ctxgate(['--version'], env);

/** The compiled files kept under `data`. */
function kept(data: string): number {
  const dir = path.join(data, 'compile-cache');
  return runtime.fs.readDirSync(dir).flatMap((d) => runtime.fs.readDirSync(path.join(dir, d.name))).length;
}

describe('compiled code kept for the next process', { skip: !onDeno && !node22 && 'no Node 22+ here: run node scripts/fetch-test-tools.mjs nodes' }, () => {
  const data = fixture();
  after(() => removeDir(data));

  it('fills a private compile-cache folder in the data folder on Node, and none on Deno', () => {
    const dir = path.join(data, 'compile-cache');
    for (let i = 0; i < 2; i++) {
      const r = version({ CTXGATE_DATA_DIR: data });
      assert.equal(r.status, 0, r.stderr);
    }
    if (onDeno) {
      assert.equal(runtime.fs.statSync(dir), undefined);
      return;
    }
    assert.equal(runtime.fs.statSync(dir)!.mode & 0o777, 0o700);
    assert.ok(kept(data) > 0, 'the compiled code is in the folder');
  });

  it("keeps the worker threads' code too (a search with grep and parse workers, against one without)", { skip: onDeno && 'Deno caches by itself' }, () => {
    const project = fixture({ 'src/a.ts': 'export function alpha() {\n  return 1;\n}\n' });
    const withWorkers = fixture();
    const without = fixture();
    try {
      const call = ['call', 'search', '{"pattern":"return"}', '--project-root', project];
      assert.equal(ctxgate(call, { CTXGATE_DATA_DIR: withWorkers }).status, 0);
      assert.equal(ctxgate(call, { CTXGATE_DATA_DIR: without, CTXGATE_GREP_WORKERS: '0', CTXGATE_PARSE_WORKERS: '0' }).status, 0);
      assert.ok(kept(withWorkers) > kept(without), `${kept(withWorkers)} files with workers, ${kept(without)} without`);
    } finally {
      for (const d of [project, withWorkers, without]) removeDir(d);
    }
  });

  it('starts all the same when the folder cannot be made (no cache, no error)', () => {
    const blocked = path.join(data, 'a-file');
    runtime.fs.writeFileSync(blocked, 'not a folder');
    const r = version({ CTXGATE_DATA_DIR: blocked });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /compile|EEXIST|ENOTDIR/i);
  });
});

describe('the compile cache bounded', () => {
  it('is emptied past its bound and kept below it; a missing folder is no error', async () => {
    const dir = fixture({ 'v22.23.5-x64-abc-0/a1': 'x'.repeat(600), 'v22.23.5-x64-abc-0/a2': 'x'.repeat(600), 'v24.1.0-x64-def-0/b1': 'x'.repeat(600) });
    try {
      assert.equal(await trimCompileCache(runtime.fs, dir, 4096), false);
      assert.equal(runtime.fs.readDirSync(dir).length, 2);
      assert.equal(await trimCompileCache(runtime.fs, dir, 1000), true);
      assert.deepEqual(runtime.fs.readDirSync(dir), []);
      assert.equal(await trimCompileCache(runtime.fs, path.join(dir, 'missing')), false);
    } finally {
      removeDir(dir);
    }
  });
});
