import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { childEnv, validateEnvOverrides } from '../../src/exec/env.ts';
import { CappedOutput } from '../../src/exec/output.ts';
import { utf8Boundary } from '../../src/text/utf8.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';
import { alive, eventually } from '../helpers/process.ts';

const exec = createExecutor(runtime);
const env = childEnv(runtime);


describe('exec', () => {
  it('returns a non-zero exit as data, with both streams', async () => {
    const r = await exec.run({ command: 'sh', args: ['-c', 'echo out; echo err >&2; exit 3'], cwd: '/', env, timeoutMs: 10_000 });
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
    assert.equal(r.timedOut, false);
  });

  it('ends the whole process group on timeout, grandchildren included', async () => {
    const dir = fixture();
    const pidFile = path.join(dir, 'grandchild.pid');
    const r = await exec.run({
      command: 'sh',
      args: ['-c', `sh -c 'trap "" TERM; sleep 30' & echo $! > ${pidFile}; wait`],
      cwd: dir,
      env,
      timeoutMs: 300,
    });
    assert.equal(r.timedOut, true);
    assert.ok(r.durationMs < 5000, 'did not wait for the grandchild to close the pipes');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(grandchild > 0);
    assert.ok(await eventually(() => !alive(grandchild)), 'grandchild that ignored TERM is dead');
    removeDir(dir);
  });

  it('does not wait for a background grandchild after the command itself exits, and ends it', async () => {
    const r = await exec.run({ command: 'sh', args: ['-c', 'sleep 30 & echo started'], cwd: '/', env, timeoutMs: 20_000 });
    assert.equal(r.exitCode, 0);
    assert.equal(r.stdout, 'started\n');
    assert.ok(r.durationMs < 5000);
  });

  it('stops on cancellation', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await exec.run({ command: 'sleep', args: ['30'], cwd: '/', env, timeoutMs: 60_000, signal: controller.signal });
    assert.equal(r.cancelled, true);
    assert.ok(r.durationMs < 10_000);
  });

  it('caps captured output without holding it all', async () => {
    const r = await exec.run({ command: 'sh', args: ['-c', 'head -c 5000000 /dev/zero | tr "\\0" a'], cwd: '/', env, timeoutMs: 20_000, maxOutputBytes: 1000 });
    assert.equal(r.stdout.length, 1000);
    assert.equal(r.truncated, true);
    assert.equal(r.stdoutBytes, 5_000_000);
  });

  it('says clearly when a command does not exist', async () => {
    await assert.rejects(exec.run({ command: 'no-such-command-xyz', args: [], cwd: '/', env, timeoutMs: 1000 }), /command 'no-such-command-xyz' was not found/);
  });

  it('refuses an argument holding a NUL byte as an argument error, naming it', async () => {
    await assert.rejects(exec.run({ command: 'echo', args: ['ok', 'a\0b'], cwd: '/', env, timeoutMs: 1000 }), { code: 'INVALID_ARGUMENT', message: 'argv[2] contains a NUL byte' });
  });

  it('never cuts a UTF-8 character in two', () => {
    const bytes = new TextEncoder().encode('aé€😀');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const out = new CappedOutput(cut);
      out.push(bytes);
      assert.doesNotMatch(out.text(), /\uFFFD/, `cut at ${cut}`);
    }
    assert.equal(utf8Boundary(new Uint8Array([0x61, 0xe2, 0x82])), 1);
  });
});

describe('child environment', () => {
  it('strips sensitive names, keeps the allowlist and the rest, and lets overrides replace', () => {
    const rt = withEnv(runtime, { GITHUB_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 's', MY_PASSWORD: 'p', SSH_AUTH_SOCK: '/s', TOKENIZERS_PARALLELISM: 'false', LANG: 'C.UTF-8', CTXGATE_ENV_PASSTHROUGH: undefined, CTXMODE_ENV_PASSTHROUGH: undefined });
    const e = childEnv(rt, { LANG: 'de_DE.UTF-8' });
    for (const gone of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'MY_PASSWORD', 'SSH_AUTH_SOCK']) assert.equal(e[gone], undefined, gone);
    assert.equal(e.TOKENIZERS_PARALLELISM, 'false');
    assert.equal(e.LANG, 'de_DE.UTF-8');
    assert.ok(e.PATH);
    assert.equal(childEnv(withEnv(rt, { CTXMODE_ENV_PASSTHROUGH: '1' })).GITHUB_TOKEN, 't');
  });

  it('refuses overrides of PATH, HOME, LD_* and friends, naming the key', () => {
    for (const key of ['PATH', 'HOME', 'SHELL', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'GIT_DIR', 'NODE_OPTIONS']) {
      assert.throws(() => validateEnvOverrides({ [key]: 'x' }), new RegExp(`'${key}'`));
    }
    assert.throws(() => validateEnvOverrides({ 'A-B': 'x' }), /not a valid variable name/);
    validateEnvOverrides({ FOO: 'bar' });
    assert.equal(existsSync('/'), true);
  });
});

describe('a program that starts nothing of its own (ctxgate\'s find and ripgrep runs)', () => {
  it('carries no run marker and is not registered; any other command carries one and is', async () => {
    const { createProcessTracker, RUN_MARKER } = await import('../../src/exec/tracker.ts');
    const dataDir = fixture();
    try {
      const exec = createExecutor(runtime, createProcessTracker(runtime, { dataDir }));
      const request = { command: 'sh', args: ['-c', `echo "[$${RUN_MARKER}]"`], cwd: dataDir, env: childEnv(runtime), timeoutMs: 10_000 };
      const own = await exec.run({ ...request, leavesNothing: true });
      assert.equal(own.stdout.trim(), '[]');
      assert.equal(existsSync(path.join(dataDir, 'runs')), false, 'nothing registered');
      const other = await exec.run(request);
      assert.match(other.stdout.trim(), /^\[[\w-]+:\d+\]$/);
      assert.equal(existsSync(path.join(dataDir, 'runs')), true, 'the command was registered');
    } finally {
      removeDir(dataDir);
    }
  });
});
