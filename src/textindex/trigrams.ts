// Trigrams over bytes: every run of three bytes of a file (UTF-8 as it is on disk), ASCII letters
// folded to lower case so one index serves case-sensitive and case-insensitive queries (candidates
// are verified by an exact scan anyway). Runs that hold a line break are left out: searches match
// within a line, so no query ever needs them.
import { MAX_SEARCH_FILE_BYTES } from '../workspace/grep/types.ts';

/** Files larger than this are not indexed (neither grep engine searches them). */
export const MAX_TEXT_FILE_BYTES = MAX_SEARCH_FILE_BYTES;

/** Byte → the byte the index stores: A-Z become a-z, everything else stays. */
export const FOLD = new Uint8Array(256).map((_, b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

const NEWLINE = 0x0a;

/** A file the grep engines skip as binary (a NUL byte anywhere), so the index skips it too. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/** A trigram as the index keys it: three folded bytes in one 24-bit number. */
export function gramOf(a: number, b: number, c: number): number {
  return (FOLD[a]! << 16) | (FOLD[b]! << 8) | FOLD[c]!;
}

/**
 * Extracts the distinct trigrams of one file after another with no allocation per file: a bit set
 * over the 2^24 trigram space marks the ones seen, and only those bits are cleared afterwards.
 */
export class TrigramExtractor {
  private readonly seen = new Uint8Array(1 << 21);
  private out = new Uint32Array(1 << 16);

  /** The distinct trigrams of `bytes`, in order of first appearance; valid until the next call. */
  extract(bytes: Uint8Array): Uint32Array {
    const seen = this.seen;
    let out = this.out;
    let n = 0;
    const len = bytes.length;
    if (len < 3) return out.subarray(0, 0);
    let g = (FOLD[bytes[0]!]! << 8) | FOLD[bytes[1]!]!;
    // How many bytes before i are not line breaks (up to 2): a trigram needs two and its own.
    let clean = bytes[1] === NEWLINE ? 0 : bytes[0] === NEWLINE ? 1 : 2;
    for (let i = 2; i < len; i++) {
      const b = bytes[i]!;
      g = ((g << 8) | FOLD[b]!) & 0xffffff;
      if (b === NEWLINE) {
        clean = 0;
        continue;
      }
      if (clean < 2) {
        clean++;
        continue;
      }
      const byte = g >>> 3;
      const bit = 1 << (g & 7);
      if (seen[byte]! & bit) continue;
      seen[byte] = seen[byte]! | bit;
      if (n === out.length) {
        const grown = new Uint32Array(out.length * 2);
        grown.set(out);
        out = grown;
        this.out = out;
      }
      out[n++] = g;
    }
    for (let i = 0; i < n; i++) seen[out[i]! >>> 3] = 0;
    return out.subarray(0, n);
  }
}
