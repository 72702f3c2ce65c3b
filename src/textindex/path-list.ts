// The catalogue's paths as one run of UTF-8 bytes (newline-separated) and where each path ends, a
// string made only for the paths a query picks (then kept). On the Linux tree, splitting the
// snapshot's 77k paths into strings cost a new server 35–45 ms before its first answer (the decode,
// the split, then the collector moving them) for a query that names ~5,000 of them.

export interface PathList {
  readonly length: number;
  /** The path at index `i` (0 ≤ i < length). */
  at(i: number): string;
  /** The paths at these indexes, in their order: made in one decode (a query's thousands of candidates). */
  atAll(indexes: readonly number[]): string[];
  /** Marks the paths equal to `folder` or under it (`folder/…`) in `into`; how many it marked. */
  markUnder(folder: string, into: Uint8Array): number;
  /** The paths' bytes, one separator byte (a newline) between two, and where each path ends (exclusive). */
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

const encoder = new TextEncoder();
// A leading U+FEFF is part of a name, not a byte-order mark to drop.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A list over `bytes` with path `i` at [ends[i − 1] + 1 (0 for the first), ends[i]); undefined when
 * `ends` do not fit `bytes` (each end past the one before, the last at the bytes' end).
 */
export function pathList(bytes: Uint8Array, ends: Uint32Array): PathList | undefined {
  let next = 0;
  for (let i = 0; i < ends.length; i++) {
    if (ends[i]! < next) return undefined;
    next = ends[i]! + 1;
  }
  if ((ends.length ? ends[ends.length - 1]! : 0) !== bytes.length) return undefined;
  const made: (string | undefined)[] = new Array(ends.length);
  const startOf = (i: number) => (i === 0 ? 0 : ends[i - 1]! + 1);
  const at = (i: number): string => {
    let path = made[i];
    if (path === undefined) {
      path = decoder.decode(bytes.subarray(startOf(i), ends[i]));
      made[i] = path;
    }
    return path;
  };
  return {
    length: ends.length,
    bytes,
    ends,
    at,
    atAll(indexes) {
      const wanted: number[] = [];
      let total = 0;
      for (const i of indexes) {
        if (made[i] !== undefined) continue;
        wanted.push(i);
        total += ends[i]! - startOf(i) + 1;
      }
      if (wanted.length > 1) {
        // The paths not made yet, back to back with newlines between, decoded at once and split
        // (copied byte by byte: a subarray per path cost more than the copy).
        const joined = new Uint8Array(total - 1);
        let to = 0;
        for (const i of wanted) {
          for (let k = startOf(i), end = ends[i]!; k < end; k++) joined[to++] = bytes[k]!;
          if (to < joined.length) joined[to++] = 10;
        }
        const pieces = decoder.decode(joined).split('\n');
        // A path holding a newline splits in two: then each is made on its own.
        if (pieces.length === wanted.length) for (let k = 0; k < wanted.length; k++) made[wanted[k]!] = pieces[k];
      }
      return indexes.map(at);
    },
    markUnder(folder, into) {
      const want = encoder.encode(folder);
      let marked = 0;
      for (let i = 0; i < ends.length; i++) {
        const start = startOf(i);
        const length = ends[i]! - start;
        // The folder itself, or a path under it: its bytes, then a slash.
        if (length < want.length || (length > want.length && bytes[start + want.length] !== 0x2f)) continue;
        let k = 0;
        while (k < want.length && bytes[start + k] === want[k]) k++;
        if (k === want.length) {
          into[i] = 1;
          marked++;
        }
      }
      return marked;
    },
  };
}

/** A list of the given paths (one of them may hold a newline: each path's end is its own length). */
export function pathListOf(paths: readonly string[]): PathList {
  const encoded = paths.map((p) => encoder.encode(p));
  const bytes = new Uint8Array(encoded.reduce((n, b) => n + b.length + 1, 0) - Math.min(1, encoded.length));
  const ends = new Uint32Array(paths.length);
  let at = 0;
  encoded.forEach((b, i) => {
    if (i > 0) bytes[at++] = 10;
    bytes.set(b, at);
    at += b.length;
    ends[i] = at;
  });
  return pathList(bytes, ends)!;
}

/** A list of `n` paths joined by newlines in one string, none holding a newline itself. */
export function pathListJoined(joined: string, n: number): PathList | undefined {
  const bytes = n === 0 ? new Uint8Array(0) : encoder.encode(joined);
  const ends = new Uint32Array(n);
  let from = 0;
  for (let i = 0; i < n - 1; i++) {
    const nl = bytes.indexOf(10, from);
    if (nl < 0) return undefined;
    ends[i] = nl;
    from = nl + 1;
  }
  if (n > 0) {
    if (bytes.indexOf(10, from) >= 0) return undefined;
    ends[n - 1] = bytes.length;
  }
  return pathList(bytes, ends);
}
