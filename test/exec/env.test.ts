import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childEnv } from '../../src/exec/env.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import { CREDENTIALS } from '../helpers/credentials.ts';
import { runtime, withEnv } from '../helpers/env.ts';


/** Must still reach children: nothing secret in them. */
const HARMLESS: Record<string, string> = {
  LANG: 'C.UTF-8',
  FOO: 'bar',
  PWD: '/tmp',
  REPO: 'ssh://git@github.com/o/r.git',
  DOCS_URL: 'https://example.com/a/b?c=d',
  BYPASS_CACHE: '1',
  NOTE: 'eyJ is how base64 JSON starts',
};

const noPassthrough = { CTXGATE_ENV_PASSTHROUGH: undefined, CTXMODE_ENV_PASSTHROUGH: undefined };

describe('child environment beyond the spec’s name rule', () => {
  it('keeps credential-carrying variables out of the child, read from inside the child', async () => {
    const rt = withEnv(runtime, { ...CREDENTIALS, ...HARMLESS, ...noPassthrough });
    const r = await createExecutor(rt).run({ command: 'env', args: [], cwd: '/', env: childEnv(rt), timeoutMs: 30_000 });
    const seen = new Map(r.stdout.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const));
    for (const name of Object.keys(CREDENTIALS)) assert.equal(seen.has(name), false, `${name} reached the child`);
    assert.doesNotMatch(r.stdout, /hunter2|s3cret|PRIVATE KEY|hooks\.slack\.com/);
    for (const [name, value] of Object.entries(HARMLESS)) assert.equal(seen.get(name), value, `${name} was stripped`);
    assert.ok(seen.get('PATH'), 'PATH is kept');
    assert.ok(seen.get('HOME'), 'HOME is kept');
  });

  it('still strips every name the spec lists', () => {
    const names = ['GITHUB_TOKEN', 'OPENAI_API_KEY', 'CLIENT_SECRET', 'PGPASSWORD', 'SMB_PASSWD', 'AWS_CREDENTIALS', 'BASIC_AUTH', 'COOKIE_JAR', 'SESSION_ID'];
    const rt = withEnv(runtime, { ...Object.fromEntries(names.map((n) => [n, 'x'])), ...noPassthrough });
    const env = childEnv(rt);
    for (const n of names) assert.equal(env[n], undefined, n);
  });

  it('lets the user keep named variables, or all of them with passthrough 1, and lets overrides win', () => {
    const base = { ...CREDENTIALS, ...noPassthrough };
    const named = childEnv(withEnv(runtime, { ...base, CTXGATE_ENV_PASSTHROUGH: 'DATABASE_URL, SENTRY_DSN' }));
    assert.equal(named.DATABASE_URL, CREDENTIALS.DATABASE_URL);
    assert.equal(named.SENTRY_DSN, CREDENTIALS.SENTRY_DSN);
    assert.equal(named.MYSQL_PWD, undefined);
    const all = childEnv(withEnv(runtime, { ...base, CTXMODE_ENV_PASSTHROUGH: '1' }));
    for (const [name, value] of Object.entries(CREDENTIALS)) assert.equal(all[name], value, name);
    const override = childEnv(withEnv(runtime, base), { DATABASE_URL: 'postgres://test:test@localhost/test' });
    assert.equal(override.DATABASE_URL, 'postgres://test:test@localhost/test', 'what the caller passes explicitly is used');
  });
});
