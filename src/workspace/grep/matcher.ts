// How the built-in engine matches one file's text, the same in the main thread and in a grep worker:
// a literal prefilter on the raw bytes, then RE2 (linear time) on the lines that can match.
import { Buffer } from 'node:buffer';
import { compileRegex, type LinearRegex } from '../../text/linear-regex.ts';
import { requiredLiterals } from '../../text/required-literals.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, matchLine } from './types.ts';

// ripgrep's --word-regexp: no letter, digit or underscore (any script) right before or after.
const WORD_CHARS = '\\p{L}\\p{N}_';
/** Longest line whose match position is worked out: locating is slower than testing. */
const LOCATE_MAX_CHARS = 1_000_000;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function compilePattern(query: Pick<GrepQuery, 'pattern' | 'literal' | 'ignoreCase' | 'wordBoundary'>): LinearRegex {
  return compileRegex(query.pattern, { literal: query.literal, ignoreCase: query.ignoreCase, wordChars: query.wordBoundary ? WORD_CHARS : undefined });
}

/** A case-sensitive literal without word boundaries: finding it in the bytes is the match. */
function plainLiteral(query: GrepQuery): boolean {
  return query.literal && !query.wordBoundary && !query.ignoreCase;
}

/**
 * Throws the regex error of an invalid pattern. A plain literal (without surrogate code units) is
 * always valid and is found in the bytes: it is not compiled for this.
 */
export function checkPattern(query: GrepQuery): void {
  if (plainLiteral(query) && !/[\uD800-\uDFFF]/.test(query.pattern)) return;
  compilePattern(query);
}

/** Lets the event loop take turns during a long match in the main thread (a worker never pauses). */
export interface Pacer {
  /** Counts text about to be matched; true when the event loop is due a turn. */
  due(chars: number): boolean;
  /** Gives the event loop a turn; false when the search was cancelled meanwhile. */
  turn(): Promise<boolean>;
}

export const NEVER_PAUSE: Pacer = { due: () => false, turn: async () => true };

/** A query compiled once for many files. */
export interface Matcher {
  regex: LinearRegex;
  /** Text every matching line holds (case-sensitive queries only). */
  required: string | undefined;
  needle: Buffer | undefined;
  /** Finding the needle is the match (a plain, case-sensitive literal). */
  exact: boolean;
  /** False when a line holding the needle cannot match: it lacks another run every match holds. */
  alsoHolds(line: string): boolean;
  /** False only when no line of the file can match. */
  prefilter(bytes: Uint8Array): boolean;
  /** The file's matching lines (split at \n). */
  count(bytes: Uint8Array): number;
}

/**
 * Text a matcher in the main thread may still run a regex over (counted in UTF-16 units, line by
 * line): a new process's regex searches before any grep worker is ready (scan-run.ts).
 */
export interface RegexAllowance {
  left: number;
}

/** Thrown by a matcher whose allowance cannot take the next line: the file is searched elsewhere, whole. */
export class AllowanceSpent extends Error {
  constructor() {
    super('the regex allowance of this thread is spent');
  }
}

/** `allowance`: every line the regex runs on is first taken from it (see RegexAllowance). */
export function createMatcher(query: GrepQuery, allowance?: RegexAllowance): Matcher {
  // Compiled when first needed: a plain literal is found in the bytes and never needs it (RE2's
  // compile was ~20 ms of a new process's first search, ~80 ms on a loaded machine).
  let compiled: LinearRegex | undefined;
  const regex = (): LinearRegex => (compiled ??= charged(compilePattern(query), allowance));
  // The runs of text every match of a case-sensitive regex holds: the longest is the needle.
  const runs = query.literal || query.ignoreCase || !query.pattern ? [] : requiredLiterals(query.pattern);
  const required = requiredText(query, runs);
  const needle = required === undefined ? undefined : Buffer.from(required, 'utf8');
  const alsoHolds = otherRuns(runs, required);
  return {
    get regex() {
      return regex();
    },
    required,
    needle,
    exact: plainLiteral(query),
    alsoHolds,
    prefilter: needle ? (bytes) => asBuffer(bytes).includes(needle) : () => true,
    count: lineCounter(query, regex, needle, alsoHolds),
  };
}

function charged(regex: LinearRegex, allowance: RegexAllowance | undefined): LinearRegex {
  if (!allowance) return regex;
  const take = (text: string) => {
    if (text.length > allowance.left) throw new AllowanceSpent();
    allowance.left -= text.length;
  };
  return {
    test(text) {
      take(text);
      return regex.test(text);
    },
    indexIn(text) {
      take(text);
      return regex.indexIn(text);
    },
  };
}

/**
 * Whether a line holding the needle also holds the other runs every match requires (`retry.*count`:
 * "count" beside "retry"): only then is the regex run on it (re2js, ~10–20 µs a line, was most of a
 * regex's sampled refusal on the Linux tree).
 */
function otherRuns(runs: readonly string[], required: string | undefined): (line: string) => boolean {
  const others = runs.filter((r) => r !== required);
  return others.length ? (line) => others.every((r) => line.includes(r)) : () => true;
}

/** `required`: text every matching line holds (a line without it is not matched against the regex). */
export async function searchText(text: string, relPath: string, regex: LinearRegex, context: number, pacer: Pacer, required?: string): Promise<GrepFile | undefined> {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hits = new Map<number, number | undefined>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (pacer.due(line.length + 1) && !(await pacer.turn())) return undefined;
    if (required !== undefined && !line.includes(required)) continue;
    if (regex.test(line)) hits.set(i, line.length <= LOCATE_MAX_CHARS ? regex.indexIn(line) : undefined);
  }
  if (!hits.size) return undefined;
  const wanted = new Set<number>();
  for (const h of hits.keys()) for (let i = Math.max(0, h - context); i <= Math.min(lines.length - 1, h + context); i++) wanted.add(i);
  const out: GrepLine[] = [...wanted]
    .sort((a, b) => a - b)
    .map((i) => (hits.has(i) ? matchLine(i + 1, lines[i]!, hits.get(i)) : { line: i + 1, text: clipLine(lines[i]!), match: false }));
  return { path: relPath, lines: out };
}

/** A NUL byte anywhere: both engines skip the file (Buffer's indexOf is a memchr; Uint8Array's includes walks element by element). */
export function isBinary(bytes: Uint8Array): boolean {
  return asBuffer(bytes).indexOf(0) >= 0;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The text of line [start, end) as the engine sees it (a file's leading BOM is not part of line 1). */
function lineText(buf: Buffer, start: number, end: number): string {
  const from = start === 0 && UTF8_BOM.every((b, i) => buf[i] === b) ? 3 : start;
  return buf.toString('utf8', from, end);
}

/** Text every matching line holds (case-sensitive queries only): the literal, or the longest run a regex requires. */
function requiredText(query: GrepQuery, runs: readonly string[]): string | undefined {
  if (query.ignoreCase || !query.pattern) return undefined;
  if (query.literal) return query.pattern.includes('\n') ? undefined : query.pattern;
  if (!runs.length) return undefined;
  return runs.reduce((a, b) => (Buffer.byteLength(b) > Buffer.byteLength(a) ? b : a));
}

/**
 * A file's match lines found from its raw bytes: only lines holding the needle (the text every match
 * requires) are decoded and tested, line numbers come from counting newlines between them. The same
 * lines, texts and match positions as searchText with no context.
 */
export function matchLinesOf(bytes: Uint8Array, relPath: string, matcher: Matcher): GrepFile | undefined {
  const { needle } = matcher;
  if (!needle) throw new Error('matchLinesOf needs a required text');
  const literal = matcher.exact ? needle.toString('utf8') : undefined;
  const buf = asBuffer(bytes);
  const lines: GrepLine[] = [];
  let lineNo = 1;
  let counted = 0;
  let at = buf.indexOf(needle);
  while (at >= 0) {
    const start = buf.lastIndexOf(10, at) + 1;
    for (let nl = buf.indexOf(10, counted); nl >= 0 && nl < start; nl = buf.indexOf(10, nl + 1)) lineNo++;
    counted = start;
    const nl = buf.indexOf(10, at + needle.length);
    const end = nl < 0 ? buf.length : nl;
    const text = lineText(buf, start, end);
    // A plain literal: finding it is the match, and its first place in the line is where it starts.
    if (literal !== undefined) lines.push(matchLine(lineNo, text, text.indexOf(literal)));
    else if (matcher.alsoHolds(text) && matcher.regex.test(text)) lines.push(matchLine(lineNo, text, text.length <= LOCATE_MAX_CHARS ? matcher.regex.indexIn(text) : undefined));
    if (nl < 0) break;
    at = buf.indexOf(needle, nl + 1);
  }
  return lines.length ? { path: relPath, lines } : undefined;
}

/** Counts a file's matching lines (split at \n, as the engine splits them). */
function lineCounter(query: GrepQuery, regexOf: () => LinearRegex, needle: Buffer | undefined, alsoHolds: (line: string) => boolean): (bytes: Uint8Array) => number {
  if (needle) {
    const exact = query.literal && !query.wordBoundary;
    return (bytes) => {
      const buf = asBuffer(bytes);
      let n = 0;
      let at = buf.indexOf(needle);
      while (at >= 0) {
        const start = buf.lastIndexOf(10, at) + 1;
        const nl = buf.indexOf(10, at + needle.length);
        const end = nl < 0 ? buf.length : nl;
        if (exact) n++;
        else {
          const text = lineText(buf, start, end);
          if (alsoHolds(text) && regexOf().test(text)) n++;
        }
        if (nl < 0) break;
        at = buf.indexOf(needle, nl + 1);
      }
      return n;
    };
  }
  // Case-insensitive: a file whose lower-cased text lacks the lower-cased literal has no match
  // (RE2 folds ſ to s, which lower-casing does not: such a file is always looked at).
  const runs = query.literal ? [query.pattern] : query.ignoreCase ? requiredLiterals(query.pattern) : [];
  const folded = runs.filter((r) => /^[\x20-\x7e]+$/.test(r)).map((r) => r.toLowerCase());
  return (bytes) => {
    const regex = regexOf();
    const text = new TextDecoder().decode(bytes);
    if (folded.length && !/[ſ\u212a]/.test(text)) {
      const lower = text.toLowerCase();
      if (!folded.every((r) => lower.includes(r))) return 0;
    }
    let n = 0;
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf('\n', start);
      const end = nl < 0 ? text.length : nl;
      if (regex.test(text.slice(start, end))) n++;
      if (nl < 0) break;
      start = nl + 1;
    }
    return n;
  };
}
