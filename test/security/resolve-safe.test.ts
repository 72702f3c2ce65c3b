import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe('resolveSafe', () => {
  let root: string;
  let outside: string;
  let second: string;
  const fs = runtime.fs;

  before(() => {
    root = fixture({ 'src/a.ts': 'a', 'shared.txt': 'one', 'docs/': '' });
    outside = fixture({ 'secret.txt': 's' });
    second = fixture({ 'shared.txt': 'two', 'only-here.txt': 'x' });
    symlinkSync(outside, path.join(root, 'escape'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'escape-file'));
    symlinkSync(path.join(root, 'src'), path.join(root, 'src-link'));
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'dangling'));
  });
  after(() => [root, outside, second].forEach(removeDir));

  const one = () => ({ dirs: [root] });

  it('takes relative paths against the primary workdir and reports where they landed', () => {
    const r = resolveSafe(fs, one(), 'src/a.ts');
    assert.equal(r.path, path.join(root, 'src/a.ts'));
    assert.equal(r.relative, 'src/a.ts');
    assert.equal(r.workdir, root);
    for (const empty of [undefined, '', '.', './']) assert.equal(resolveSafe(fs, one(), empty).relative, '');
  });

  it('refuses .. escapes and absolute paths elsewhere', () => {
    assert.throws(() => resolveSafe(fs, one(), '../x'), /outside the workdirs/);
    assert.throws(() => resolveSafe(fs, one(), 'src/../../x'), /outside the workdirs/);
    assert.throws(() => resolveSafe(fs, one(), '/etc/passwd'), /outside the workdirs/);
    assert.equal(resolveSafe(fs, one(), 'src/../shared.txt').relative, 'shared.txt');
  });

  it('refuses symlinks that lead out, keeps those that stay in', () => {
    assert.throws(() => resolveSafe(fs, one(), 'escape/secret.txt'), /through a symlink/);
    assert.throws(() => resolveSafe(fs, one(), 'escape-file'), /through a symlink/);
    assert.throws(() => resolveSafe(fs, one(), 'escape/new-file', { mustExist: false }), /through a symlink/);
    assert.throws(() => resolveSafe(fs, one(), 'dangling'), /outside|does not exist/);
    const inside = resolveSafe(fs, one(), 'src-link/a.ts');
    assert.equal(inside.real, path.join(root, 'src/a.ts'));
  });

  it('refuses /proc/self/root detours even though they land inside', () => {
    assert.throws(() => resolveSafe(fs, one(), `/proc/self/root${root}/shared.txt`), /outside the workdirs/);
  });

  it('refuses NUL bytes and over-long paths', () => {
    assert.throws(() => resolveSafe(fs, one(), 'a\0b'), /NUL byte/);
    assert.throws(() => resolveSafe(fs, one(), 'x'.repeat(300)), /segment is longer/);
    assert.throws(() => resolveSafe(fs, one(), 'a/'.repeat(2100)), /limit is 4096/);
  });

  it('says when a path does not exist, unless told that is fine', () => {
    assert.throws(() => resolveSafe(fs, one(), 'missing.txt'), /does not exist/);
    assert.equal(resolveSafe(fs, one(), 'missing.txt', { mustExist: false }).exists, false);
  });

  it('with several workdirs, finds a relative path in the one that has it and calls a shared one ambiguous', () => {
    const two = { dirs: [root, second] };
    assert.equal(resolveSafe(fs, two, 'only-here.txt').workdir, second);
    assert.throws(() => resolveSafe(fs, two, 'shared.txt'), /exists in 2 workdirs/);
    assert.equal(resolveSafe(fs, two, path.join(second, 'shared.txt')).workdir, second);
    assert.equal(resolveSafe(fs, two, '.').workdir, root, '. is the primary workdir');
  });
});
