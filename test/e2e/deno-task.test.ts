// Deno users: `deno install && deno task start` on a clone, with no deno binary inside node_modules
// (Deno skips npm build scripts) and none on PATH other than the one running the task.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { onDeno, repoRoot } from '../helpers/env.ts';

const deno = onDeno ? (globalThis as unknown as { Deno: { execPath(): string } }).Deno.execPath() : path.join(repoRoot, 'node_modules', '.bin', 'deno');

describe('deno tasks', () => {
  it('name the deno that runs them, not a binary an npm install script would have put in node_modules', () => {
    const tasks = JSON.parse(readFileSync(path.join(repoRoot, 'deno.json'), 'utf8')).tasks as Record<string, string>;
    for (const [name, command] of Object.entries(tasks)) assert.doesNotMatch(command, /node_modules/, `task ${name}: ${command}`);
  });

  it('run ctxgate with no deno on PATH', () => {
    const r = spawnSync(deno, ['task', '--quiet', 'ctxgate', '--version'], {
      cwd: repoRoot,
      encoding: 'utf8',
      // node_modules/.bin/deno is the npm package's bin.cjs (its install script is not allowed to swap in
      // the binary): under the Node runner it needs node, and nothing else.
      env: { ...process.env, PATH: onDeno ? '/nonexistent' : path.dirname(process.execPath), NO_COLOR: '1' },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });
});
