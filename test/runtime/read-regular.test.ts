import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe(`reading a regular file in one step (${runtime.name})`, () => {
  let root: string;
  before(() => {
    root = fixture({ 'a.txt': 'hello\n', 'empty.txt': '', 'dir/': '' });
    symlinkSync(path.join(root, 'a.txt'), path.join(root, 'link.txt'));
  });
  after(() => removeDir(root));

  it('returns the bytes of a regular file, empty ones included', () => {
    assert.equal(new TextDecoder().decode(runtime.fs.readRegularFileSync(path.join(root, 'a.txt'), 100)), 'hello\n');
    assert.equal(runtime.fs.readRegularFileSync(path.join(root, 'empty.txt'), 100)?.length, 0);
  });

  it('gives nothing for a symlink, a folder, a missing path or a file past the size limit', () => {
    for (const name of ['link.txt', 'dir', 'missing.txt']) assert.equal(runtime.fs.readRegularFileSync(path.join(root, name), 100), undefined, name);
    assert.equal(runtime.fs.readRegularFileSync(path.join(root, 'a.txt'), 5), undefined);
  });
});
