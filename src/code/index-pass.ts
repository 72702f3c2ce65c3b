// One refresh pass of the code index: list the catalogue once, sync it, run the text stage (the
// trigram index reads a file again only when its size or mtime changed), then parse the files whose
// content changed, several in flight, written in batches, while the text index's new segments are
// compacted in the loop's waits for the parse worker. One process at a time runs it (a lease in the
// database); the others use what exists.
import { canReturnPages, returnFreePages, switchToIncremental } from '../storage/free-pages.ts';
import { type Lease, withLease } from '../storage/lease.ts';
import { type CatalogueEntry, catalogue } from './catalogue.ts';
import { syncCatalogue, textWork } from './catalogue-sync.ts';
import { type Pending, prepareFile, writeBatch } from './index-parse.ts';
import { type IndexShared, PARSER_VERSION, pathSetOf, yieldToLoop } from './index-shared.ts';
import { dropOldBlocks } from './store-blocks.ts';
import { sweepNames } from './store-names.ts';
import type { CodeStore } from './store.ts';
import { compactText, takeText } from './text-pass.ts';

/** Parsed files written per transaction, and the source bytes one batch may hold (64 / 4 MB: a quarter fewer bytes written than 32 / 2 MB). */
const BATCH_FILES = 64;
const BATCH_BYTES = 4_000_000;
/**
 * Staged rows (references and locals, store-write.ts) merged at once: a build rewrites the big
 * tables once per million rows (nine times for the Linux tree) instead of touching thousands of
 * their pages per batch. The staged rows wait in SQLite's WASM heap, which keeps its high-water
 * mark. The whole tree in two runs one after the other, against half a million and 32-file batches:
 * 529 s CPU and 805 MB peak against 597 s and 795 MB: the peak is not the staged rows (README).
 */
const MERGE_ROWS = 1_000_000;
/** One process builds (a lease in the database); it renews the lease with every batch it writes. */
export const LEASE_NAME = 'code-index';
const LEASE_TTL_MS = 60_000;
/** Source bytes being parsed at once (the parser's window is counted in files; this bounds their size). */
const PARSING_BYTES = 16_000_000;
/**
 * New or changed files from which a pass is a bulk pass: V8 sizes the heaps its own way from there
 * (runtime `beginBulkWork`). Any pass with files to parse starts its parse worker before the text
 * stage, so that the worker's start (~0.2 s on `effect`, ~2 s on a loaded machine) overlaps it; where
 * the text stage outlasts the worker's idle stop (60 s), the worker starts again with the first file.
 */
const BULK_PASS_FILES = 2000;
/** code_meta key: how long the last complete pass took (ms): passes on use are spaced by it. */
export const PASS_MS = 'pass_ms';
/** code_meta key: when the newest catalogue listing that has been synced began (ms since the epoch). */
export const CATALOGUE_SYNCED_AT = 'catalogue_synced_at';

/**
 * A file made before code.db gave pages back is switched (one VACUUM) when that is short or pays
 * (storage/free-pages.ts): up to this size, or when a quarter of it is free.
 */
const SWITCH_VACUUM_MAX_BYTES = 256 * 1024 * 1024;

/** A refresh pass, by the one process holding the build lease; the others use what exists. */
export async function runPass(shared: IndexShared, s: CodeStore): Promise<void> {
  const leased = await withLease(s.db, LEASE_NAME, LEASE_TTL_MS, (lease) => build(shared, s, lease));
  if (leased.ok) return;
  if (shared.state === 'building') shared.state = 'idle';
  shared.logger.log('code_index_built_elsewhere', { pid: leased.holder.pid, since: leased.holder.since });
}

async function build(shared: IndexShared, s: CodeStore, lease: Lease): Promise<void> {
  const { logger } = shared;
  const started = Date.now();
  const first = shared.state !== 'ready';
  logger.log('code_index_start', { root: shared.listing.root, first });
  if (first) switchVacuum(shared, s);
  const entries: CatalogueEntry[] = [];
  const listedFrom = Date.now();
  for await (const e of catalogue(shared.fs, shared.workdirs, shared.listing)) {
    if (shared.closed) return;
    entries.push(e);
  }
  const changes = await syncCatalogue(s, entries, () => void lease.renew());
  if (shared.closed) return;
  // Many new or changed files: the heaps grow by less from here on.
  if (changes.added + changes.changed >= BULK_PASS_FILES) shared.onBulkPass?.();
  // Files to parse: the parse worker starts now, beside the text stage, not after it.
  if (changes.parseable > 0) shared.parser.warm(1);
  // From here the catalogue knows every change made before the listing began (the text reader
  // trusts the index only then: see the index's `open`).
  await s.db.writeTransaction(() => s.setMeta(CATALOGUE_SYNCED_AT, String(listedFrom)));
  await textStage(shared, s, entries, lease);
  if (shared.closed) return;
  // Compaction runs beside the parse stage, while its loop waits for the parse worker (both write on
  // this thread, a transaction at a time), then freely once the loop is done. Awaited before the pass
  // ends; a failure fails the pass.
  const turns = idleTurns();
  let failed = false;
  const compaction = compactText(s, { logger, lease, returnPages: false, stopped: () => shared.closed || failed, pause: turns.take });
  compaction.catch(() => undefined);
  let parsed: number;
  try {
    parsed = await parseStage(shared, s, entries, lease, turns);
  } catch (error) {
    // Compaction stops at its next step (its merged segment is not made live) before the error goes on.
    failed = true;
    turns.end();
    await compaction.catch(() => undefined);
    throw error;
  }
  turns.end();
  await compaction;
  if (shared.closed) return;
  // Nothing staged now: the names no row uses any more go (store-names.ts), a chunk per transaction.
  let namesSwept = 0;
  for (;;) {
    if (shared.closed) return;
    const swept = await s.db.writeTransaction(() => {
      void lease.renew();
      return sweepNames(s.db);
    });
    namesSwept += swept.deleted;
    if (!swept.checked) break;
    await yieldToLoop();
  }
  let oldBlocksDropped = false;
  await s.db.writeTransaction(() => {
    s.setMeta('complete', '1');
    s.setMeta(PASS_MS, String(Date.now() - started));
    // Every file has been parsed again since an upgrade from schema 10: its blocks table is empty of answers.
    oldBlocksDropped = dropOldBlocks(s.db);
  });
  shared.state = 'ready';
  // Rows of files parsed again or gone leave free pages: back to the file system.
  const returned = await returnFreePages(s.db, { renew: () => void lease.renew(), stopped: () => shared.closed, pause: yieldToLoop });
  logger.log('code_index_done', { files: shared.total, parsed, removed: changes.removed, oldBlocksDropped, namesSwept, pagesReturned: returned, ms: Date.now() - started });
}

/** Compaction's turns beside the parse stage: `take` waits until the parse loop `give`s one (it waits for the worker), or the loop has `end`ed. */
interface Turns {
  take(): Promise<void>;
  give(): void;
  end(): void;
}

function idleTurns(): Turns {
  const waiting: (() => void)[] = [];
  let free = false;
  const give = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return {
    take: () => (free ? yieldToLoop() : new Promise<void>((resolve) => waiting.push(resolve))),
    give,
    end() {
      free = true;
      give();
    },
  };
}

/**
 * The parse stage of a pass: the files whose content changed, several in flight, written in batches;
 * their references and locals staged and merged now and then. The files parsed.
 */
async function parseStage(shared: IndexShared, s: CodeStore, entries: readonly CatalogueEntry[], lease: Lease, turns: Turns): Promise<number> {
  const { logger } = shared;
  const rows = new Map(s.files().map((r) => [r.path, r]));
  shared.paths = pathSetOf(
    shared,
    entries.map((e) => e.path),
  );
  shared.total = entries.length;
  shared.done = 0;
  const batch: Pending[] = [];
  let bytes = 0;
  let lastYield = performance.now();
  let parsed = 0;
  let staged = 0;
  const merge = async () => {
    const mergeStarted = performance.now();
    const files = await s.mergeStaged(() => void lease.renew(), yieldToLoop);
    logger.log('code_index_merged', { rows: staged, files, ms: Math.round(performance.now() - mergeStarted) });
    staged = 0;
  };
  // Files being parsed, oldest first: several in flight, collected in order into write batches.
  const parsing: { result: Promise<Pending | undefined>; size: number; settled: boolean }[] = [];
  let parsingBytes = 0;
  const collectOldest = async () => {
    const oldest = parsing.shift()!;
    parsingBytes -= oldest.size;
    // Waiting for the worker: compaction's turn.
    if (!oldest.settled) turns.give();
    const pending = await oldest.result;
    if (pending) {
      batch.push(pending);
      bytes += pending.meta.size;
      if (pending.parsed) parsed++;
    }
    if (batch.length >= BATCH_FILES || bytes >= BATCH_BYTES) {
      staged += await writeBatch(s, batch, lease, true);
      bytes = 0;
      if (staged >= MERGE_ROWS) await merge();
    }
  };
  const stop = () => {
    s.dropStaged();
    return parsed;
  };
  for (const entry of entries) {
    if (shared.closed) return stop();
    const done = ++shared.done;
    const row = rows.get(entry.path);
    rows.delete(entry.path);
    if (!row || (row.parsed_of === row.version && row.parser === PARSER_VERSION)) continue;
    const file = { result: (await prepareFile(shared, s, entry, row)).result, size: entry.size, settled: false };
    file.result.then(() => (file.settled = true), () => undefined);
    parsing.push(file);
    parsingBytes += entry.size;
    while (parsing.length >= shared.parser.capacity || parsingBytes > PARSING_BYTES) await collectOldest();
    if (performance.now() - lastYield > 20) {
      await yieldToLoop();
      lastYield = performance.now();
    }
    if (done % 2000 === 0) logger.log('code_index_progress', { done, total: shared.total });
  }
  while (parsing.length) {
    if (shared.closed) return stop();
    await collectOldest();
  }
  staged += await writeBatch(s, batch, lease, true);
  await merge();
  return parsed;
}

/** Puts an older code.db into incremental vacuum when that is cheap or pays; logs what it did. */
function switchVacuum(shared: IndexShared, s: CodeStore): void {
  const started = Date.now();
  try {
    if (canReturnPages(s.db)) return;
    const switched = switchToIncremental(s.db, SWITCH_VACUUM_MAX_BYTES);
    shared.logger.log('code_index_vacuum', { switched, ms: Date.now() - started });
  } catch (error) {
    // Busy readers or a full disk: the file keeps reusing its pages; the next pass tries again.
    shared.logger.log('code_index_vacuum_failed', { error: error instanceof Error ? error.message : String(error) });
  }
}

/** The text stage of a pass: every file the text index has not taken in its current version. */
async function textStage(shared: IndexShared, s: CodeStore, entries: readonly CatalogueEntry[], lease: Lease): Promise<void> {
  const { fs, logger } = shared;
  const work = textWork(s, entries);
  shared.textBuilding = true;
  try {
    const onIndexed = async () => {
      shared.textBuilding = false;
      if (shared.textReady) return;
      await s.db.writeTransaction(() => s.setMeta('text_complete', '1'));
      shared.textReady = true;
    };
    await takeText(s, work, { fs, logger, lease, stopped: () => shared.closed, onIndexed, segmentFiles: shared.textSegmentFiles, onProgress: (d, n) => d % 5000 === 0 && d > 0 && logger.log('text_index_progress', { done: d, total: n }) });
  } finally {
    shared.textBuilding = false;
  }
}
