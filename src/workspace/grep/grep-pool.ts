// The built-in engine's workers: the main thread walks and judges the files (hidden, .gitignore,
// secrets, symlinks), a pool of grep workers (src/workspace/grep/grep-worker.ts) reads and matches
// them in batches. Its own pool, not the parse pool's: a search must not wait behind the code index's
// background parse jobs, a grep worker holds no tree-sitter (a few MB, not ~45), and its time limit
// is a search's, not a parse's. It is sized by the same rule.
import type { Runtime } from '../../runtime/types.ts';
import { createWorkerPool, type WorkerPool } from '../../workers/pool.ts';
import { workerEntry } from '../../workers/entry.ts';
import { createPacer } from './pacer.ts';
import { runScanJob, type ScanJob, type ScanJobResult } from './scan-files.ts';

export type GrepPool = WorkerPool<ScanJob, ScanJobResult>;

/**
 * A file whose match runs longer than this is dropped (its worker is stopped and replaced) and
 * reported as not searched. re2js is linear, but on one 5 MB line a pattern like `[a-m][^Q]{300}Q`
 * leaves its DFA and took 13.7 s here; ordinary files take milliseconds.
 */
export const GREP_FILE_TIMEOUT_MS = 10_000;
/** Batches sent to a worker ahead of its reply: it keeps matching while this thread reads a reply. */
const AHEAD = 2;
/** Workers stop after this long without a batch (searches come in bursts). */
const IDLE_MS = 60_000;


export interface GrepPoolOptions {
  /**
   * Workers; default: one per processor (the main thread mostly waits for them: over a text index's
   * candidates it has nothing else to do — retry.*count's 512-file sample on the Linux tree 85–98 ms
   * with one worker on 2 cores, 68–85 with two). 0 searches in this thread.
   */
  workers?: number;
  /** The time limit of one batch, and so of one file's match (default GREP_FILE_TIMEOUT_MS). */
  fileTimeoutMs?: number;
  onEvent?(event: string, fields: Record<string, unknown>): void;
}

export function createGrepPool(runtime: Pick<Runtime, 'fs' | 'cpuCount' | 'startWorker'>, options: GrepPoolOptions = {}): GrepPool {
  const entry = workerEntry(runtime.fs, import.meta.url, 'grep-worker');
  const size = entry ? (options.workers ?? Math.max(1, runtime.cpuCount())) : 0;
  if (!entry) options.onEvent?.('worker_pool_in_thread', { reason: 'the grep worker entry is not installed' });
  return createWorkerPool<ScanJob, ScanJobResult>({
    start: () => runtime.startWorker(entry!),
    size,
    ahead: AHEAD,
    queueLimit: Math.max(1, size) * AHEAD,
    jobTimeoutMs: options.fileTimeoutMs ?? GREP_FILE_TIMEOUT_MS,
    idleMs: IDLE_MS,
    // Where workers cannot start, a batch runs here with the event loop given turns, as in-thread searches do.
    fallback: (job) => runScanJob(runtime.fs, job, createPacer(undefined, job.control)),
    onEvent: options.onEvent,
  });
}
