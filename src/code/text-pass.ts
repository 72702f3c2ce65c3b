// The text stage as the code index runs it: first in every refresh pass (it is fast, and it is what
// finds out which files changed); then, by the holder of the build lease, compaction of the text
// index's segments. Also run for single files (`fresh`) without the lease: those add a small segment.
import type { Logger } from '../logging/logger.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import type { Lease } from '../storage/lease.ts';
import { returnFreePages } from '../storage/free-pages.ts';
import { compact } from '../textindex/compact.ts';
import { runTextStage, type TextStageResult, type TextWork } from '../textindex/stage.ts';
import type { CodeStore } from './store.ts';

export interface TextPassOptions {
  fs: RuntimeFs;
  logger: Logger;
  lease?: Lease;
  stopped(): boolean;
  onProgress?(done: number, total: number): void;
  /** Called when every file is indexed (the index is usable from then on). */
  onIndexed?(): Promise<void>;
  /** Files a text segment holds at most (the text stage's default; tests make it small). */
  segmentFiles?: number;
}

export interface CompactTextOptions {
  logger: Logger;
  lease: Lease;
  stopped(): boolean;
  /** Awaited every few milliseconds of merging: lets the event loop, or work put first, run. */
  pause(): Promise<void>;
  /**
   * Whether the pages a compaction freed go back to the file system at once (default). A build pass
   * keeps them for the parse stage's rows and gives back what is left at its end: cutting them off
   * (incremental vacuum moves pages from the end of the file into each hole) cost 46 of a 56 s
   * compaction on `drivers/net`, for pages the parse then took again.
   */
  returnPages?: boolean;
}

export async function takeText(s: CodeStore, work: readonly TextWork[], options: TextPassOptions): Promise<TextStageResult> {
  const started = Date.now();
  const renew = options.lease ? () => void options.lease!.renew() : undefined;
  const result = await runTextStage(work, { db: s.db, fs: options.fs, renew, stopped: options.stopped, onProgress: (done) => options.onProgress?.(done, work.length), flushRows: options.segmentFiles });
  if (!options.stopped()) await options.onIndexed?.();
  if (work.length > 1 || result.segments) options.logger.log('text_index_done', { files: work.length, ...result, ms: Date.now() - started });
  return result;
}

/**
 * Compaction of the text index's segments, by the holder of the build lease: a build pass runs it
 * beside its parse stage (the main thread has room there while the parse worker is the slower).
 */
export async function compactText(s: CodeStore, options: CompactTextOptions): Promise<void> {
  if (options.stopped()) return;
  const renew = () => void options.lease.renew();
  const started = Date.now();
  const merged = await compact(s.db, { renew, stopped: options.stopped, pause: options.pause });
  // The merged segments' pages go back to the file system, not only to SQLite's free list.
  const returned = merged && options.returnPages !== false ? await returnFreePages(s.db, { renew, stopped: options.stopped, pause: options.pause }) : 0;
  if (merged) options.logger.log('text_index_compacted', { segments: merged, pagesReturned: returned, ms: Date.now() - started });
}
