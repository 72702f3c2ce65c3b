// Issue 23, items 2–4: a secret is judged by what the opened file is (its identity: a hard link of
// `.env`), what it holds (a private key, a git remote with a token) and by names in any case, backups
// included — by every tool that shows content, on both search engines, and a file swapped for a
// symlink while a tool reads it never shows what the link leads to.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { secretReason } from '../../src/security/secret-files.ts';
import { engineSetups } from '../helpers/engines.ts';
import { fixture, removeDir, repoRoot } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

const KEY = ['-----BEGIN RSA PRIVATE KEY-----', 'zzsecretkey', '-----END RSA PRIVATE KEY-----', ''].join('\n');

/** Every name of 23.4, each holding its own marker. */
const VARIANTS = ['.ENV', 'ID_RSA', 'Server.PEM', '.env~', '#.env#', 'id_rsa.bak', 'server.pem.orig', '.git-credentials', '.pgpass', '.pypirc', '.htpasswd', 'terraform.tfstate'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' } });
}

describe('secret names, without case and with backup copies', () => {
  it('judges every spelling and copy of a secret name as a secret, and ordinary names not', () => {
    for (const name of [...VARIANTS, '.Ssh/config', 'a/.#id_ed25519', '.id_rsa.swp', 'deploy/prod.tfstate.backup']) assert.ok(secretReason(name), name);
    for (const name of ['src/env.ts', 'notes.txt', 'README.md', 'keys.ts', 'environment.bak', 'pem.md']) assert.equal(secretReason(name), undefined, name);
    assert.match(secretReason('id_rsa.bak') ?? '', /SSH private key files.*backup or editor copies/);
  });
});

for (const setup of engineSetups()) {
  describe(`secrets under other names stay unshown (${setup.engine} engine)`, { skip: setup.skip }, () => {
    let root: string;
    let t: TestApp;
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = await t.call(tool, args, createClientSession(crypto.randomUUID()));
      return { r, text: textOf(r), data: r.structuredContent as Record<string, unknown> | undefined };
    };
    const refused = async (tool: string, args: Record<string, unknown>) => {
      const { r, text } = await call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${text}`);
      assert.match(text, /^error SECRET_REFUSED: /, `${tool} ${JSON.stringify(args)}`);
      assert.doesNotMatch(text, /zzsecret/);
      return text;
    };

    before(() => {
      const files: Record<string, string> = {
        'src/app.ts': 'export const visible = "zzpublic";\n',
        '.env': 'API_TOKEN=zzsecretenv\n',
        'keys/notes.txt': `my key\n${KEY}`,
      };
      for (const [i, v] of VARIANTS.entries()) files[`v/${v}`] = `zzsecretvariant${i}\n`;
      root = fixture(files);
      linkSync(path.join(root, '.env'), path.join(root, 'notes.txt'));
      git(root, 'init', '-q', '-b', 'main');
      git(root, 'remote', 'add', 'origin', 'https://ada:zzsecretgittoken@example.com/repo.git');
      t = testApp(root, {}, setup.env);
    });
    after(async () => {
      await t.close();
      removeDir(root);
    });

    it('read refuses a hard link of .env, naming the file it is another name of', async () => {
      assert.match(await refused('read', { target: 'notes.txt' }), /another name \(a hard link or mount\) of the secret file '\.env'/);
      assert.match((await call('read', { target: 'src/app.ts' })).text, /zzpublic/);
    });

    it('read refuses a private key inside an ordinary file, a git config with a token in its remote, and every secret name variant', async () => {
      assert.match(await refused('read', { target: 'keys/notes.txt' }), /private key block/);
      assert.match(await refused('read', { target: '.git/config' }), /git config files with a URL with a password/);
      for (const v of VARIANTS) await refused('read', { target: `v/${v}` });
    });

    it('search and ctx_fs rg find nothing in hard links, key content or name variants', async () => {
      for (const token of ['zzsecretenv', 'zzsecretkey', 'zzsecretvariant', 'API_TOKEN']) {
        const s = await call('search', { pattern: token, force: true });
        assert.equal(s.data?.totalFound, 0, `${token}: ${s.text}`);
        const rg = await call('ctx_fs', { action: 'rg', pattern: token });
        assert.deepEqual((rg.data as { files: unknown[] }).files, [], `${token}: ${rg.text}`);
        const ic = await call('ctx_fs', { action: 'rg', pattern: token, ignore_case: true, glob: '*' });
        assert.deepEqual((ic.data as { files: unknown[] }).files, [], `${token}: ${ic.text}`);
      }
      const seen = await call('ctx_fs', { action: 'rg', pattern: 'zz' });
      assert.deepEqual((seen.data as { files: { path: string }[] }).files.map((f) => f.path), ['src/app.ts']);
    });

    it('execute_file and ctx_kb index refuse the hard link and the key content; a folder index skips them', async () => {
      await refused('ctx_run', { action: 'execute_file', path: 'notes.txt', code: 'echo "$FILE_CONTENT"' });
      await refused('ctx_run', { action: 'execute_file', path: 'keys/notes.txt', code: 'echo "$FILE_CONTENT"' });
      await refused('ctx_kb', { action: 'index', path: 'notes.txt' });
      await refused('ctx_kb', { action: 'index', path: 'keys/notes.txt' });
      const { data, text } = await call('ctx_kb', { action: 'index', path: '.' });
      assert.equal(data?.indexed, 1, text);
      for (const token of ['zzsecretenv', 'zzsecretkey', 'zzsecretvariant0', 'zzsecretgittoken']) {
        assert.match((await call('ctx_kb', { action: 'search', query: token })).text, /no matches/, token);
      }
    });
  });
}

describe('ctx_git diff leaves out a hard link of a secret and a file holding a key', () => {
  let root: string;
  let t: TestApp;
  before(() => {
    root = fixture({ '.gitignore': '.env\n', '.env': 'API_TOKEN=zzsecretenv\n', 'notes.txt': 'plain\n', 'doc.txt': 'plain\n', 'src/a.ts': 'one\n' });
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'first');
    unlinkSync(path.join(root, 'notes.txt'));
    linkSync(path.join(root, '.env'), path.join(root, 'notes.txt'));
    writeFileSync(path.join(root, 'doc.txt'), KEY);
    writeFileSync(path.join(root, 'src/a.ts'), 'two\n');
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('shows the ordinary change and names the two files it left out', async () => {
    const r = await t.call('ctx_git', { action: 'diff' });
    const text = textOf(r);
    assert.match(text, /\+two/);
    assert.doesNotMatch(text, /zzsecret/);
    const omitted = (r.structuredContent as { omitted: { path: string; rule: string }[] }).omitted;
    assert.deepEqual(omitted.map((o) => o.path).sort(), ['doc.txt', 'notes.txt']);
  });
});

describe('a file swapped for a symlink while tools read it', () => {
  const ROUNDS = 60;
  let root: string;
  let outside: string;
  let t: TestApp;
  let swapper: ReturnType<typeof spawn>;
  before(() => {
    outside = fixture({ 'outside.txt': 'zzoutside\n' });
    root = fixture({ '.env': 'API_TOKEN=zzsecretenv\n', 'plain.txt': 'harmless\n', 'dir/': '' });
    mkdirSync(path.join(root, 'work'));
    writeFileSync(path.join(root, 'work/f.txt'), 'harmless\n');
    // Swaps work/f.txt between a regular file, a symlink to .env and a symlink outside, every millisecond.
    const swapperScript = path.join(repoRoot, 'test', 'fixtures', 'processes', 'swapper.mjs');
    swapper = spawn('node', [swapperScript, path.join(root, 'work'), path.join(root, 'plain.txt'), '../.env', path.join(outside, 'outside.txt')], { stdio: 'ignore', detached: true });
    t = testApp(root);
  });
  after(async () => {
    if (swapper.pid) process.kill(-swapper.pid, 'SIGKILL');
    await t.close();
    removeDir(root);
    removeDir(outside);
  });

  it(`never shows .env or the outside file through read, ctx_fs rg, execute_file or ctx_kb index in ${ROUNDS} rounds`, async () => {
    let leaks = 0;
    let shown = 0;
    const calls: [string, Record<string, unknown>][] = [
      ['read', { target: 'work/f.txt' }],
      ['ctx_fs', { action: 'rg', pattern: 'zz|harmless', path: 'work' }],
      ['ctx_run', { action: 'execute_file', path: 'work/f.txt', code: 'echo "$FILE_CONTENT"' }],
      ['ctx_kb', { action: 'index', path: 'work' }],
    ];
    for (let i = 0; i < ROUNDS; i++) {
      for (const [tool, args] of calls) {
        const text = textOf(await t.call(tool, args, createClientSession(crypto.randomUUID())));
        if (/zzsecretenv|zzoutside/.test(text)) leaks++;
        if (/harmless/.test(text)) shown++;
      }
    }
    for (const query of ['zzsecretenv', 'zzoutside']) {
      assert.match(textOf(await t.call('ctx_kb', { action: 'search', query }, createClientSession(crypto.randomUUID()))), /^no matches/, query);
    }
    assert.equal(leaks, 0);
    // The harness did read the regular file in between: the swaps raced real reads.
    assert.ok(shown > 0);
  });
});
