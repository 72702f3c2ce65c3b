// Trigrams over bytes: every run of three bytes of a file (UTF-8 as it is on disk), ASCII letters
// folded to lower case so one index serves case-sensitive and case-insensitive queries (candidates
// are verified by an exact scan anyway). Runs that hold a line break are left out: searches match
// within a line, so no query ever needs them.
//
// Words too: every maximal run of three or more ASCII letters, digits and underscores, folded to
// lower case and hashed into a key above the trigram space. A whole-word query for an identifier
// (locate, read) then names the files holding that word, not every file holding its trigrams
// (list_add: 1,433 files, not the 9,287 holding "lis", "ist", … anywhere). A byte past ASCII ends a
// run: a file is then indexed under more words than a Unicode word boundary sees, never fewer.
import { MAX_SEARCH_FILE_BYTES } from '../workspace/grep/types.ts';
import { scratchArray } from '../runtime/scratch.ts';

/** Files larger than this are not indexed (neither grep engine searches them). */
export const MAX_TEXT_FILE_BYTES = MAX_SEARCH_FILE_BYTES;

/** Byte → the byte the index stores: A-Z become a-z, everything else stays. */
export const FOLD = new Uint8Array(256).map((_, b) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b));

const NEWLINE = 0x0a;

/** A file the grep engines skip as binary (a NUL byte anywhere), so the index skips it too. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/** Word keys start above every trigram key (2^24) and stay below 2^31. */
export const WORD_KEY_BASE = 1 << 24;
const WORD_KEY_SPAN = 2 ** 31 - WORD_KEY_BASE;
/** Shorter words are not indexed (a query for one is narrowed by its trigrams, when it has any). */
export const MIN_WORD = 3;

/** Slots of the per-file word table (grown for a file with more than half as many words). */
const WORD_TABLE = 1 << 12;

/** Bytes that make up an indexed word: ASCII letters, digits and underscore. */
const WORD_BYTE = new Uint8Array(256).map((_, b) => (b === 0x5f || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) ? 1 : 0));

/** FNV-1a step over a folded byte. */
function fnv(h: number, byte: number): number {
  return Math.imul(h ^ byte, 0x01000193) >>> 0;
}
const FNV_START = 0x811c9dc5;

/** The key of a word (ASCII letters, digits and underscores; any case). */
export function wordKey(word: string): number {
  let h = FNV_START;
  for (let i = 0; i < word.length; i++) h = fnv(h, FOLD[word.charCodeAt(i) & 0xff]!);
  return WORD_KEY_BASE + (h % WORD_KEY_SPAN);
}

/** Whether a whole-word query for `text` can be narrowed by its word key. */
export function isIndexedWord(text: string): boolean {
  if (text.length < MIN_WORD) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f || !WORD_BYTE[c]) return false;
  }
  return true;
}

/** A trigram as the index keys it: three folded bytes in one 24-bit number. */
export function gramOf(a: number, b: number, c: number): number {
  return (FOLD[a]! << 16) | (FOLD[b]! << 8) | FOLD[c]!;
}

/**
 * Extracts the distinct keys of one file after another — its trigrams, then its words — with no
 * allocation per file: a bit set over the 2^24 trigram space marks the trigrams seen, an open
 * addressing table the words, and only what was set is cleared afterwards.
 */
export class TrigramExtractor {
  private readonly seen = new Uint8Array(1 << 21);
  private out = new Uint32Array(1 << 16);
  /** Word keys seen in this file (0: empty slot; keys are never 0). */
  private words = new Uint32Array(WORD_TABLE);
  private wordCount = 0;

  private push(n: number, key: number): number {
    if (n === this.out.length) {
      const grown = scratchArray(Uint32Array, this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[n] = key;
    return n + 1;
  }

  /** The distinct keys of `bytes` (trigrams, then words), in order of first appearance; valid until the next call. */
  extract(bytes: Uint8Array): Uint32Array {
    const seen = this.seen;
    let n = 0;
    const len = bytes.length;
    if (len >= 3) {
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
        n = this.push(n, g);
      }
      for (let i = 0; i < n; i++) seen[this.out[i]! >>> 3] = 0;
    }
    let h = FNV_START;
    let run = 0;
    for (let i = 0; i <= len; i++) {
      const b = i < len ? bytes[i]! : 0;
      if (WORD_BYTE[b]) {
        h = fnv(h, FOLD[b]!);
        run++;
        continue;
      }
      if (run >= MIN_WORD) n = this.addWord(n, WORD_KEY_BASE + (h % WORD_KEY_SPAN));
      h = FNV_START;
      run = 0;
    }
    // Empty the word table for the next file (a table a big file grew is dropped: clearing it per file would cost).
    if (this.words.length > WORD_TABLE) this.words = new Uint32Array(WORD_TABLE);
    else if (this.wordCount) this.words.fill(0);
    this.wordCount = 0;
    return this.out.subarray(0, n);
  }

  /** Appends `key` unless this file has it already. */
  private addWord(n: number, key: number): number {
    const table = this.words;
    const mask = table.length - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> 0;
    for (;;) {
      slot &= mask;
      const at = table[slot]!;
      if (at === key) return n;
      if (at === 0) break;
      slot++;
    }
    table[slot] = key;
    this.wordCount++;
    if (this.wordCount * 2 > table.length) this.rehash(table.length * 2);
    return this.push(n, key);
  }

  private rehash(size: number): void {
    const bigger = new Uint32Array(size);
    const mask = size - 1;
    for (const key of this.words) {
      if (key === 0) continue;
      let slot = Math.imul(key, 0x9e3779b1) >>> 0;
      for (;;) {
        slot &= mask;
        if (bigger[slot] === 0) break;
        slot++;
      }
      bigger[slot] = key;
    }
    this.words = bigger;
  }

}
