// Deno users: `deno install && deno task start` on a clone. The tasks run the deno that runs them (no
// npm `deno` package, whose Node launcher would stand in between), so a signal to `deno task` reaches
// the server.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { denoExecutable, fixture, removeDir, repoRoot } from '../helpers/env.ts';
import { denoOnlyClone } from '../helpers/deno-only.ts';

const deno = denoExecutable();

/** Whether something accepts connections on the port (false once the server is gone). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('deno tasks', () => {
  let clone: string;
  let data: string;
  before(() => {
    clone = denoOnlyClone();
    data = fixture();
  });
  after(() => {
    removeDir(clone);
    removeDir(data);
  });

  it('name the deno that runs them, and package.json brings no npm deno whose launcher a task would run instead', () => {
    const tasks = JSON.parse(readFileSync(path.join(repoRoot, 'deno.json'), 'utf8')).tasks as Record<string, string>;
    for (const [name, command] of Object.entries(tasks)) assert.doesNotMatch(command, /node_modules/, `task ${name}: ${command}`);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) assert.equal(pkg[field]?.deno, undefined, `${field} names deno`);
  });

  it('run ctxgate with no deno on PATH', () => {
    const r = spawnSync(deno, ['task', '--quiet', 'ctxgate', '--version'], { cwd: clone, encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent', NO_COLOR: '1' } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });

  it('stop the server when deno task start gets SIGTERM: nothing is left listening on its port', async () => {
    const task = spawn(deno, ['task', '--quiet', 'start', '--port', '0'], { cwd: clone, env: { ...process.env, CTXGATE_DATA_DIR: data, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((resolve) => task.once('exit', () => resolve()));
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      task.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /MCP endpoint http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      task.once('exit', (code) => reject(new Error(`deno task start ended (${code}) before serving:\n${stderr}`)));
    });
    assert.equal(await listening(port), true);
    task.kill('SIGTERM');
    await exited;
    assert.equal(await listening(port), false, `the server still answers on ${port} after deno task ended:\n${stderr}`);
  });
});
