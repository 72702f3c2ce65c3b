import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPaths } from '../../src/kb/shared-paths.ts';

describe('paths in a shared knowledge base', () => {
  const alice = sharedPaths('/home/alice/shop');
  const bob = sharedPaths('/srv/checkouts/shop/');

  it('stores files under the project root relative to it, so two checkouts agree', () => {
    assert.equal(alice.sharedKey('file:/home/alice/shop/docs/a.md'), 'file:docs/a.md');
    assert.equal(bob.sharedKey('file:/srv/checkouts/shop/docs/a.md'), 'file:docs/a.md');
    assert.equal(alice.sharedPath('/home/alice/shop/docs/a.md'), 'docs/a.md');
  });

  it('gives each checkout the stored file under its own path', () => {
    assert.equal(bob.localKey('file:docs/a.md'), 'file:/srv/checkouts/shop/docs/a.md');
    assert.equal(alice.localPath('docs/a.md'), '/home/alice/shop/docs/a.md');
  });

  it('leaves other keys, and paths outside the root (a sibling with the same prefix too), as they are', () => {
    assert.equal(alice.sharedKey('run:npm test'), 'run:npm test');
    assert.equal(alice.sharedKey('file:/home/alice/shop-old/a.md'), 'file:/home/alice/shop-old/a.md');
    assert.equal(alice.localKey('file:/home/alice/shop-old/a.md'), 'file:/home/alice/shop-old/a.md');
    assert.equal(alice.localKey('run:npm test'), 'run:npm test');
  });
});
