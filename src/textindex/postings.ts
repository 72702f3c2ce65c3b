// Posting lists: the sorted document ids of one trigram, stored as varint-encoded gaps (csearch's
// file-level postings) or, where a trigram is in more than one document in eight of its id range, as a
// bitmap (`int`, `the`, `ret` are in most files: a byte per id as gaps, a bit per id as a bitmap); and the
// set operations a query plan needs on the decoded lists. Which of the two a list is needs no flag: gaps
// take at least a byte per id, and a bitmap is only written when it takes fewer bytes than it has ids.

import { scratchArray } from '../runtime/scratch.ts';

/** A growable byte buffer for varints. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Makes room for n more bytes (`bytes` may be replaced). */
  reserve(n: number): void {
    this.room(n);
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = scratchArray(Uint8Array, size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  varint(value: number): void {
    this.room(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  append(data: Uint8Array): void {
    this.room(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /** The written bytes (a copy, so the writer can be reused). */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** Reads varints from a byte array. */
export class ByteReader {
  readonly bytes: Uint8Array;
  pos: number;

  constructor(bytes: Uint8Array, pos = 0) {
    this.bytes = bytes;
    this.pos = pos;
  }

  varint(): number {
    const b = this.bytes;
    let v = 0;
    let shift = 0;
    for (;;) {
      const byte = b[this.pos++];
      if (byte === undefined) throw new RangeError('truncated varint in the text index');
      v += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return v;
      shift += 7;
    }
  }
}

/** Appends ids (ascending) as gaps from `previous`; returns the last id written. */
export function encodeGaps(out: ByteWriter, ids: ArrayLike<number>, start: number, end: number, previous: number): number {
  out.reserve((end - start) * 5);
  const bytes = out.bytes;
  let n = out.length;
  let prev = previous;
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    let v = (id - prev) >>> 0;
    prev = id;
    while (v >= 0x80) {
      bytes[n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    bytes[n++] = v;
  }
  out.length = n;
  return prev;
}

/** Bytes of a bitmap list: its first id as a gap from `previous`, then one bit for each id after it up to its last. */
function bitmapBytes(first: number, last: number, previous: number): number {
  let v = (first - previous) >>> 0;
  let n = 1;
  while (v >= 0x80) {
    v >>>= 7;
    n++;
  }
  return n + Math.ceil((last - first) / 8);
}

/**
 * Appends ids[start…end) (ascending, all above `previous`) as the smaller of gaps and a bitmap; returns
 * the last id written. decodeList tells them apart by the list's length in bytes against its count.
 */
export function encodeList(out: ByteWriter, ids: ArrayLike<number>, start: number, end: number, previous: number): number {
  const count = end - start;
  if (count < 9) return encodeGaps(out, ids, start, end, previous);
  const first = ids[start]!;
  const last = ids[end - 1]!;
  const size = bitmapBytes(first, last, previous);
  if (size >= count) return encodeGaps(out, ids, start, end, previous);
  out.varint(first - previous);
  const length = Math.ceil((last - first) / 8);
  out.reserve(length);
  const from = out.length;
  const bits = out.bytes;
  bits.fill(0, from, from + length);
  for (let i = start + 1; i < end; i++) {
    const bit = ids[i]! - first - 1;
    const at = from + (bit >>> 3);
    bits[at] = bits[at]! | (1 << (bit & 7));
  }
  out.length = from + length;
  return last;
}

/**
 * Decodes a list of `count` ids stored in bytes[from…from+length) by encodeList (or encodeGaps) into
 * `into` at `at`; returns the next write position.
 */
export function decodeList(bytes: Uint8Array, from: number, length: number, count: number, into: Uint32Array, at: number, previous = 0): number {
  if (length >= count) return decodeGaps(bytes, from, count, into, at, previous);
  let pos = from;
  let byte = bytes[pos++]!;
  let v = byte & 0x7f;
  for (let shift = 7; byte >= 0x80; shift += 7) {
    byte = bytes[pos++]!;
    v |= (byte & 0x7f) << shift;
  }
  const first = previous + (v >>> 0);
  let n = at;
  into[n++] = first;
  const end = from + length;
  for (let p = pos; p < end && n < at + count; p++) {
    let b = bytes[p]!;
    const base = first + 1 + (p - pos) * 8;
    while (b) {
      const low = b & -b;
      into[n++] = base + 31 - Math.clz32(low);
      b ^= low;
    }
  }
  if (n !== at + count) throw new RangeError('a bitmap list in the text index holds another number of ids than its count');
  return n;
}

/** Decodes `count` gap-encoded ids from bytes[from…] into `into` at `at`; returns the next write position. */
export function decodeGaps(bytes: Uint8Array, from: number, count: number, into: Uint32Array, at: number, previous = 0): number {
  let pos = from;
  let prev = previous;
  let n = at;
  for (let k = 0; k < count; k++) {
    let byte = bytes[pos++]!;
    let v = byte & 0x7f;
    if (byte >= 0x80) {
      let shift = 7;
      do {
        byte = bytes[pos++]!;
        v |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte >= 0x80);
    }
    prev += v >>> 0;
    into[n++] = prev;
  }
  return n;
}

/** Ids in both sorted lists. */
export function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const [small, big] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Uint32Array(small.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length && j < big.length; i++) {
    const v = small[i]!;
    // Gallop when the other list is much longer: a rare trigram against a common one.
    if (big[j]! < v) {
      let step = 1;
      while (j + step < big.length && big[j + step]! < v) step *= 2;
      let lo = j + (step >> 1);
      let hi = Math.min(j + step, big.length);
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (big[mid]! < v) lo = mid + 1;
        else hi = mid;
      }
      j = lo;
    }
    if (j < big.length && big[j] === v) out[n++] = v;
  }
  return out.subarray(0, n);
}

/** Ids in either sorted list. */
export function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (!a.length) return b;
  if (!b.length) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[n++] = x;
      i++;
    } else if (y < x) {
      out[n++] = y;
      j++;
    } else {
      out[n++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.subarray(0, n);
}
