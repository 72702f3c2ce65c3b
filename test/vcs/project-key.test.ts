import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { createExecutor } from '../../src/exec/executor.ts';
import { defaultProjectKey, normaliseRemoteUrl, pickRemote, sharedPathsRoot } from '../../src/vcs/project-key.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe('the project key', () => {
  it('is the same for ssh, scp-like and https clones of one repository', () => {
    const forms = [
      'git@github.com:Acme/Shop.git',
      'ssh://git@github.com:22/Acme/Shop.git',
      'https://alice:token123@GitHub.com/acme/shop.git/',
      'https://github.com/acme/shop',
      'git+ssh://git@github.com/Acme/Shop',
    ];
    assert.deepEqual(new Set(forms.map(normaliseRemoteUrl)), new Set(['github.com/acme/shop']));
  });

  it('keeps a remote that is a local folder as its path, lower-cased', () => {
    assert.equal(normaliseRemoteUrl('/srv/Git/Shop.git'), '/srv/git/shop');
    assert.equal(normaliseRemoteUrl('file:///srv/git/shop.git'), '/srv/git/shop');
  });

  it('names the project by origin when there is one, else by its first remote', () => {
    assert.equal(pickRemote('remote.fork.url git@example.test:me/shop\nremote.origin.url https://example.test/acme/shop\n'), 'https://example.test/acme/shop');
    assert.equal(pickRemote('remote.fork.url git@example.test:me/shop\n'), 'git@example.test:me/shop');
    assert.equal(pickRemote(''), undefined);
  });

  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const exec = createExecutor(runtime);

  it("reads the repository's remote, also from a folder below its top", async () => {
    const repo = fixture({ 'pkg/a.txt': 'a' });
    dirs.push(repo);
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'git@Example.test:Acme/Shop.git']);
    assert.equal(await defaultProjectKey({ runtime, exec }, repo), 'example.test/acme/shop');
    assert.equal(await defaultProjectKey({ runtime, exec }, `${repo}/pkg`), 'example.test/acme/shop');
  });

  it("falls back to the project root's real path when there is no remote", async () => {
    const plain = fixture({ 'a.txt': 'a' });
    dirs.push(plain);
    assert.equal(await defaultProjectKey({ runtime, exec }, plain), plain);
  });

  it("names files from the repository's top for every server rooted in a folder of it, and from the root outside git", async () => {
    const repo = fixture({ 'services/billing/README.md': 'b', 'services/search/README.md': 's' });
    dirs.push(repo);
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://example.test/acme/monorepo.git']);
    assert.equal(await sharedPathsRoot({ runtime, exec }, repo), repo);
    assert.equal(await sharedPathsRoot({ runtime, exec }, `${repo}/services/billing`), repo);
    assert.equal(await sharedPathsRoot({ runtime, exec }, `${repo}/services/search`), repo);
    const plain = fixture({ 'a.txt': 'a' });
    dirs.push(plain);
    assert.equal(await sharedPathsRoot({ runtime, exec }, plain), plain);
  });
});
