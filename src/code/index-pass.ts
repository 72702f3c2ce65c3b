// One refresh pass of the code index: list the catalogue once, sync it, run the text stage (the
// trigram index reads a file again only when its size or mtime changed) and beside it parse the files
// whose content changed, several in flight, written in batches. One process at a time runs it (a lease in
// the database); the others use what exists.
import { canReturnPages, returnFreePages, switchToIncremental } from '../storage/free-pages.ts';
import { type Lease, withLease } from '../storage/lease.ts';
import { type CatalogueEntry, catalogue } from './catalogue.ts';
import type { TextWork } from '../textindex/stage.ts';
import { syncCatalogue, textWork } from './catalogue-sync.ts';
import { type Pending, prepareFile, writeBatch } from './index-parse.ts';
import { type IndexShared, PARSER_VERSION, pathSetOf, yieldToLoop } from './index-shared.ts';
import { dropOldBlocks } from './store-blocks.ts';
import { sweepNames } from './store-names.ts';
import type { CodeStore, FileRow } from './store.ts';
import { takeText } from './text-pass.ts';
import { TextProgress } from './text-progress.ts';

/** Parsed files written per transaction, and the source bytes one batch may hold (64 / 4 MB: a quarter fewer bytes written than 32 / 2 MB). */
const BATCH_FILES = 64;
const BATCH_BYTES = 4_000_000;
/**
 * A full batch waits for the text stage beside it to commit its files' versions (text-progress.ts)
 * while up to this many batches' worth of parsed files collect; then the text stage gets the thread.
 */
const UNCOMMITTED_BATCHES = 4;
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
  // From here the catalogue knows every change made before the listing began (the text reader
  // trusts the index only then: see the index's `open`).
  await s.db.writeTransaction(() => s.setMeta(CATALOGUE_SYNCED_AT, String(listedFrom)));
  // The text stage runs beside the parse stage, which parses each file once the text stage has read
  // it and writes it once that version is committed (text-progress.ts): the worker parses while this
  // thread indexes trigrams.
  const rows = new Map(s.files().map((r) => [r.path, r]));
  // Stops the text stage when the parse stage fails (the pass ends with the parse stage's error).
  let halted = false;
  const { progress, started: textStarted } = startTextStage(shared, s, entries, rows.values(), lease, () => shared.closed || halted);
  const text = textStarted.then(
    () => progress.end(),
    (error: unknown) => {
      progress.end(error);
      throw error;
    },
  );
  // Awaited once the parse loop ends: a failure must not go unhandled meanwhile.
  text.catch(() => undefined);
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
    await s.mergeStaged(() => void lease.renew());
    staged = 0;
  };
  // Files being parsed, oldest first: several in flight, collected in order into write batches.
  const parsing: { result: Promise<Pending | undefined>; size: number }[] = [];
  let parsingBytes = 0;
  // The text stage's place of the batch's last file read by it: the batch is written once it is committed.
  let batchPlace = -1;
  /** Writes the batch once the text stage has committed its files' versions; false when it stopped first. */
  const write = async (): Promise<boolean> => {
    if (!(await progress.commit(batchPlace))) return false;
    staged += await writeBatch(s, batch, lease, true);
    bytes = 0;
    batchPlace = -1;
    if (staged >= MERGE_ROWS) await merge();
    return true;
  };
  const collectOldest = async (): Promise<boolean> => {
    const oldest = parsing.shift()!;
    parsingBytes -= oldest.size;
    const pending = await oldest.result;
    if (pending) {
      batch.push(pending);
      bytes += pending.meta.size;
      batchPlace = Math.max(batchPlace, progress.placeOf(pending.meta.path));
      if (pending.parsed) parsed++;
    }
    const full = batch.length >= BATCH_FILES || bytes >= BATCH_BYTES;
    // A full batch whose files the text stage has read but not yet committed grows meanwhile (the
    // worker keeps parsing), up to a bound: then the text stage gets the thread until it commits them.
    if (full && (progress.isCommitted(batchPlace) || batch.length >= BATCH_FILES * UNCOMMITTED_BATCHES || bytes >= BATCH_BYTES * UNCOMMITTED_BATCHES)) return await write();
    return true;
  };
  /** Parses every file whose content the parse stage has not taken; false when the pass is closing. */
  const parseAll = async (): Promise<boolean> => {
    for (const entry of entries) {
      if (shared.closed) return false;
      const done = ++shared.done;
      const row = rows.get(entry.path);
      rows.delete(entry.path);
      if (!row) continue;
      if (!(await progress.ready(entry.path))) return false;
      if (row.parsed_of === row.version && row.parser === PARSER_VERSION) continue;
      parsing.push({ result: (await prepareFile(shared, s, entry, row)).result, size: entry.size });
      parsingBytes += entry.size;
      while (parsing.length >= shared.parser.capacity || parsingBytes > PARSING_BYTES) {
        // The worker has all it can take: the text stage may use the thread meanwhile.
        progress.yieldToText(true);
        const going = await collectOldest();
        progress.yieldToText(false);
        if (!going) return false;
      }
      if (performance.now() - lastYield > 20) {
        await yieldToLoop();
        lastYield = performance.now();
      }
      if (done % 2000 === 0) logger.log('code_index_progress', { done, total: shared.total });
    }
    progress.yieldToText(true);
    while (parsing.length) {
      if (shared.closed || !(await collectOldest())) return false;
    }
    return batch.length ? await write() : true;
  };
  let finished: boolean;
  try {
    finished = await parseAll();
  } catch (error) {
    halted = true;
    progress.yieldToText(true);
    await text.catch(() => undefined);
    throw error;
  }
  // The text stage ends (or stops) before the pass returns: the database is not closed under it.
  if (!finished) halted = true;
  progress.yieldToText(true);
  try {
    await text;
  } catch (error) {
    s.dropStaged();
    throw error;
  }
  if (!finished || shared.closed) {
    s.dropStaged();
    return;
  }
  await merge();
  // Nothing staged now: the names no row uses any more go (store-names.ts), a chunk per transaction.
  let namesSwept = 0;
  for (;;) {
    if (shared.closed) return s.dropStaged();
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

/**
 * Starts the text stage of a pass beside the parse stage; its work (a row per changed file) is held
 * by the stage alone, so it goes when the stage ends, not with the pass.
 */
function startTextStage(shared: IndexShared, s: CodeStore, entries: readonly CatalogueEntry[], rows: Iterable<FileRow>, lease: Lease, stopped: () => boolean): { progress: TextProgress; started: Promise<void> } {
  const work = textWork(s, entries);
  const progress = new TextProgress(work, rows);
  return { progress, started: textStage(shared, s, work, lease, progress, stopped) };
}

/** The text stage of a pass: every file the text index has not taken in its current version. */
async function textStage(shared: IndexShared, s: CodeStore, work: readonly TextWork[], lease: Lease, progress: TextProgress, stopped: () => boolean): Promise<void> {
  const { fs, logger } = shared;
  shared.textBuilding = true;
  try {
    const onIndexed = async () => {
      shared.textBuilding = false;
      if (shared.textReady) return;
      await s.db.writeTransaction(() => s.setMeta('text_complete', '1'));
      shared.textReady = true;
    };
    await takeText(s, work, { fs, logger, lease, returnPages: false, stopped, pause: () => progress.pause(), onIndexed, onTaken: (taken) => progress.taken(taken), onRead: (file) => progress.read(file), onProgress: (d, n) => d % 5000 === 0 && d > 0 && logger.log('text_index_progress', { done: d, total: n }) });
  } finally {
    shared.textBuilding = false;
  }
}
