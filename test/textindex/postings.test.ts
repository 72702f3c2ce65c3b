import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteWriter, decodeList, encodeGaps, encodeList } from '../../src/textindex/postings.ts';
import { encodeBucket, postingsIn, readBucketHeader } from '../../src/textindex/bucket.ts';
import { BucketMerger } from '../../src/textindex/segment.ts';

/** A deterministic pseudo-random generator (xorshift32), so a failure can be reproduced. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** Ascending ids from `start`, each present with probability `density`. */
function ids(next: () => number, start: number, span: number, density: number): number[] {
  const out: number[] = [];
  for (let id = start; id < start + span; id++) if (next() < density) out.push(id);
  return out;
}

function roundTrip(list: number[], previous: number): { bytes: number; back: number[] } {
  const out = new ByteWriter(4);
  out.varint(7); // something before the list, as in a bucket
  const from = out.length;
  const last = encodeList(out, list, 0, list.length, previous);
  assert.equal(last, list.length ? list.at(-1) : previous);
  const into = new Uint32Array(list.length + 2);
  const end = decodeList(out.bytes, from, out.length - from, list.length, into, 1, previous);
  return { bytes: out.length - from, back: [...into.subarray(1, end)] };
}

describe('posting lists', () => {
  it('round-trips sparse and dense lists of every size, from any previous id', () => {
    const next = random(21);
    for (const density of [0.001, 0.05, 0.12, 0.2, 0.5, 0.9, 1]) {
      for (const span of [1, 8, 9, 17, 64, 1000, 70_000]) {
        for (const previous of [0, 5, 300_000]) {
          const list = ids(next, previous + 1 + Math.floor(next() * 200), span, density);
          const { back } = roundTrip(list, previous);
          assert.deepEqual(back, list, `density ${density}, span ${span}, previous ${previous}`);
        }
      }
    }
  });

  it('writes a dense list as a bitmap, shorter than its count in bytes, and a sparse one as gaps', () => {
    const next = random(8);
    const dense = ids(next, 1, 80_000, 0.6);
    const gaps = new ByteWriter();
    encodeGaps(gaps, dense, 0, dense.length, 0);
    const asBitmap = roundTrip(dense, 0);
    assert.ok(asBitmap.bytes < dense.length, `${asBitmap.bytes} bytes for ${dense.length} ids`);
    assert.ok(asBitmap.bytes <= Math.ceil(80_000 / 8) + 1, `${asBitmap.bytes} bytes`);
    assert.ok(asBitmap.bytes < gaps.length / 4);
    const sparse = ids(next, 1, 80_000, 0.01);
    const sparseGaps = new ByteWriter();
    encodeGaps(sparseGaps, sparse, 0, sparse.length, 0);
    assert.equal(roundTrip(sparse, 0).bytes, sparseGaps.length, 'a sparse list stays gaps');
    // Eight ids or fewer are always gaps: one byte each at most as dense as they come.
    assert.equal(roundTrip([1, 2, 3, 4, 5, 6, 7, 8], 0).bytes, 8);
  });

  it('reads a bucket of gap lists written before bitmaps, and merges it with bitmap buckets into either form', () => {
    const next = random(3);
    const grams = [10, 20, 30];
    const lists = [ids(next, 0, 5000, 0.7), ids(next, 0, 5000, 0.002), ids(next, 0, 5000, 0.3)];
    // A blob as the earlier format wrote it: every list as gaps.
    const head = new ByteWriter();
    const body = new ByteWriter();
    head.varint(grams.length);
    grams.forEach((g, i) => {
      const before = body.length;
      encodeGaps(body, lists[i]!, 0, lists[i]!.length, 0);
      head.varint(g - (grams[i - 1] ?? 0));
      head.varint(lists[i]!.length);
      head.varint(body.length - before);
    });
    const old = new Uint8Array([...head.bytes.subarray(0, head.length), ...body.bytes.subarray(0, body.length)]);
    const fresh = encodeBucket(
      grams,
      lists.map((l) => ({ ids: l, start: 0, end: l.length })),
      new ByteWriter(),
      new ByteWriter(),
    );
    assert.ok(fresh.length < old.length / 2, `${fresh.length} bytes against ${old.length}`);
    for (const blob of [old, fresh]) for (const [i, g] of grams.entries()) assert.deepEqual([...postingsIn(blob, g)], lists[i]);
    assert.deepEqual(readBucketHeader(fresh).entries.map((e) => e.count), lists.map((l) => l.length));
    // The old blob's ids are 0…4999, the fresh one's 5000…9999 in the merged segment; odd ids died.
    const alive = new Uint8Array(10_000).map((_, id) => (id % 2 === 0 ? 1 : 0));
    const merged = new BucketMerger().merge([old, fresh], [0, 5000], 0, () => true, alive);
    assert.ok(merged);
    grams.forEach((g, i) => {
      const want = [...lists[i]!, ...lists[i]!.map((id) => id + 5000)].filter((id) => id % 2 === 0);
      assert.deepEqual([...postingsIn(merged.data, g)], want);
    });
  });

  it('refuses a bitmap whose bits disagree with its count', () => {
    const list = ids(random(5), 0, 2000, 0.5);
    const out = new ByteWriter();
    encodeList(out, list, 0, list.length, 0);
    assert.ok(out.length < list.length);
    assert.throws(() => decodeList(out.bytes, 0, out.length, list.length + 1, new Uint32Array(list.length + 1), 0), /another number of ids/);
  });
});
