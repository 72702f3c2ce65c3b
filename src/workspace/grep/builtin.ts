// The pure-TypeScript search engine: the same answers as ripgrep for the flags ctx_fs offers
// (gitignore-aware walk, hidden files skipped, binaries and huge files skipped, sorted by path).
import { Buffer } from 'node:buffer';
import * as path from 'node:path';
import type { RuntimeFs } from '../../runtime/types.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { isSecretPath } from '../../security/secret-files.ts';
import { compileGlob } from '../../text/glob.ts';
import { compileRegex, type LinearRegex } from '../../text/linear-regex.ts';
import { requiredLiterals } from '../../text/required-literals.ts';
import type { ListedFile } from './filelist.ts';
import { walk } from '../walk.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, type GrepResult, keepMatches, MAX_SEARCH_FILE_BYTES, matchLine } from './types.ts';

// ripgrep's --word-regexp: no letter, digit or underscore (any script) right before or after.
const WORD_CHARS = '\\p{L}\\p{N}_';
/** The engine gives the event loop a turn after matching this much text, so other calls run. */
const YIELD_EVERY_CHARS = 1 << 20;
/** Longest line whose match position is worked out: locating is slower than testing. */
const LOCATE_MAX_CHARS = 20_000;

export function compilePattern(query: GrepQuery): LinearRegex {
  return compileRegex(query.pattern, { literal: query.literal, ignoreCase: query.ignoreCase, wordChars: query.wordBoundary ? WORD_CHARS : undefined });
}

/**
 * A glob filter as ripgrep applies it: no slash → file name at any depth; leading ! → exclude. A
 * positive glob that matches a file overrides .gitignore for that file (hidden files stay hidden,
 * ignored folders stay unentered), exactly as `rg --glob` does.
 */
export function globFilter(glob: string | undefined): (rel: string, ignored: boolean) => boolean {
  if (!glob) return (_rel, ignored) => !ignored;
  const negate = glob.startsWith('!');
  const body = negate ? glob.slice(1) : glob;
  const matches = compileGlob(body.replace(/^\//, ''));
  const matcher = body.includes('/') ? matches : (rel: string) => matches(rel.slice(rel.lastIndexOf('/') + 1));
  if (negate) return (rel, ignored) => !ignored && !matcher(rel);
  return (rel) => matcher(rel);
}

interface Pacer {
  /** Counts text about to be matched; true when the event loop is due a turn. */
  due(chars: number): boolean;
  /** Gives the event loop a turn; false when the search was cancelled meanwhile. */
  turn(): Promise<boolean>;
}

function createPacer(signal: AbortSignal | undefined): Pacer {
  let left = YIELD_EVERY_CHARS;
  return {
    due(chars) {
      left -= chars;
      return left <= 0;
    },
    async turn() {
      left = YIELD_EVERY_CHARS;
      // setImmediate, not setTimeout(0): I/O and other calls get their turn either way, but a timer
      // costs 1–2 ms each (100 turns: 113 ms vs 1 ms on Node, 216 vs 4 on Deno, measured here).
      await new Promise((resolve) => setImmediate(resolve));
      return !signal?.aborted;
    },
  };
}

/** `required`: text every matching line holds (a line without it is not matched against the regex). */
async function searchText(text: string, relPath: string, regex: LinearRegex, context: number, pacer: Pacer, required?: string): Promise<GrepFile | undefined> {
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

interface Candidate {
  abs: string;
  relRoot: string;
  relBase: string;
  ignored: boolean;
  size?: number;
}

/** The files a search of `target` looks at, sorted by path: a walk, or the admitted files of a list. */
async function candidatesOf(fs: RuntimeFs, target: SafePath, query: GrepQuery, signal: AbortSignal | undefined, listed: readonly ListedFile[] | undefined): Promise<Candidate[]> {
  if (listed) {
    const cut = target.relative ? target.relative.length + 1 : 0;
    return listed.map((l) => ({ abs: l.abs, relRoot: l.relRoot, relBase: l.relRoot.slice(cut), ignored: false, size: l.size }));
  }
  const passesGlob = globFilter(query.glob);
  const candidates: Candidate[] = [];
  if ((await fs.stat(target.real))?.isDirectory) {
    const excludeDirs = new Set(query.excludeDirs ?? []);
    const excluded = (query.excludePaths ?? []).map((p) => p.replace(/^\/+|\/+$/g, ''));
    const walking = walk(fs, { root: target.workdir, base: target.real, includeHidden: false, respectGitignore: true, keepIgnoredFiles: true, listOnlyDirs: new Set(), excludeDirs, signal });
    for await (const e of walking) {
      if (excluded.some((p) => e.relRoot === p || e.relRoot.startsWith(`${p}/`))) continue;
      if (e.type === 'file') candidates.push({ abs: e.path, relRoot: e.relRoot, relBase: e.rel, ignored: e.ignored === true });
    }
  } else {
    const name = target.relative.split('/').pop() ?? target.relative;
    candidates.push({ abs: target.real, relRoot: target.relative, relBase: name, ignored: false });
  }
  candidates.sort((a, b) => (a.relRoot < b.relRoot ? -1 : a.relRoot > b.relRoot ? 1 : 0));
  return candidates.filter((c) => !isSecretPath(c.relRoot) && passesGlob(c.relBase, c.ignored));
}

/** A candidate's bytes, or undefined when it is too big, unreadable or binary (both engines skip those). */
async function textBytes(fs: RuntimeFs, c: Candidate): Promise<Uint8Array | undefined> {
  if (c.size === undefined) {
    const st = await fs.stat(c.abs);
    if (!st || st.size > MAX_SEARCH_FILE_BYTES) return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(c.abs);
  } catch {
    return undefined;
  }
  if (bytes.length > MAX_SEARCH_FILE_BYTES || isBinary(bytes)) return undefined;
  return bytes;
}

/**
 * `listed`: search these files (admitted by admitFiles) instead of walking the target — the same
 * answer as the walk when the list holds every file that can match.
 */
export async function grepBuiltin(fs: RuntimeFs, target: SafePath, query: GrepQuery, signal?: AbortSignal, listed?: readonly ListedFile[]): Promise<GrepResult> {
  const regex = compilePattern(query);
  const pacer = createPacer(signal);
  const prefilter = literalPrefilter(query);
  const required = requiredText(query);
  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;

  for (const c of await candidatesOf(fs, target, query, signal, listed)) {
    if (signal?.aborted) break;
    const bytes = await textBytes(fs, c);
    if (!bytes || !prefilter(bytes)) continue;
    const found = await searchText(new TextDecoder().decode(bytes), c.relRoot, regex, query.context, pacer, required);
    if (signal?.aborted) break;
    if (!found) continue;
    // One match past the limit is enough to know the answer was cut.
    if (matches >= query.limit) {
      truncated = true;
      break;
    }
    const { lines, kept } = keepMatches(found.lines, query.limit - matches, query.context);
    matches += kept;
    files.push({ path: found.path, lines });
    if (kept < found.lines.filter((l) => l.match).length) {
      truncated = true;
      break;
    }
  }
  return { engine: 'builtin', matches, truncated, files };
}

export interface ListScan {
  /** Matching lines per file, for every file (files without any left out). */
  counts: Map<string, number>;
  /** The lines of the first files in path order, up to `query.limit` matches (truncated past it). */
  result: GrepResult;
}

/**
 * One pass over named files (relative to the workdir, admitted by the walk's rules; symlinks, files
 * that are not regular and files past the size limit are skipped as they are read): each is read
 * once, counted on its raw bytes, and only those whose lines are returned are decoded and split.
 */
export async function scanListBuiltin(fs: RuntimeFs, target: SafePath, query: GrepQuery, list: readonly string[], signal?: AbortSignal): Promise<ListScan> {
  const counter = lineCounter(query);
  const regex = compilePattern(query);
  const required = requiredText(query);
  const needle = required === undefined ? undefined : Buffer.from(required, 'utf8');
  const exact = query.literal && !query.wordBoundary && !query.ignoreCase;
  const pacer = createPacer(signal);
  const counts = new Map<string, number>();
  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;
  for (const relRoot of [...list].sort()) {
    if (signal?.aborted) break;
    const bytes = fs.readRegularFileSync(path.join(target.workdir, relRoot), MAX_SEARCH_FILE_BYTES);
    if (!bytes || isBinary(bytes)) continue;
    if (pacer.due(bytes.length) && !(await pacer.turn())) break;
    if (truncated || matches >= query.limit) {
      // Past the lines returned: a count is all that is wanted.
      const n = counter(bytes);
      if (n === 0) continue;
      counts.set(relRoot, n);
      truncated = true;
      continue;
    }
    const found = needle && query.context === 0 ? matchLinesOf(bytes, relRoot, needle, regex, exact) : await searchText(new TextDecoder().decode(bytes), relRoot, regex, query.context, pacer, required);
    if (!found) continue;
    counts.set(relRoot, found.lines.filter((l) => l.match).length);
    const { lines, kept } = keepMatches(found.lines, query.limit - matches, query.context);
    matches += kept;
    files.push({ path: found.path, lines });
    if (kept < found.lines.filter((l) => l.match).length) truncated = true;
  }
  return { counts, result: { engine: 'builtin', matches, truncated, files } };
}

/**
 * Matching lines per file (files without any left out), the built-in engine's way but without
 * building a line: a literal is found in the raw bytes, a regex runs only on the lines that hold the
 * text it requires, and a file without that text is skipped unread by the regex.
 */
export async function countBuiltin(fs: RuntimeFs, target: SafePath, query: GrepQuery, signal?: AbortSignal, listed?: readonly ListedFile[]): Promise<Map<string, number>> {
  const counter = lineCounter(query);
  const pacer = createPacer(signal);
  const counts = new Map<string, number>();
  for (const c of await candidatesOf(fs, target, query, signal, listed)) {
    if (signal?.aborted) break;
    const bytes = await textBytes(fs, c);
    if (!bytes) continue;
    if (pacer.due(bytes.length) && !(await pacer.turn())) break;
    const n = counter(bytes);
    if (n > 0) counts.set(c.relRoot, n);
  }
  return counts;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** A NUL byte anywhere: both engines skip the file (Buffer's indexOf is a memchr; Uint8Array's includes walks element by element). */
function isBinary(bytes: Uint8Array): boolean {
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
function requiredText(query: GrepQuery): string | undefined {
  if (query.ignoreCase || !query.pattern) return undefined;
  if (query.literal) return query.pattern.includes('\n') ? undefined : query.pattern;
  const runs = requiredLiterals(query.pattern);
  if (!runs.length) return undefined;
  return runs.reduce((a, b) => (Buffer.byteLength(b) > Buffer.byteLength(a) ? b : a));
}

/** What every match must contain, as bytes (case-sensitive queries only), and whether finding it is the match. */
function requiredBytes(query: GrepQuery): { needle: Buffer; exact: boolean } | undefined {
  const text = requiredText(query);
  if (text === undefined) return undefined;
  return { needle: Buffer.from(text, 'utf8'), exact: query.literal && !query.wordBoundary };
}

/** A quick test on a file's bytes: false only when no line of it can match. */
function literalPrefilter(query: GrepQuery): (bytes: Uint8Array) => boolean {
  const required = requiredBytes(query);
  if (!required) return () => true;
  return (bytes) => asBuffer(bytes).includes(required.needle);
}

/**
 * A file's match lines found from its raw bytes: only lines holding `needle` (the text every match
 * requires) are decoded and tested, line numbers come from counting newlines between them. The same
 * lines, texts and match positions as searchText with no context.
 */
function matchLinesOf(bytes: Uint8Array, relPath: string, needle: Buffer, regex: LinearRegex, exact: boolean): GrepFile | undefined {
  const literal = exact ? needle.toString('utf8') : undefined;
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
    if (literal !== undefined) lines.push(matchLine(lineNo, text, text.length <= LOCATE_MAX_CHARS ? text.indexOf(literal) : undefined));
    else if (regex.test(text)) lines.push(matchLine(lineNo, text, text.length <= LOCATE_MAX_CHARS ? regex.indexIn(text) : undefined));
    if (nl < 0) break;
    at = buf.indexOf(needle, nl + 1);
  }
  return lines.length ? { path: relPath, lines } : undefined;
}

/** Counts a file's matching lines (split at \n, as the engine splits them). */
function lineCounter(query: GrepQuery): (bytes: Uint8Array) => number {
  const regex = compilePattern(query);
  const required = requiredBytes(query);
  if (required) {
    const { needle, exact } = required;
    return (bytes) => {
      const buf = asBuffer(bytes);
      let n = 0;
      let at = buf.indexOf(needle);
      while (at >= 0) {
        const start = buf.lastIndexOf(10, at) + 1;
        const nl = buf.indexOf(10, at + needle.length);
        const end = nl < 0 ? buf.length : nl;
        if (exact || regex.test(lineText(buf, start, end))) n++;
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
