import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isSecretPath, SECRET_EXCLUDE_PATHSPECS } from '../../src/security/secret-files.ts';
import { parseNameStatus, secretExclusions } from '../../src/vcs/diff-secrets.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe('diff secrets', () => {
  it('reads git diff --name-status -z, two paths for renames and copies', () => {
    assert.deepEqual(parseNameStatus('M\0a.txt\0R087\0old name\0new\nname\0C100\0x\0y\0D\0.env\0'), [['a.txt'], ['old name', 'new\nname'], ['x', 'y'], ['.env']]);
  });

  // Paths that do not exist are judged by name (realpath fails).
  const nowhere = { realpathSync: (): string => { throw new Error('ENOENT'); }, statSync: () => undefined };

  it('judges paths inside the workdir, so a repository below it keeps its folder names', () => {
    const below = secretExclusions([['src/a.ts']], { fs: nowhere, root: '/w/.ssh/repo', workdir: '/w' });
    assert.deepEqual(below.omitted, [{ path: '.ssh/repo/src/a.ts', rule: 'anything under a .ssh/ folder' }]);
    const plain = secretExclusions([['src/a.ts'], ['keys/x.pem']], { fs: nowhere, root: '/w/app', workdir: '/w' });
    assert.deepEqual(plain.omitted, [{ path: 'app/keys/x.pem', rule: '*.pem files (private keys and certificates)' }]);
    assert.deepEqual(plain.pathspecs, [':(top,exclude,literal)keys/x.pem', ...SECRET_EXCLUDE_PATHSPECS]);
  });

  it('leaves out both names of a rename when one is secret-like', () => {
    const { omitted } = secretExclusions([['.env.local', 'notes.txt']], { fs: nowhere, root: '/w', workdir: '/w' });
    assert.deepEqual(omitted, [
      { path: '.env.local', rule: '.env and .env.* files' },
      { path: 'notes.txt', rule: 'renamed or copied from or to .env.local' },
    ]);
  });

  it('judges a changed symlink by where it leads, as every tool does', () => {
    const dir = fixture({ '.env': 'TOKEN=x\n' });
    symlinkSync('.env', path.join(dir, 'notes.txt'));
    const { omitted } = secretExclusions([['notes.txt']], { fs: runtime.fs, root: dir, workdir: dir });
    assert.deepEqual(omitted, [{ path: 'notes.txt', rule: '.env and .env.* files, through a symlink to .env' }]);
    removeDir(dir);
  });

  it('has root-relative pathspec globs that exclude exactly what the secret-file rules name by name', () => {
    const paths = ['.env', 'a/.env.prod', 'a/.envrc', 'b/.env/x/y', 'k.pem', 'a/b/k.key', 'x.p12', 'x.pfx', 'id_rsa', 'a/id_ed25519', 'credentials.json', 'a/.npmrc', '.netrc',
      '.docker/config.json', 'a/.docker/other.json', '.aws/credentials', 'a/.ssh/known_hosts', '.gnupg/x', 'a/.kube/config', 'env.txt', 'a/pem.txt', 'src/key.ts', 'config.json', 'a.env'];
    const repo = fixture(Object.fromEntries(paths.map((p) => [p, 'x'])));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q');
    git('add', '.');
    const kept = git('ls-files', '-z', '--', ':(top)', ...SECRET_EXCLUDE_PATHSPECS).split('\0').filter(Boolean).sort();
    assert.deepEqual(kept, paths.filter((p) => !isSecretPath(p)).sort());
    removeDir(repo);
  });
});
