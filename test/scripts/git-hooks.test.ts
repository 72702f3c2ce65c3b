// scripts/install-hooks.sh and the hooks it installs, in a throwaway repository with a bare remote:
// secrets in a message or in an added line stop the commit or the push; ordinary work goes through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir, repoRoot } from '../helpers/env.ts';

// Built at run time, so that this file itself holds nothing the hooks would refuse.
const AWS_KEY = `AKIA${'Q'.repeat(16)}`;
const GITHUB_TOKEN = `ghp_${'a1B2'.repeat(9)}`;
const PRIVATE_KEY = ['-----BEGIN RSA PRIVATE', 'KEY-----'].join(' ');

describe('git hooks (scripts/install-hooks.sh)', () => {
  let work: string;
  let remote: string;
  const git = (...args: string[]) => spawnSync('git', args, { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: work } });

  before(() => {
    remote = fixture();
    work = fixture({ 'README.md': '# demo\n' });
    spawnSync('git', ['init', '-q', '--bare', remote]);
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'dev@example.com');
    git('config', 'user.name', 'Dev');
    // The hooks are the project's own scripts: copy them in as a clone would have them.
    spawnSync('cp', ['-r', path.join(repoRoot, 'scripts'), work]);
    const installed = spawnSync('bash', ['scripts/install-hooks.sh'], { cwd: work, encoding: 'utf8' });
    assert.equal(installed.status, 0, installed.stderr);
    assert.match(installed.stdout, /installed commit-msg/);
    assert.match(installed.stdout, /installed pre-push/);
    git('remote', 'add', 'origin', remote);
    git('add', '-A');
    assert.equal(git('commit', '-q', '-m', 'Start the demo project').status, 0);
  });
  after(() => {
    removeDir(work);
    removeDir(remote);
  });

  it('refuses a commit message that holds a token or says nothing, naming the rule and not the secret', () => {
    writeFileSync(path.join(work, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    const leaked = git('commit', '-q', '-m', `Configure deploy with ${AWS_KEY}`);
    assert.notEqual(leaked.status, 0);
    assert.match(leaked.stderr, /the message holds a secret: AWS access key/);
    assert.doesNotMatch(leaked.stderr, new RegExp(AWS_KEY));
    const noise = git('commit', '-q', '-m', 'wip');
    assert.notEqual(noise.status, 0);
    assert.match(noise.stderr, /says nothing about the change/);
    assert.equal(git('commit', '-q', '-m', 'Add the a file — with a dash, ≥ and non-ASCII text').status, 0);
  });

  it('pushes clean commits', () => {
    const pushed = git('push', '-q', 'origin', 'main');
    assert.equal(pushed.status, 0, pushed.stderr);
  });

  it('refuses a push whose commits add a key or a token, and lets a marked fixture through', () => {
    writeFileSync(path.join(work, 'config.js'), `export const github = "${GITHUB_TOKEN}";\n`);
    git('add', 'config.js');
    assert.equal(git('commit', '-q', '-m', 'Read the GitHub settings').status, 0);
    const refused = git('push', '-q', 'origin', 'main');
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /an added line holds a secret: GitHub token/);
    assert.match(refused.stderr, /push refused/);
    assert.doesNotMatch(refused.stderr, new RegExp(GITHUB_TOKEN));

    git('reset', '-q', '--hard', 'origin/main');
    writeFileSync(path.join(work, 'fixture.ts'), `const key = "${PRIVATE_KEY}"; // ctxgate-allow-secret\n`);
    git('add', 'fixture.ts');
    assert.equal(git('commit', '-q', '-m', 'Add a key-shaped test fixture').status, 0);
    const allowed = git('push', '-q', 'origin', 'main');
    assert.equal(allowed.status, 0, allowed.stderr);

    writeFileSync(path.join(work, 'settings.py'), 'PASSWORD = "correct-horse-battery-staple"\n'); // ctxgate-allow-secret
    git('add', 'settings.py');
    assert.equal(git('commit', '-q', '-m', 'Add settings').status, 0);
    assert.match(git('push', '-q', 'origin', 'main').stderr, /password\/secret\/token assignment/);
  });
});
