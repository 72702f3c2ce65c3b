// The text index's bucket format. A segment holds the postings of its documents cut into buckets by
// a hash of the trigram, so a segment is a few thousand rows however many trigrams it has. A bucket's blob:
//   varint n, then n × (varint gram gap, varint ids, varint bytes), then the n posting lists
// (ascending ids as varint gaps or a bitmap, postings.ts; the first from the segment's `min_doc`: a segment's blobs do not
// depend on where its ids start, so they are encoded before the write transaction). A segment with 2^bits buckets puts trigram g in the bucket named by
// the top `bits` bits of hash(g); segments of any two sizes therefore merge bucket by bucket.
import { ByteReader, type ByteWriter, decodeList, encodeList } from './postings.ts';
import { scratchArray } from '../runtime/scratch.ts';

/** The most buckets a segment has (2^18: a merged index of 1.5 M trigrams has ~6 per bucket). */
export const MAX_BUCKET_BITS = 18;
/** Trigrams per bucket a new segment aims at. */
const GRAMS_PER_BUCKET = 16;

export function hashGram(gram: number): number {
  return Math.imul(gram, 0x9e3779b1) >>> 0;
}

export function bucketOf(gram: number, bits: number): number {
  return bits === 0 ? 0 : hashGram(gram) >>> (32 - bits);
}

/** Bucket bits for a segment of `grams` distinct trigrams. */
export function bitsFor(grams: number): number {
  let bits = 0;
  while (bits < MAX_BUCKET_BITS && grams / 2 ** bits > GRAMS_PER_BUCKET) bits++;
  return bits;
}

export interface EncodedBucket {
  bucket: number;
  data: Uint8Array;
}

/** Posting lists of one bucket, as (gram, ids) in ascending gram order. */
export interface BucketEntry {
  gram: number;
  count: number;
  /** Where its list starts in the blob. */
  offset: number;
  /** Its list's length in bytes (gaps or a bitmap: postings.ts). */
  bytes: number;
}

export function readBucketHeader(data: Uint8Array): { entries: BucketEntry[]; bodyStart: number } {
  const r = new ByteReader(data);
  const n = r.varint();
  const entries: BucketEntry[] = [];
  let gram = 0;
  let offset = 0;
  for (let i = 0; i < n; i++) {
    gram += r.varint();
    const count = r.varint();
    const bytes = r.varint();
    entries.push({ gram, count, offset, bytes });
    offset += bytes;
  }
  for (const e of entries) e.offset += r.pos;
  return { entries, bodyStart: r.pos };
}

/** The ids of `gram` in a bucket blob of a segment whose ids start at `base`, or an empty list. */
export function postingsIn(data: Uint8Array, gram: number, base = 0): Uint32Array {
  const entry = readBucketHeader(data).entries.find((e) => e.gram === gram);
  if (!entry) return new Uint32Array(0);
  const out = new Uint32Array(entry.count);
  decodeList(data, entry.offset, entry.bytes, entry.count, out, 0, base);
  return out;
}

/** Encodes one bucket from grams in ascending order and their id lists. */
export function encodeBucket(grams: ArrayLike<number>, lists: readonly { ids: ArrayLike<number>; start: number; end: number }[], head: ByteWriter, body: ByteWriter): Uint8Array {
  head.length = 0;
  body.length = 0;
  head.varint(grams.length);
  let prevGram = 0;
  for (let i = 0; i < grams.length; i++) {
    const l = lists[i]!;
    const before = body.length;
    encodeList(body, l.ids, l.start, l.end, 0);
    head.varint(grams[i]! - prevGram);
    prevGram = grams[i]!;
    head.varint(l.end - l.start);
    head.varint(body.length - before);
  }
  // A view of exactly the bucket's bytes; a bucket above 1 MiB lies in a bigger mapping (scratch.ts).
  const out = scratchArray(Uint8Array, head.length + body.length).subarray(0, head.length + body.length);
  out.set(head.bytes.subarray(0, head.length));
  out.set(body.bytes.subarray(0, body.length), head.length);
  return out;
}
