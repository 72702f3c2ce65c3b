// One segment of the text index: the postings of the documents it holds, in buckets of the format
// bucket.ts describes — built from documents (SegmentBuilder) or merged from other segments'
// buckets (BucketMerger, compaction).
import { type BucketEntry, bitsFor, bucketOf, type EncodedBucket, encodeBucket, readBucketHeader } from './bucket.ts';
import { ByteWriter, decodeList, encodeList } from './postings.ts';
import { scratchArray } from '../runtime/scratch.ts';

/**
 * Counts per word key: open addressing over two typed arrays (a Map of a segment's million words
 * took ~100 MB and most of the segment's time).
 */
class KeyCounts {
  private keys = new Uint32Array(1 << 16);
  private values = new Uint32Array(1 << 16);
  private size = 0;

  private slotOf(key: number): number {
    const mask = this.keys.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0;
    for (;;) {
      slot &= mask;
      const at = this.keys[slot]!;
      if (at === key || at === 0) return slot;
      slot++;
    }
  }

  /** Empties the table, keeping its size (a build's segments have similar numbers of words). */
  clear(): void {
    if (this.size) this.keys.fill(0);
    this.size = 0;
  }

  get(key: number): number {
    const slot = this.slotOf(key);
    return this.keys[slot] === key ? this.values[slot]! : 0;
  }

  set(key: number, value: number): void {
    this.add(key, value - this.get(key));
  }

  /** Adds `n` to the key's value; returns the value before. */
  add(key: number, n: number): number {
    let slot = this.slotOf(key);
    if (this.keys[slot] !== key) {
      if ((this.size + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.slotOf(key);
      }
      this.keys[slot] = key;
      this.values[slot] = 0;
      this.size++;
    }
    const before = this.values[slot]!;
    this.values[slot] = before + n;
    return before;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    // Views of the table's size (slotOf masks with its length) over arrays that may be bigger (scratch.ts).
    this.keys = scratchArray(Uint32Array, keys.length * 2).subarray(0, keys.length * 2);
    this.values = scratchArray(Uint32Array, keys.length * 2).subarray(0, keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.slotOf(keys[i]!);
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
    }
  }
}

/** Trigram keys are below 2^24; word keys (trigrams.ts) below 2^31. */
const TRIGRAM_KEYS = 1 << 24;
const KEY_SPAN = 2 ** 31;

/**
 * Collects documents' trigrams in memory and turns them into a segment's buckets: a counting sort
 * by trigram over one shared 2^24 counter array, so memory stays at a few bytes per posting.
 */
export class SegmentBuilder {
  private grams = new Uint32Array(1 << 20);
  private postings = 0;
  /** Per document (local index): where its trigrams start in `grams`. */
  private starts: number[] = [];
  private counts: Uint32Array | undefined;
  private wordCounts = new KeyCounts();
  private distinct = new Uint32Array(1 << 16);
  private keys = new Float64Array(0);
  private ends = new Uint32Array(0);
  private ids = new Uint32Array(0);
  sourceBytes = 0;

  get docs(): number {
    return this.starts.length;
  }

  get size(): number {
    return this.postings;
  }

  /** Adds the next document (local ids count up from 0); `grams` are its distinct trigrams. */
  add(grams: Uint32Array, sourceBytes: number): number {
    if (this.postings + grams.length > this.grams.length) {
      let size = this.grams.length * 2;
      while (size < this.postings + grams.length) size *= 2;
      const grown = scratchArray(Uint32Array, size);
      grown.set(this.grams.subarray(0, this.postings));
      this.grams = grown;
    }
    this.grams.set(grams, this.postings);
    this.starts.push(this.postings);
    this.postings += grams.length;
    this.sourceBytes += sourceBytes;
    return this.starts.length - 1;
  }

  /** The segment's buckets (documents numbered from 0 in the order added); the builder is empty afterwards. */
  finish(): { bits: number; buckets: EncodedBucket[]; postings: number; grams: number } {
    // Counts per key: an array over the trigram space, a hash table for word keys (above it).
    this.counts ??= new Uint32Array(TRIGRAM_KEYS);
    const counts = this.counts;
    const wordCounts = this.wordCounts;
    wordCounts.clear();
    const countOf = (g: number) => (g < TRIGRAM_KEYS ? counts[g]! : wordCounts.get(g));
    const setCount = (g: number, n: number) => {
      if (g < TRIGRAM_KEYS) counts[g] = n;
      else wordCounts.set(g, n);
    };
    const grams = this.grams;
    const total = this.postings;
    let distinct = this.distinct;
    let nd = 0;
    for (let i = 0; i < total; i++) {
      const g = grams[i]!;
      let seen: number;
      if (g < TRIGRAM_KEYS) {
        seen = counts[g]!;
        counts[g] = seen + 1;
      } else seen = wordCounts.add(g, 1);
      if (seen === 0) {
        if (nd === distinct.length) {
          const grown = scratchArray(Uint32Array, nd * 2);
          grown.set(distinct);
          distinct = grown;
          this.distinct = grown;
        }
        distinct[nd++] = g;
      }
    }
    const bits = bitsFor(nd);
    // Order: bucket, then key (bucket < 2^18, key < 2^31: both fit a double exactly).
    // Scratch arrays are kept from one segment to the next: a build writes dozens of segments, and
    // arrays of tens of MB allocated and dropped each time left the process's memory fragmented.
    if (this.keys.length < nd) this.keys = scratchArray(Float64Array, nd);
    if (this.ends.length < nd) this.ends = scratchArray(Uint32Array, nd);
    if (this.ids.length < total) this.ids = scratchArray(Uint32Array, total);
    const keys = this.keys.subarray(0, nd);
    for (let k = 0; k < nd; k++) keys[k] = bucketOf(distinct[k]!, bits) * KEY_SPAN + distinct[k]!;
    keys.sort();
    const ends = this.ends;
    let off = 0;
    for (let k = 0; k < nd; k++) {
      const g = keys[k]! % KEY_SPAN;
      const c = countOf(g);
      setCount(g, off);
      off += c;
      ends[k] = off;
    }
    const ids = this.ids;
    const docs = this.starts.length;
    for (let d = 0; d < docs; d++) {
      const from = this.starts[d]!;
      const to = d + 1 < docs ? this.starts[d + 1]! : total;
      for (let i = from; i < to; i++) {
        const g = grams[i]!;
        if (g < TRIGRAM_KEYS) ids[counts[g]!++] = d;
        else ids[wordCounts.add(g, 1)] = d;
      }
    }
    for (let k = 0; k < nd; k++) {
      const g = keys[k]! % KEY_SPAN;
      if (g < TRIGRAM_KEYS) counts[g] = 0;
    }
    const buckets: EncodedBucket[] = [];
    const head = new ByteWriter(1 << 12);
    const body = new ByteWriter(1 << 16);
    let k = 0;
    while (k < nd) {
      const bucket = Math.floor(keys[k]! / KEY_SPAN);
      const bucketGrams: number[] = [];
      const lists: { ids: Uint32Array; start: number; end: number }[] = [];
      for (; k < nd && Math.floor(keys[k]! / KEY_SPAN) === bucket; k++) {
        bucketGrams.push(keys[k]! % KEY_SPAN);
        lists.push({ ids, start: k === 0 ? 0 : ends[k - 1]!, end: ends[k]! });
      }
      buckets.push({ bucket, data: encodeBucket(bucketGrams, lists, head, body) });
    }
    this.starts = [];
    this.postings = 0;
    this.sourceBytes = 0;
    return { bits, buckets, postings: total, grams: nd };
  }

  /** Lets go of the big arrays (end of a build). */
  release(): void {
    this.counts = undefined;
    this.grams = new Uint32Array(1 << 10);
    this.wordCounts = new KeyCounts();
    this.distinct = new Uint32Array(1 << 16);
    this.keys = new Float64Array(0);
    this.ends = new Uint32Array(0);
    this.ids = new Uint32Array(0);
  }
}

/**
 * Merges one target bucket from buckets of several segments (oldest first: ascending id ranges;
 * `bases` their first ids, `base` the merged segment's):
 * trigrams that belong to it (`own`) are decoded straight into one scratch list, ids that are no
 * longer `alive` dropped, and encoded again. Undefined when nothing is left.
 */
export class BucketMerger {
  private scratch = new Uint32Array(1 << 16);
  private readonly entries = new ByteWriter(1 << 12);
  private readonly body = new ByteWriter(1 << 16);

  merge(blobs: readonly Uint8Array[], bases: readonly number[], base: number, own: (gram: number) => boolean, alive: Uint8Array): { data: Uint8Array; postings: number } | undefined {
    const headers = blobs.map((data) => readBucketHeader(data).entries);
    let total = 0;
    for (const h of headers) total += h.length;
    // Order: trigram, then segment (at most 1024 blobs; both fit a double exactly).
    if (blobs.length > 1024) throw new RangeError('at most 1024 segments merge at once');
    const keys = scratchArray(Float64Array, total).subarray(0, total);
    let k = 0;
    headers.forEach((h, blob) => {
      for (let i = 0; i < h.length; i++) keys[k++] = h[i]!.gram * 1024 + blob;
    });
    const position = headers.map((h) => new Map(h.map((e, i) => [e.gram, i])));
    keys.sort();
    const { entries, body } = this;
    entries.length = 0;
    body.length = 0;
    let grams = 0;
    let postings = 0;
    let prevGram = 0;
    let i = 0;
    while (i < total) {
      const gram = Math.floor(keys[i]! / 1024);
      let j = i;
      while (j < total && Math.floor(keys[j]! / 1024) === gram) j++;
      if (own(gram)) {
        let n = 0;
        for (let x = i; x < j; x++) {
          const blob = keys[x]! % 1024;
          const e = headers[blob]![position[blob]!.get(gram)!]!;
          n = this.decodeAlive(blobs[blob]!, e, bases[blob]!, alive, n);
        }
        if (n > 0) {
          const list = this.scratch;
          let sorted = true;
          for (let y = 1; y < n && sorted; y++) sorted = list[y - 1]! < list[y]!;
          if (!sorted) list.subarray(0, n).sort();
          const before = body.length;
          encodeList(body, list, 0, n, base);
          entries.varint(gram - prevGram);
          entries.varint(n);
          entries.varint(body.length - before);
          prevGram = gram;
          grams++;
          postings += n;
        }
      }
      i = j;
    }
    if (!grams) return undefined;
    const count = new ByteWriter(8);
    count.varint(grams);
    const size = count.length + entries.length + body.length;
    // A view of exactly the bucket's bytes; a bucket above 1 MiB lies in a bigger mapping (scratch.ts).
    const out = scratchArray(Uint8Array, size).subarray(0, size);
    out.set(count.bytes.subarray(0, count.length));
    out.set(entries.bytes.subarray(0, entries.length), count.length);
    out.set(body.bytes.subarray(0, body.length), count.length + entries.length);
    return { data: out, postings };
  }

  /** Appends the alive ids of one list to the scratch list; returns its new length. */
  private decodeAlive(bytes: Uint8Array, entry: BucketEntry, base: number, alive: Uint8Array, at: number): number {
    const { count } = entry;
    if (this.scratch.length < at + count) {
      const grown = scratchArray(Uint32Array, Math.max(this.scratch.length * 2, at + count));
      grown.set(this.scratch.subarray(0, at));
      this.scratch = grown;
    }
    const out = this.scratch;
    const end = decodeList(bytes, entry.offset, entry.bytes, count, out, at, base);
    let n = at;
    for (let i = at; i < end; i++) {
      const id = out[i]!;
      if (alive[id] === 1) out[n++] = id;
    }
    return n;
  }
}
