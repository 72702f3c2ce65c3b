// One step of a built-in search, the same wherever it runs (the main thread, or a grep worker given a
// batch): read a file, prefilter, match, and answer with its count and — while the search still wants
// them — its lines. A control block shared with the thread that started the search tells every
// worker when to stop and from which file on the lines are no longer wanted.
import * as path from 'node:path';
import type { OpenedFile, ReadBuffer, RuntimeFs } from '../../runtime/types.ts';
import type { SecretIdentities } from '../../security/secret-identities.ts';
import { judgeOpened } from '../../security/secret-read.ts';
import { createMatcher, isBinary, type Matcher, matchLinesOf, type Pacer, searchText } from './matcher.ts';
import { type GrepLine, type GrepQuery, MAX_SEARCH_FILE_BYTES } from './types.ts';

/**
 * lines: grep (lines for the first matches, then only whether more exist); count: matching lines per
 * file; list: both, over named files read as regular files only.
 */
export type ScanMode = 'lines' | 'count' | 'list';

export interface ScanFile {
  abs: string;
  relRoot: string;
  /** Known when the list was admitted with a stat; otherwise the reader checks. */
  size?: number;
}

/** What the search knows of a file: nothing to report (null), a count (lines too while wanted), or not searched. */
export type FileOutcome = null | { n: number; lines?: GrepLine[] } | 'stopped';

/** Int32 slots of the control block. */
const STOP = 0;
const LINES_UP_TO = 1;

/** The control block of one search: SharedArrayBuffer so that workers see it change while they run. */
export function createControl(): Int32Array {
  const control = new Int32Array(new SharedArrayBuffer(8));
  control[LINES_UP_TO] = 0x7fffffff;
  return control;
}

/** No file after this one (in the search's order) is looked at. */
export function stopAll(control: Int32Array): void {
  Atomics.store(control, STOP, 1);
}

/** Files after `index` need no lines: the search has its matches, only counts (or whether more exist) remain. */
export function linesUpTo(control: Int32Array, index: number): void {
  if (index < Atomics.load(control, LINES_UP_TO)) Atomics.store(control, LINES_UP_TO, index);
}

export function stopped(control: Int32Array): boolean {
  return Atomics.load(control, STOP) === 1;
}

/**
 * A file as the engine searches it, or undefined when it is skipped (gone, too big, binary, not a
 * regular file). One synchronous open-fstat-read without following a final symlink: the async round
 * trips cost more than the reads over many small files, the files a search is given (walked, or
 * admitted by a list) are regular files reached through no symlink, so not following one changes no
 * answer, and a file swapped for a symlink meanwhile is not read.
 */
function readText(fs: RuntimeFs, workdir: string, file: ScanFile, into: ReadBuffer): OpenedFile | undefined {
  const opened = fs.readOpenedSync(file.abs || path.join(workdir, file.relRoot), MAX_SEARCH_FILE_BYTES, { into });
  return opened && !isBinary(opened.bytes) ? opened : undefined;
}

/**
 * Whether a file that matched is secret as opened (another name of a known secret, key content; a
 * hard link newer than the known identities waits for their next walk): judged only once it matched,
 * so a search does not scan the content of every candidate that holds no match (most of them) for keys.
 */
function secretAsOpened(secrets: SecretIdentities | undefined, file: ScanFile, opened: OpenedFile): boolean {
  return secrets !== undefined && judgeOpened(secrets, file.relRoot, opened) !== undefined;
}

/** A reader's buffer, empty until its first file. */
export function readBuffer(): ReadBuffer {
  return { bytes: new Uint8Array(0) };
}

/** Buffers this thread's searches are done with, for the next ones (up to 1 MiB: a big one is let go). */
const spare: ReadBuffer[] = [];
const SPARE_MAX_BYTES = 1 << 20;

/**
 * A buffer for one search in this thread (each needs its own: a search gives the event loop turns
 * while it holds a file's bytes): a spare one — its pages already touched — or a new one.
 */
export function borrowBuffer(): ReadBuffer {
  return spare.pop() ?? readBuffer();
}

export function giveBack(buffer: ReadBuffer): void {
  if (spare.length < 2 && buffer.bytes.length <= SPARE_MAX_BYTES) spare.push(buffer);
}

/**
 * Searches one file, the `index`-th of the search (its lines are wanted while `index` is not past the
 * control's mark). The file is read into `into`, which no other read may use until this returns: no
 * outcome holds its bytes (lines are strings of their own).
 */
export async function scanFile(fs: RuntimeFs, mode: ScanMode, workdir: string, query: GrepQuery, matcher: Matcher, file: ScanFile, index: number, control: Int32Array, pacer: Pacer, into: ReadBuffer, secrets?: SecretIdentities): Promise<FileOutcome> {
  if (stopped(control)) return 'stopped';
  const opened = readText(fs, workdir, file, into);
  if (!opened) return null;
  const bytes = opened.bytes;
  if (mode === 'lines' && !matcher.prefilter(bytes)) return null;
  const wantLines = mode !== 'count' && index <= Atomics.load(control, LINES_UP_TO);
  const fromBytes = !wantLines || (mode === 'list' && matcher.needle !== undefined && query.context === 0);
  // searchText gives the event loop its turns line by line; the byte scans take one per file.
  if (fromBytes && pacer.due(bytes.length) && !(await pacer.turn())) return 'stopped';
  if (!wantLines) {
    const n = matcher.count(bytes);
    return n > 0 && !secretAsOpened(secrets, file, opened) ? { n } : null;
  }
  const found = fromBytes ? matchLinesOf(bytes, file.relRoot, matcher) : await searchText(new TextDecoder().decode(bytes), file.relRoot, matcher.regex, query.context, pacer, matcher.required);
  if (!found) return stopped(control) ? 'stopped' : null;
  if (secretAsOpened(secrets, file, opened)) return null;
  return { n: found.lines.filter((l) => l.match).length, lines: found.lines };
}

/** A batch of files for a grep worker: one search's mode and query, the files from `first` on in its order. */
export interface ScanJob {
  mode: ScanMode;
  workdir: string;
  query: GrepQuery;
  files: ScanFile[];
  first: number;
  control: Int32Array;
  /** The secret identities the files are judged against (every search passes them). */
  secrets?: SecretIdentities;
}

export interface ScanJobResult {
  outcomes: FileOutcome[];
}

/**
 * Runs a batch: the worker's handler (with the worker's one buffer: it runs one job at a time), and
 * the pool's in-thread fallback (a buffer of the job's own).
 */
export async function runScanJob(fs: RuntimeFs, job: ScanJob, pacer: Pacer, matcherOf: (query: GrepQuery) => Matcher = createMatcher, into: ReadBuffer = readBuffer()): Promise<ScanJobResult> {
  const matcher = matcherOf(job.query);
  const outcomes: FileOutcome[] = [];
  for (let i = 0; i < job.files.length; i++) outcomes.push(await scanFile(fs, job.mode, job.workdir, job.query, matcher, job.files[i]!, job.first + i, job.control, pacer, into, job.secrets));
  return { outcomes };
}
