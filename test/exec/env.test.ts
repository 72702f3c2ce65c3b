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

  // Issue 23.9: credential values under names that say nothing, recognised by their shape.
  it('strips access tokens, connection strings with a password, base64 private keys and *_PW names, read from inside the child', async () => {
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
    const shaped: Record<string, string> = {
      A1: `ghp_${'a1B2'.repeat(9)}`,
      A2: `sk-proj-${'Zz9_'.repeat(10)}`,
      A3: `sk-ant-api03-${'q'.repeat(40)}`,
      A4: `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
      A5: 'xoxb-123456789012-abcdefghijkl',
      A6: `glpat-${'x'.repeat(20)}`,
      A7: 'AKIAIOSFODNN7EXAMPLE',
      B1: 'Server=db.local;Database=app;User Id=sa;Password=hunter2;',
      B2: 'jdbc:mysql://db.local:3306/app?user=app&password=hunter2',
      B3: 'postgresql://db.local/app?user=app&password=hunter2',
      B4: 'https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=abcDEF%2Bghi%3D',
      B5: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=bm90IGEga2V5;EndpointSuffix=core.windows.net',
      C1: Buffer.from(pem).toString('base64'),
      C2: `key: ${Buffer.from(pem.replace('OPENSSH', 'RSA')).toString('base64')}`,
      DB_PW: 'hunter2',
      LDAP_BIND_PW: 'hunter2',
      PGPASS: 'hunter2',
    };
    const harmless = { ...HARMLESS, CERT: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64'), CONN: 'Server=db.local;Database=app;Password=$DB_PASSWORD', TASK: 'sk-learn', PGPASSFILE: '/home/u/.pgpass' };
    const rt = withEnv(runtime, { ...shaped, ...harmless, ...noPassthrough });
    const r = await createExecutor(rt).run({ command: 'env', args: [], cwd: '/', env: childEnv(rt), timeoutMs: 30_000 });
    const seen = new Map(r.stdout.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const));
    for (const name of Object.keys(shaped)) assert.equal(seen.has(name), false, `${name} reached the child`);
    assert.doesNotMatch(r.stdout, /hunter2|LS0tLS1CRUdJTiBPUEVOU1NI|AKIAIOSFODNN7EXAMPLE/);
    for (const [name, value] of Object.entries(harmless)) assert.equal(seen.get(name), value, `${name} was stripped`);
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
