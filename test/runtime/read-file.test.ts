import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratchArray } from '../../src/runtime/scratch.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

/** Bytes no two places of which repeat in step (a misplaced or missing chunk shows). */
function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >>> 11)) & 0xff;
  return bytes;
}

describe(`reading a file's bytes (${runtime.name})`, () => {
  let root: string;
  const sizes = { small: 1000, edge: 1 << 20, big: (1 << 20) + 12345, bigger: 3 * (1 << 20) + 1 };
  before(() => {
    root = fixture({ 'empty.txt': '' });
    for (const [name, size] of Object.entries(sizes)) writeFileSync(path.join(root, `${name}.bin`), pattern(size));
  });
  after(() => removeDir(root));

  it('gives every byte and no more, small files and those above 1 MiB alike (readFile and readOpened)', async () => {
    for (const [name, size] of Object.entries(sizes)) {
      const file = path.join(root, `${name}.bin`);
      const read = await runtime.fs.readFile(file);
      assert.equal(read.length, size, name);
      assert.deepEqual(read, pattern(size), name);
      const opened = await runtime.fs.readOpened(file);
      assert.equal(opened.bytes.length, size, name);
      assert.deepEqual(opened.bytes, pattern(size), name);
      assert.equal(opened.stat.size, size);
    }
    assert.equal((await runtime.fs.readFile(path.join(root, 'empty.txt'))).length, 0);
  });

  it('reads into a buffer it reuses from file to file, grown when a file needs more (readOpenedSync into)', () => {
    const into = { bytes: new Uint8Array(0) };
    const read = (name: string) => runtime.fs.readOpenedSync(path.join(root, name), 1 << 30, { into })!.bytes;
    const small = read('small.bin');
    assert.deepEqual(small, pattern(sizes.small));
    const first = into.bytes;
    // A smaller file: the same memory, only its own bytes.
    assert.equal(read('empty.txt').length, 0);
    assert.equal(into.bytes, first);
    // Bigger ones: grown, every byte and no more; the view is the buffer's.
    for (const name of ['edge', 'big', 'bigger'] as const) {
      const bytes = read(`${name}.bin`);
      assert.equal(bytes.length, sizes[name], name);
      assert.deepEqual(bytes, pattern(sizes[name]), name);
      assert.equal(bytes.buffer, into.bytes.buffer, name);
    }
    assert.ok(into.bytes.length >= sizes.bigger);
    // A smaller file after a big one: read into the same memory.
    const grown = into.bytes;
    assert.deepEqual(read('small.bin'), pattern(sizes.small));
    assert.equal(into.bytes, grown);
    // Over the limit, or not a regular file: nothing read, the buffer kept.
    const kept = into.bytes;
    assert.equal(runtime.fs.readOpenedSync(path.join(root, 'big.bin'), 1 << 20, { into }), undefined);
    assert.equal(runtime.fs.readOpenedSync(root, 1 << 30, { into }), undefined);
    assert.equal(into.bytes, kept);
  });

  it('keeps refusing a file over the limit and a missing one', async () => {
    await assert.rejects(runtime.fs.readOpened(path.join(root, 'big.bin'), 1 << 20), (e: NodeJS.ErrnoException) => e.code === 'EFBIG');
    await assert.rejects(runtime.fs.readFile(path.join(root, 'missing.bin')));
  });
});

describe('scratch arrays', () => {
  it('are exactly as long as asked up to 1 MiB, at least 33 MiB above it, and zero-filled', () => {
    assert.equal(scratchArray(Uint8Array, 1 << 20).length, 1 << 20);
    assert.equal(scratchArray(Uint32Array, 1000).length, 1000);
    const big = scratchArray(Uint32Array, (1 << 18) + 1);
    assert.equal(big.byteLength, 33 * 1024 * 1024);
    assert.ok(big.every((v) => v === 0));
    assert.equal(scratchArray(Float64Array, 5_000_000).length, 5_000_000, 'above 33 MiB: as asked');
  });
});
