// Parsing off the main thread: the code index sends (language, text) to a pool of workers, each with
// its own tree-sitter and grammars (src/code/parse-worker.ts), and gets the extraction back. The main
// thread only walks, hashes and writes. Without workers (none can start, or 0 asked for) the same jobs
// run in this thread.
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { createWorkerPool, defaultWorkers, type WorkerPool } from '../workers/pool.ts';
import { workerEntry } from '../workers/entry.ts';
import { extract } from './extract.ts';
import { type ParsedFile, parsedFile } from './file-rows.ts';
import type { Grammars } from './grammars.ts';
import type { LanguageId } from './languages.ts';

export interface ParseJob {
  language: LanguageId;
  /**
   * The text to parse, or its UTF-8 bytes: bytes cross to a worker as one copied buffer and are decoded
   * there, so a build's gigabyte of text never becomes strings on the main thread's heap.
   */
  text?: string;
  bytes?: Uint8Array;
  /** The file's path in the project. */
  path?: string;
}

export interface ParseResult {
  /** The file's rows for the store, and its imports. */
  parsed: ParsedFile;
  /** Tags-query patterns this grammar version could not compile (logged by the index). */
  skipped: { pattern: string; error: string }[];
  /** Lines of the text parsed. */
  lines: number;
}

export type ParsePool = WorkerPool<ParseJob, ParseResult>;

/** A parse taking longer than this is stuck: its worker is replaced and the file keeps no symbols. */
const JOB_TIMEOUT_MS = 30_000;
/**
 * Files sent to a worker before its first reply comes back: enough for the worker to go on parsing
 * through a batch's write or a compaction step on the main thread. Jobs carry bytes, not strings, so
 * those waiting cost the main thread's heap nothing (the in-flight bytes are bounded by the index).
 */
const AHEAD = 64;
/**
 * A parse worker's JS heap cap (MB). Left to itself V8 let it grow to ~150 MB over the Linux tree's
 * largest files (a 1 MB file's extraction keeps under ~55 MB live); capped at 64 the same files
 * parsed with 77 MB less RSS. 96 leaves room for a bigger file's rows.
 */
const WORKER_HEAP_MB = 96;
/**
 * A parse worker's young generation: semi-spaces of this many MB, twice what the runtime gives other
 * threads (runtime/node.ts), as a file's garbage comes fast and dies young. `effect`'s build with 2:
 * ~5% more time than with 4 (scripts/bench-code.ts).
 */
const WORKER_SEMI_SPACE_MB = 4;
/** Workers stop after this long without a file (a server parses in bursts: the first build, then edits). */
const IDLE_MS = 60_000;

/** Lines of a text, counted without splitting it (a kernel tree is a gigabyte of them). */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Parses a job in this thread (a worker's handler, and the pool's fallback). */
export async function parseInThread(grammars: Grammars, job: ParseJob): Promise<ParseResult> {
  const text = job.text ?? new TextDecoder().decode(job.bytes);
  const skipped: ParseResult['skipped'] = [];
  const extracted = await extract(grammars, job.language, text, { file: job.path, onBadPattern: (pattern, error) => skipped.push({ pattern, error: messageOf(error) }) });
  return { parsed: parsedFile(extracted), skipped, lines: lineCount(text) };
}

export interface ParsePoolOptions {
  /** Workers; default: defaultParseWorkers. 0 parses in this thread. */
  workers?: number;
  onEvent?(event: string, fields: Record<string, unknown>): void;
}

/**
 * One worker fewer than the processors, at least one: the main thread keeps a core for walking,
 * hashing and writing. Measured on 2 cores (effect, issue 13): one worker 3.4 s and 215 MB peak,
 * two workers 3.3 s and 272 MB — each worker holds its own tree-sitter (~45 MB), for 3% of the time.
 */
export function defaultParseWorkers(runtime: Pick<Runtime, 'cpuCount'>): number {
  return defaultWorkers(runtime);
}

export function createParsePool(runtime: Pick<Runtime, 'fs' | 'cpuCount' | 'startWorker'>, grammars: Grammars, options: ParsePoolOptions = {}): ParsePool {
  const entry = workerEntry(runtime.fs, import.meta.url, 'parse-worker');
  const size = entry ? (options.workers ?? defaultParseWorkers(runtime)) : 0;
  if (!entry) options.onEvent?.('worker_pool_in_thread', { reason: 'the parse worker entry is not installed' });
  return createWorkerPool<ParseJob, ParseResult>({
    start: () => runtime.startWorker(entry!, { maxHeapMb: WORKER_HEAP_MB, semiSpaceMb: WORKER_SEMI_SPACE_MB }),
    size,
    // Files sent ahead keep a worker parsing while the main thread writes a batch (a synchronous
    // SQLite transaction of up to BATCH_FILES files, during which no reply is read).
    ahead: AHEAD,
    queueLimit: AHEAD,
    jobTimeoutMs: JOB_TIMEOUT_MS,
    idleMs: IDLE_MS,
    fallback: (job) => parseInThread(grammars, job),
    onEvent: options.onEvent,
  });
}

/** Parsing in this thread, one file at a time (tests, and callers that bring no pool). */
export function createInThreadParser(grammars: Grammars): ParsePool {
  return createWorkerPool<ParseJob, ParseResult>({
    start: () => {
      throw new Error('in-thread parser');
    },
    size: 0,
    queueLimit: 2,
    jobTimeoutMs: JOB_TIMEOUT_MS,
    fallback: (job) => parseInThread(grammars, job),
  });
}
