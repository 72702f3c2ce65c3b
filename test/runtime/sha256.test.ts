import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import process from 'node:process';
import { sha256Hex } from '../../src/runtime/common.ts';

describe('sha256Hex', () => {
  it('hashes on a Node without process.getBuiltinModule (22.0–22.2)', () => {
    const original = process.getBuiltinModule;
    // This file's first hash, so node:crypto is fetched now, the way such a Node has to.
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    } finally {
      process.getBuiltinModule = original;
    }
  });
});
