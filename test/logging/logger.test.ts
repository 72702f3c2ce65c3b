import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createLogger, redactArgs } from '../../src/logging/logger.ts';
import type { Runtime } from '../../src/runtime/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe('logger', () => {
  it('appends one JSON object per line, 0600', () => {
    const dir = fixture();
    const file = path.join(dir, 'events.log');
    const log = createLogger(runtime, { file, debug: false });
    log.log('tool_call', { tool: 'ctx_fs', args: { action: 'ls' } });
    log.log('tool_result', { tool: 'ctx_fs', estTokens: 12 });
    log.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.event), ['tool_call', 'tool_result']);
    assert.match(lines[0].ts, /^\d{4}-\d\d-\d\dT/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    removeDir(dir);
  });

  it('never throws when the file cannot be written, and says so once on stderr', () => {
    const said: string[] = [];
    const rt: Runtime = { ...runtime, writeStderr: (t) => void said.push(t) };
    const log = createLogger(rt, { file: '/nonexistent-dir/x/y.log', debug: false });
    log.log('a');
    log.log('b');
    assert.equal(said.length, 1);
    assert.match(said[0]!, /cannot be written/);
    assert.equal(log.file, undefined);
  });

  it('writes to stderr too with debug', () => {
    const said: string[] = [];
    const log = createLogger({ ...runtime, writeStderr: (t) => void said.push(t) }, { file: undefined, debug: true });
    log.log('gate', { pass: false, reason: 'breadth' });
    assert.match(said[0]!, /"event":"gate","pass":false,"reason":"breadth"/);
  });

  it('rotates past the size limit', () => {
    const dir = fixture();
    const file = path.join(dir, 'r.log');
    const log = createLogger(runtime, { file, debug: false, maxBytes: 200 });
    for (let i = 0; i < 10; i++) log.log('e', { i, pad: 'x'.repeat(50) });
    log.close();
    assert.ok(statSync(`${file}.1`).size >= 200, 'the full file was moved aside');
    const current = readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(current.length < 10 && current.length > 0, 'the live file started over');
    assert.equal(JSON.parse(current[current.length - 1]!).i, 9, 'nothing was lost at the switch');
    removeDir(dir);
  });

  it('redacts arguments that hold a credential, and credential names the spec rule misses', () => {
    const out = redactArgs({ command: 'psql postgres://app:hunter2@db/prod -c "select 1"', url: 'https://example.com/docs', gh_pat: 'ghp_x', n: 1 }) as Record<string, unknown>;
    assert.equal(out.command, '[redacted: holds a URL with a password]');
    assert.equal(out.url, 'https://example.com/docs');
    assert.equal(out.gh_pat, '[redacted]');
    assert.equal(out.n, 1);
  });

  it('redacts a command that quotes a bearer token, a secret option or assignment, also where the cut would split it', () => {
    const out = redactArgs({
      a: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706" https://example.com/v1/me',
      b: 'GITHUB_TOKEN=abc123def456 npm publish',
      c: `${'x'.repeat(290)} --password=hunter2hunter2`,
      d: 'curl -H "Authorization: Bearer $TOKEN" https://example.com/v1/me',
    }) as Record<string, unknown>;
    assert.equal(out.a, '[redacted: holds a bearer token]');
    assert.equal(out.b, '[redacted: holds a secret assignment]');
    assert.equal(out.c, '[redacted: holds a secret option]');
    assert.equal(out.d, 'curl -H "Authorization: Bearer $TOKEN" https://example.com/v1/me');
  });

  // Issues 23.9 and 23.11: the log judges values by shape, as replies do.
  it('redacts an argv assignment of a *PASS name, token shapes and connection strings', () => {
    const out = redactArgs({
      action: 'run_task',
      args: ['deploy', 'MYPASS=hunter2', 'DB_PW=hunter2', `--note=${'x'}`],
      a: `echo sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
      b: 'sqlcmd "Server=db;User Id=sa;Password=hunter2"',
      c: `kubectl apply --data ${Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n').toString('base64')}`,
    }) as Record<string, unknown>;
    assert.deepEqual(out.args, ['deploy', '[redacted: holds a secret assignment]', '[redacted: holds a secret assignment]', '--note=x']);
    assert.equal(out.a, '[redacted: holds an access token]');
    assert.equal(out.b, '[redacted: holds a connection string with a password or signature]');
    assert.equal(out.c, '[redacted: holds a base64-encoded private key]');
  });

  it('redacts env values and sensitive keys, shortens long strings', () => {
    const out = redactArgs({ action: 'execute', env: { API: 'v', X: 'y' }, api_token: 'abc', code: 'z'.repeat(1000), n: 3 }) as Record<string, unknown>;
    assert.deepEqual(out.env, { API: '[redacted]', X: '[redacted]' });
    assert.equal(out.api_token, '[redacted]');
    assert.match(String(out.code), /…\(\+700 chars\)$/);
    assert.equal(out.n, 3);
  });
});
