// Runs a built-in search over its files, in path order: in this thread for a small search (or without
// a pool), else in batches on the grep workers, whose answers are taken in order as they come. The
// caller's `take` decides after each file whether to go on, and from when on only counts are wanted.
import { AppError, ErrorCode } from '../../errors.ts';
import type { RuntimeFs } from '../../runtime/types.ts';
import type { SecretIdentities } from '../../security/secret-identities.ts';
import { isTextAlternation } from '../../text/linear-regex.ts';
import { requiredLiterals } from '../../text/required-literals.ts';
import type { GrepPool } from './grep-pool.ts';
import { AllowanceSpent, createMatcher, type RegexAllowance } from './matcher.ts';
import { createPacer } from './pacer.ts';
import { createControl, type FileOutcome, linesUpTo, type ScanFile, type ScanJob, type ScanJobResult, type ScanMode, borrowBuffer, giveBack, scanFile, stopAll } from './scan-files.ts';
import type { GrepQuery, SkippedFile } from './types.ts';

/**
 * Up to this many files and this much text a search runs in this thread: a worker's round trip costs
 * about as much as the match. Measured here (2 cores, load ~5, Node 20, one warm worker; a count then
 * a grep, median of 15): 64 files of 2 KB 1.9 ms here vs 2.2 on the worker (literal), 3.8 vs 4.4
 * (regex `\w+\(\d`); 256 files 12.0 vs 6.5 and 14.2 vs 13.0; one 1 MB file 1.8 vs 4.7 (literal),
 * 16.0 vs 14.5 (regex).
 */
const SMALL_FILES = 64;
const SMALL_BYTES = 1 << 20;
/**
 * A regex other than an escaped literal can leave re2js's DFA on a long line: `[a-m][^Q]{300}Q` ran
 * at ~2.7 µs a byte here, `{1000}` at ~9. The main thread takes at most this much of such text (~0.15 s
 * at worst); more goes to a worker, under its time limit.
 */
const SMALL_REGEX_BYTES = 16 << 10;
/**
 * While the pool's workers are starting (a new process's first searches: workers took 0.3–0.5 s to
 * start on a loaded machine, and a 61-file answer waited for them; the first one ready is cold, its
 * first batches slow), a search of up to this many files and this much text runs here instead: a
 * literal or text alternatives (asText) whole, another regex on at most STARTING_REGEX_CHARS of lines.
 * Reading and searching a megabyte takes this thread ~1 ms (a file's open, fstat and close ~20 µs): on
 * the Linux tree, `kmalloc_array`'s 1,080 index candidates; `retry.*count`'s sampled refusal, whose
 * second round of 384 files (62 MB, amdgpu's register headers among them) went to the first worker
 * ready and took 0.15–0.25 s there, 80–110 ms here.
 */
const STARTING_FILES = 1024;
const STARTING_BYTES = 64 << 20;
/**
 * …and a regex too, over the lines holding the text every match requires (`retry.*count`'s sampled
 * refusal on the Linux tree: ~3–7 KB of lines over 512 files): the main thread runs it on at most
 * this much text in all, once per process (SMALL_REGEX_BYTES' bound) — while the workers start, and
 * for a few files with a required text after; past it the file it was on and the rest go to the
 * workers (warm, two of them, they take that refusal in ~half the time of this thread).
 */
const STARTING_REGEX_CHARS = SMALL_REGEX_BYTES;
const allowances = new WeakMap<GrepPool, RegexAllowance>();

function allowanceOf(pool: GrepPool): RegexAllowance {
  let a = allowances.get(pool);
  if (!a) {
    a = { left: STARTING_REGEX_CHARS };
    allowances.set(pool, a);
  }
  return a;
}
/**
 * SMALL_FILES files of a regex with a required text run here up to this much text: their cost is the
 * needle's search in the bytes (~1–2 ms a megabyte), the regex's within the allowance; the Linux
 * files holding `retry` and `count` are ~80 KB each (64 of them 5–6 MB).
 */
const FEW_REGEX_BYTES = 16 << 20;
/** A batch: this many files, or fewer when their known sizes reach BATCH_BYTES. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1 << 20;

export interface ScanRun {
  fs: RuntimeFs;
  pool: GrepPool | undefined;
  mode: ScanMode;
  workdir: string;
  query: GrepQuery;
  /** In the order the answer lists them (by path); a stream is searched while it is still coming. */
  files: Iterable<ScanFile> | AsyncIterable<ScanFile>;
  signal: AbortSignal | undefined;
  /** Known secret identities: a file that is another name of one is skipped as it is opened. */
  secrets?: SecretIdentities;
}

/** more: go on; counts: go on, lines are no longer wanted after this file; done: stop. */
export type Take = 'more' | 'counts' | 'done';

export interface ScanSink {
  /** The outcome of each file, in order; null when it has nothing to report. */
  take(file: ScanFile, outcome: Exclude<FileOutcome, 'stopped'>): Take;
  /** A file not searched: its match ran over the time limit, or its worker failed. */
  skip(file: SkippedFile): void;
}

export async function runScan(run: ScanRun, sink: ScanSink): Promise<void> {
  const control = createControl();
  const stop = () => stopAll(control);
  run.signal?.addEventListener('abort', stop);
  const files = (run.files as AsyncIterable<ScanFile>)[Symbol.asyncIterator] ? (run.files as AsyncIterable<ScanFile>)[Symbol.asyncIterator]() : toAsync((run.files as Iterable<ScanFile>)[Symbol.iterator]());
  try {
    if (run.signal?.aborted) return;
    // The first files decide where the search runs; the rest are still to come from the stream.
    const head: ScanFile[] = [];
    let ended = false;
    const onWorkers = run.pool !== undefined && run.pool.mode() === 'workers';
    const warming = onWorkers && (run.pool!.readyWorkers() === 0 || run.pool!.startingWorkers() > 0);
    const textLike = asText(run.query);
    const allowance = onWorkers && !textLike ? allowanceOf(run.pool!) : undefined;
    const starting = warming && (textLike || allowance!.left > 0);
    while (head.length <= (starting ? STARTING_FILES : SMALL_FILES)) {
      const next = await files.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
    }
    const search = new Searcher(run, sink, control);
    const few = ended && head.length <= SMALL_FILES;
    const inThread = !run.pool || run.pool.mode() === 'in-thread' || (few && small(run, head));
    if (inThread) await search.here(head, ended ? undefined : files);
    else if (starting && ended && small(run, head, STARTING_BYTES)) await search.here(head, undefined, allowance);
    // A few files of a regex that runs only on the lines holding its required text (a sampled
    // refusal's rounds of 64 files) while the process's allowance lasts: its first searches.
    else if (few && allowance && allowance.left > 0 && requiresText(run.query) && small(run, head, FEW_REGEX_BYTES)) await search.here(head, undefined, allowance);
    else await search.onWorkers(run.pool!, head, ended ? undefined : files);
  } finally {
    run.signal?.removeEventListener('abort', stop);
    stopAll(control);
    await files.return?.();
  }
}

async function* toAsyncGen<T>(it: Iterator<T>): AsyncGenerator<T> {
  for (let n = it.next(); !n.done; n = it.next()) yield n.value;
}

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return toAsyncGen(it);
}

/**
 * A literal, or a regex of text and alternatives only (the words of a query that found nothing as
 * typed: `path|denied|error`): matched in linear time as fast as a literal (linear-regex.ts).
 */
function asText(query: GrepQuery): boolean {
  return query.literal || isTextAlternation(query.pattern);
}

/** A case-sensitive regex whose every match holds some text: it runs only on the lines holding it. */
function requiresText(query: GrepQuery): boolean {
  return !query.ignoreCase && requiredLiterals(query.pattern).length > 0;
}

/** Little text in all (sizes looked up where the list has none: a few files); `limit`: also for a regex. */
function small(run: ScanRun, files: ScanFile[], limit?: number): boolean {
  let bytes = 0;
  for (const f of files) {
    f.size ??= run.fs.statSync(f.abs || `${run.workdir}/${f.relRoot}`)?.size;
    bytes += f.size ?? 0;
  }
  return bytes <= (limit ?? (asText(run.query) ? SMALL_BYTES : SMALL_REGEX_BYTES));
}

type Settled = { ok: true; value: ScanJobResult } | { ok: false; error: unknown };

interface Batch {
  /** The search's index of its first file. */
  first: number;
  files: ScanFile[];
}

interface Pending {
  batch: Batch;
  answer: Promise<Settled>;
  settled: boolean;
}

class Searcher {
  /** The search has its answer, was cancelled, or failed. */
  private over = false;
  private readonly pending: Pending[] = [];

  private readonly run: ScanRun;
  private readonly sink: ScanSink;
  private readonly control: Int32Array;

  constructor(run: ScanRun, sink: ScanSink, control: Int32Array) {
    this.run = run;
    this.sink = sink;
    this.control = control;
  }

  /** Passes an outcome to the sink; true when the search is over. */
  private deliver(file: ScanFile, index: number, outcome: FileOutcome): boolean {
    if (outcome === 'stopped') return true;
    const next = this.sink.take(file, outcome);
    if (next === 'done') {
      stopAll(this.control);
      return true;
    }
    if (next === 'counts') linesUpTo(this.control, index);
    return false;
  }

  /**
   * Searches in this thread. With an `allowance` (a regex while no worker is ready), the file whose
   * line it cannot take and every file after it go to the workers.
   */
  async here(head: ScanFile[], rest: AsyncIterator<ScanFile> | undefined, allowance?: RegexAllowance): Promise<void> {
    const matcher = createMatcher(this.run.query, allowance);
    const pacer = createPacer(this.run.signal, this.control);
    const into = borrowBuffer();
    let index = 0;
    /** False when the allowance is spent: the file was not searched. */
    const one = async (file: ScanFile): Promise<boolean> => {
      let outcome: FileOutcome;
      try {
        outcome = await scanFile(this.run.fs, this.run.mode, this.run.workdir, this.run.query, matcher, file, index, this.control, pacer, into, this.run.secrets);
      } catch (error) {
        if (error instanceof AllowanceSpent && this.run.pool) return false;
        throw error;
      }
      this.over = this.deliver(file, index++, outcome);
      return true;
    };
    try {
      for (let i = 0; i < head.length && !this.over; i++) if (!(await one(head[i]!))) return this.onWorkers(this.run.pool!, head.slice(i), rest, index);
      while (rest && !this.over) {
        const next = await rest.next();
        if (next.done) break;
        if (!(await one(next.value))) return this.onWorkers(this.run.pool!, [next.value], rest, index);
      }
    } finally {
      giveBack(into);
    }
  }

  /** Waits for room in the pool's queue, not for the answer. */
  private async submit(pool: GrepPool, batch: Batch): Promise<Pending> {
    const job: ScanJob = { mode: this.run.mode, workdir: this.run.workdir, query: this.run.query, files: batch.files, first: batch.first, control: this.control, ...(this.run.secrets ? { secrets: this.run.secrets } : {}) };
    let answer: Promise<Settled>;
    try {
      answer = (await pool.submit(job, { signal: this.run.signal })).result.then(
        (value) => ({ ok: true, value }),
        (error) => ({ ok: false, error }),
      );
    } catch (error) {
      answer = Promise.resolve({ ok: false, error });
    }
    const pending: Pending = { batch, answer, settled: false };
    void answer.then(() => {
      pending.settled = true;
    });
    return pending;
  }

  /** Takes the oldest batch's answer, file by file; a batch that failed is run again one file at a time. */
  private async takeOldest(pool: GrepPool): Promise<void> {
    const { batch, answer } = this.pending.shift()!;
    const settled = await answer;
    if (this.over) return;
    if (settled.ok) {
      settled.value.outcomes.forEach((outcome, i) => {
        if (!this.over) this.over = this.deliver(batch.files[i]!, batch.first + i, outcome);
      });
      return;
    }
    if (this.run.signal?.aborted) {
      this.over = true;
      return;
    }
    if (isClosed(settled.error)) throw settled.error;
    if (batch.files.length === 1) {
      this.sink.skip({ path: batch.files[0]!.relRoot, reason: isTimeout(settled.error) ? 'timeout' : 'failed' });
      this.over = this.deliver(batch.files[0]!, batch.first, null);
      return;
    }
    // Which file of the batch ran over is not known: each goes again alone.
    const again: Pending[] = [];
    for (let i = 0; i < batch.files.length; i++) again.push(await this.submit(pool, { first: batch.first + i, files: [batch.files[i]!] }));
    this.pending.unshift(...again);
  }

  /** Sends a batch once room is made (answers taken in order meanwhile), and takes every answer already in. */
  private async send(pool: GrepPool, batch: Batch): Promise<void> {
    while (!this.over && this.pending.length >= pool.capacity) await this.takeOldest(pool);
    if (this.over || this.run.signal?.aborted) {
      this.over = true;
      return;
    }
    this.pending.push(await this.submit(pool, batch));
    while (!this.over && this.pending[0]?.settled) await this.takeOldest(pool);
  }

  /** `from`: the search's index of the first file of `head` (the files before it were searched here). */
  async onWorkers(pool: GrepPool, head: ScanFile[], rest: AsyncIterator<ScanFile> | undefined, from = 0): Promise<void> {
    try {
      let batch: Batch = { first: from, files: [] };
      let bytes = 0;
      let index = from;
      const add = async (file: ScanFile) => {
        if (batch.files.length && (batch.files.length >= BATCH_FILES || bytes + (file.size ?? 0) > BATCH_BYTES)) {
          await this.send(pool, batch);
          batch = { first: index, files: [] };
          bytes = 0;
        }
        batch.files.push(file);
        bytes += file.size ?? 0;
        index++;
      };
      for (const file of head) if (!this.over) await add(file);
      while (rest && !this.over) {
        const next = await rest.next();
        if (next.done) break;
        await add(next.value);
      }
      if (!this.over && batch.files.length) await this.send(pool, batch);
      while (!this.over && this.pending.length) await this.takeOldest(pool);
    } finally {
      this.over = true;
      stopAll(this.control);
    }
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof AppError && error.code === ErrorCode.Timeout;
}

function isClosed(error: unknown): boolean {
  return error instanceof AppError && error.code === ErrorCode.Unavailable && /closed/.test(error.message);
}
