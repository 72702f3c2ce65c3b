// Issue 11: secret-file rules hold for every tool that shows file content, and they judge the file a
// name leads to, not the name as typed (`env_alias.txt -> .env`, `sshdir -> .ssh`).
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { readLines } from '../../src/retrieval/fileio.ts';
import { judgeSecret, judgeSecretPath } from '../../src/security/secret-files.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

const KEY = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'zzsecretkey', '-----END OPENSSH PRIVATE KEY-----', ''].join('\n');

function secretProject(): string {
  const root = fixture({
    'src/app.ts': 'export const visible = "zzpublic";\n',
    '.env': 'API_TOKEN=zzsecretenv\n',
    id_rsa: KEY,
    '.ssh/config': 'Host zzsecretssh\n',
  });
  symlinkSync('.env', path.join(root, 'env_alias.txt'));
  symlinkSync('id_rsa', path.join(root, 'key_alias.txt'));
  symlinkSync('.ssh', path.join(root, 'sshdir'));
  return root;
}

describe('the secret-file judgement', () => {
  let root: string;
  before(() => {
    root = secretProject();
  });
  after(() => removeDir(root));
  const workdirs = () => ({ dirs: [root] });

  it('judges a file by its name, and a harmless name by where its symlink leads', () => {
    assert.deepEqual(judgeSecret(workdirs(), { relative: '.env', real: path.join(root, '.env') }), { rule: '.env and .env.* files' });
    assert.deepEqual(judgeSecretPath(runtime.fs, workdirs(), 'env_alias.txt', path.join(root, 'env_alias.txt')), { rule: '.env and .env.* files', leadsTo: '.env' });
    assert.equal(judgeSecretPath(runtime.fs, workdirs(), 'key_alias.txt', path.join(root, 'key_alias.txt'))?.leadsTo, 'id_rsa');
    assert.equal(judgeSecretPath(runtime.fs, workdirs(), 'src/app.ts', path.join(root, 'src/app.ts')), undefined);
  });

  it('judges a folder that is, or leads to, a secret folder', () => {
    assert.deepEqual(judgeSecretPath(runtime.fs, workdirs(), 'sshdir', path.join(root, 'sshdir')), { rule: 'anything under a .ssh/ folder', leadsTo: '.ssh' });
    assert.equal(judgeSecretPath(runtime.fs, workdirs(), 'sshdir/config', path.join(root, 'sshdir/config'))?.leadsTo, '.ssh/config');
    assert.equal(judgeSecretPath(runtime.fs, workdirs(), 'src', path.join(root, 'src')), undefined);
  });

  it('refuses to give the lines of a secret file to block expansion, whatever path leads there', async () => {
    const t = testApp(root);
    try {
      for (const p of ['.env', 'env_alias.txt', 'sshdir/config']) {
        await assert.rejects(readLines(t.app.runtime.fs, t.app.workdirs, path.join(root, p)), /SECRET|treated as a secret/, p);
      }
      assert.deepEqual(await readLines(t.app.runtime.fs, t.app.workdirs, path.join(root, 'src/app.ts')), ['export const visible = "zzpublic";']);
    } finally {
      await t.close();
    }
  });
});

// With rg on PATH the tools search with ripgrep; an empty PATH makes them use the built-in engine.
const engines: ('rg' | 'builtin')[] = runtime.which('rg') ? ['rg', 'builtin'] : ['builtin'];

for (const engine of engines) {
  describe(`secret files stay unshown by every tool (${engine} engine)`, () => {
    let root: string;
    let emptyPath: string;
    let t: TestApp;
    // A fresh client session per call: the kb searches would trip the flood guard otherwise.
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = await t.call(tool, args, createClientSession(crypto.randomUUID()));
      return { r, text: textOf(r), data: r.structuredContent as Record<string, unknown> | undefined };
    };
    const refused = async (tool: string, args: Record<string, unknown>, pattern: RegExp) => {
      const { r, text } = await call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${text}`);
      assert.match(text, /^error SECRET_REFUSED: /, `${tool} ${JSON.stringify(args)}`);
      assert.match(text, pattern, `${tool} ${JSON.stringify(args)}`);
      assert.match(text, /hint: .*ask the user for the values you need/);
      assert.doesNotMatch(text, /zzsecret(env|key|ssh)/);
    };

    before(() => {
      root = secretProject();
      emptyPath = fixture();
      t = testApp(root, {}, engine === 'builtin' ? { PATH: emptyPath } : {});
    });
    after(async () => {
      await t.close();
      removeDir(root);
      removeDir(emptyPath);
    });

    it('read refuses .env and id_rsa, naming the rule that matched', async () => {
      await refused('read', { target: '.env' }, /'\.env' is treated as a secret \(rule: \.env and \.env\.\* files\), so it is not read/);
      await refused('read', { target: 'id_rsa' }, /'id_rsa' is treated as a secret \(rule: SSH private key files/);
      await refused('read', { target: 'id_rsa:1-2', expand: false }, /'id_rsa' is treated as a secret/);
    });

    it('read refuses a symlink alias of a secret, and a file reached through a linked secret folder, saying where the link leads', async () => {
      await refused('read', { target: 'env_alias.txt' }, /'env_alias\.txt' leads to '\.env' through a symlink, which is treated as a secret/);
      await refused('read', { target: 'key_alias.txt:1-3' }, /'key_alias\.txt' leads to 'id_rsa' through a symlink/);
      await refused('read', { target: 'sshdir/config' }, /'sshdir\/config' leads to '\.ssh\/config' through a symlink.*\(rule: anything under a \.ssh\/ folder\)/);
      assert.match((await call('read', { target: 'src/app.ts' })).text, /zzpublic/);
    });

    it('search and locate find nothing in secret files, and refuse a scope that leads into a secret folder', async () => {
      for (const token of ['zzsecretenv', 'zzsecretkey', 'zzsecretssh']) {
        const s = await call('search', { pattern: token, force: true });
        assert.equal(s.data?.totalFound, 0, s.text);
        const l = await call('locate', { query: token });
        assert.doesNotMatch(l.text, /env_alias|key_alias|id_rsa|\.env|\.ssh|sshdir/, l.text);
      }
      await refused('search', { pattern: 'zzsecretssh', scope: 'sshdir', force: true }, /'sshdir' leads to '\.ssh' through a symlink.*so it is not searched/);
      await refused('locate', { query: 'zzsecretssh', scope: 'sshdir' }, /'sshdir' leads to '\.ssh'/);
      await refused('search', { pattern: 'zzsecretssh', scope: '.ssh', force: true }, /'\.ssh' is treated as a secret/);
    });

    it('ctx_fs rg refuses a symlink alias and a linked secret folder; ls, glob and stat still show the names', async () => {
      await refused('ctx_fs', { action: 'rg', pattern: 'zzsecret', path: 'env_alias.txt' }, /'env_alias\.txt' leads to '\.env' through a symlink.*so it is not searched/);
      await refused('ctx_fs', { action: 'rg', pattern: 'zzsecret', path: 'key_alias.txt' }, /leads to 'id_rsa'/);
      await refused('ctx_fs', { action: 'rg', pattern: 'zzsecret', path: 'sshdir' }, /'sshdir' leads to '\.ssh'/);
      const all = await call('ctx_fs', { action: 'rg', pattern: 'zz' });
      assert.deepEqual((all.data as { files: { path: string }[] }).files.map((f) => f.path), ['src/app.ts']);
      assert.match(all.text, new RegExp(`\\(${engine}\\)`));
      const ls = await call('ctx_fs', { action: 'ls', include_hidden: true });
      const names = (ls.data as { entries: { path: string }[] }).entries.map((e) => e.path);
      for (const n of ['.env', 'env_alias.txt', 'id_rsa', 'key_alias.txt', 'sshdir']) assert.ok(names.includes(n), n);
      assert.equal((await call('ctx_fs', { action: 'stat', path: 'env_alias.txt' })).data?.type, 'symlink');
    });

    it('ctx_kb index refuses an alias and a linked secret folder; a folder index skips the links and says so', async () => {
      await refused('ctx_kb', { action: 'index', path: 'env_alias.txt' }, /'env_alias\.txt' leads to '\.env' through a symlink.*so it is not indexed/);
      await refused('ctx_kb', { action: 'index', path: 'key_alias.txt' }, /leads to 'id_rsa'/);
      await refused('ctx_kb', { action: 'index', path: 'sshdir' }, /'sshdir' leads to '\.ssh'.*so it is not indexed/);
      const { data, text } = await call('ctx_kb', { action: 'index', path: '.' });
      assert.equal(data?.indexed, 1, text);
      assert.deepEqual(data?.skipped, { secret: 6 });
      assert.match(text, /skipped 6 \(secret\): \.env, \.ssh\/config, env_alias\.txt, …/);
      for (const token of ['zzsecretenv', 'zzsecretkey', 'zzsecretssh']) {
        assert.match((await call('ctx_kb', { action: 'search', query: token })).text, /no matches/);
      }
    });

    it('ctx_run execute_file refuses to hand a secret file to code, under its name or an alias', async () => {
      await refused('ctx_run', { action: 'execute_file', path: '.env', code: 'echo "$FILE_CONTENT"' }, /'\.env' is treated as a secret.*so it is not handed to code/);
      await refused('ctx_run', { action: 'execute_file', path: 'env_alias.txt', code: 'echo "$FILE_CONTENT"' }, /leads to '\.env'/);
    });
  });
}
