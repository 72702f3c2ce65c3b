// The code index: built in the background on first use, refreshed incrementally, and never stale —
// callers pass the files an answer rests on to `fresh`, which re-parses any touched since. One refresh
// pass lists the catalogue once and feeds two stages: the text stage (the trigram index, `text`) reads
// a file again only when its size or mtime changed and tells whether its content hash did; the parse
// stage then parses only the files whose content changed. Until the first build completes, `ready()`
// answers undefined and the gate tools scan instead.
import * as path from 'node:path';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Executor } from '../exec/executor.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime, RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import type { Database } from '../storage/database.ts';
import { type Lease, withLease } from '../storage/lease.ts';
import { createTextIndexReader, type TextIndexHandle } from '../textindex/reader.ts';
import { CLEAR_TEXT_INDEX_SQL } from '../textindex/schema.ts';
import { type CatalogueEntry, type CatalogueOptions, catalogue, createCatalogueJudge, MAX_PARSE_BYTES } from './catalogue.ts';
import { syncCatalogue, textWork } from './catalogue-sync.ts';
import type { ParsedFile } from './file-rows.ts';
import type { Grammars } from './grammars.ts';
import { isDocumentation, type LanguageId, languageOf } from './languages.ts';
import { createInThreadParser, type ParsePool } from './parse-pool.ts';
import { createPathSet, resolveImport } from './resolve.ts';
import { readTsPaths } from './tsconfig-paths.ts';
import { CodeStore, type FileMeta, type FileRow } from './store.ts';
import { takeText } from './text-pass.ts';

/** Bumped whenever extraction changes what it stores: every file is parsed again. */
export const PARSER_VERSION = 5;
/** A refresh pass runs at most this often on use. */
const REFRESH_EVERY_MS = 30_000;
/** Parsed files written per transaction, and the source bytes one batch may hold. */
const BATCH_FILES = 32;
/** One process builds (a lease in the database); it renews the lease with every batch it writes. */
const LEASE_NAME = 'code-index';
const LEASE_TTL_MS = 60_000;
const BATCH_BYTES = 2_000_000;
/** Source bytes being parsed at once (the parser's window is counted in files; this bounds their size). */
const PARSING_BYTES = 16_000_000;

export interface CodeIndexDeps {
  fs: RuntimeFs;
  grammars: Grammars;
  /** Where files are parsed (a pool of workers); without one, in this thread with `grammars`. The caller closes it. */
  parser?: ParsePool;
  logger: Logger;
  workdirs: Workdirs;
  /** The folder indexed (the project root); paths are relative to it. */
  root: string;
  scan: { excludeDirs: readonly string[]; respectGitignore: boolean };
  openDatabase(): Promise<Database>;
  /** Lists the catalogue with `git ls-files` in a repository (the walk otherwise). */
  git?: { runtime: Runtime; exec: Executor };
}

export type CodeIndexState = 'idle' | 'building' | 'ready' | 'unavailable';

export interface CodeIndexStatus {
  state: CodeIndexState;
  /** Files looked at / found in the running (or last) pass. */
  done: number;
  total: number;
  error?: string;
}

export interface CodeIndex {
  readonly root: string;
  status(): CodeIndexStatus;
  /** Starts a build or refresh when due; the store when the index can answer now. */
  ready(): Promise<CodeStore | undefined>;
  /** Re-parses any of these files (relative paths) touched since they were indexed; how many were. */
  fresh(paths: Iterable<string>): Promise<number>;
  /** A full refresh pass, awaited (tests, benchmarks, the first build). */
  refresh(): Promise<void>;
  /** Stops a running pass at its next file and closes the database. */
  close(): Promise<void>;
  /** The trigram text index over the same catalogue, refreshed by the same pass. */
  readonly text: TextIndexHandle;
}

interface Pending {
  meta: FileMeta;
  parsed: ParsedFile | undefined;
  targets: (string | undefined)[];
}

/** Touched files are taken into the index this long after the last touch (a burst of writes: one refresh). */
const TOUCH_SETTLE_MS = 300;

/** Lines of a text, counted without splitting it (a kernel tree is a gigabyte of them). */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Lets pending I/O and tool calls run (setImmediate where the runtime has it: no 1 ms timer floor). */
function yieldToLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** How long the first pass of a process waits after the call that asked for it (see passOnUse). */
export const FIRST_PASS_DELAY_MS = 1000;
/** code_meta key: when the newest catalogue listing that has been synced began (ms since the epoch). */
const CATALOGUE_SYNCED_AT = 'catalogue_synced_at';

export function createCodeIndex(deps: CodeIndexDeps): CodeIndex {
  const openedAt = Date.now();
  let opening: Promise<CodeStore | undefined> | undefined;
  let store: CodeStore | undefined;
  let state: CodeIndexState = 'idle';
  let done = 0;
  let total = 0;
  let error: string | undefined;
  let running: Promise<void> | undefined;
  let lastPass = 0;
  let firstPassTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** A .gitignore changed since the running pass began listing (see relist). */
  let relistDue = false;
  let paths: ReturnType<typeof createPathSet> | undefined;
  const inFlight = new Map<string, Promise<boolean>>();
  let textReady = false;
  let textBuilding = false;
  const parser = deps.parser ?? createInThreadParser(deps.grammars);
  const listing: CatalogueOptions = { root: deps.root, excludeDirs: deps.scan.excludeDirs, respectGitignore: deps.scan.respectGitignore, git: deps.git };

  function open(): Promise<CodeStore | undefined> {
    opening ??= (async () => {
      try {
        const db = await deps.openDatabase();
        store = new CodeStore(db);
        if (store.meta('root') !== deps.root || store.meta('parser') !== String(PARSER_VERSION)) {
          // Another root or an older extraction: start again from nothing.
          await db.writeTransaction(() => {
            db.exec("INSERT INTO code_blocks(code_blocks) VALUES ('delete-all'); DELETE FROM code_refs; DELETE FROM code_imports; DELETE FROM code_defs; DELETE FROM code_files; DELETE FROM code_meta;");
            db.exec(CLEAR_TEXT_INDEX_SQL);
            store!.setMeta('root', deps.root);
            store!.setMeta('parser', String(PARSER_VERSION));
          });
        }
        if (store.meta('complete') === '1') state = 'ready';
        if (store.meta('text_complete') === '1') textReady = true;
        return store;
      } catch (e) {
        state = 'unavailable';
        error = messageOf(e);
        deps.logger.log('code_index_unavailable', { error: error });
        return undefined;
      }
    })();
    return opening;
  }

  function goModule(): string | undefined {
    try {
      return /^module\s+(\S+)/m.exec(deps.fs.readTextFileSync(path.join(deps.root, 'go.mod')))?.[1];
    } catch {
      return undefined;
    }
  }

  function knownPaths(s: CodeStore): ReturnType<typeof createPathSet> {
    paths ??= createPathSet(
      s.files().map((f) => f.path),
      goModule(),
      readTsPaths(deps.fs, deps.root),
    );
    return paths;
  }

  /**
   * Reads one file (the version the catalogue row names) and hands it to the parser, waiting while the
   * parser's queue is full; `result` settles with what to write, undefined when it cannot be read.
   */
  async function prepare(s: CodeStore, entry: CatalogueEntry, row: FileRow | undefined, urgent = false): Promise<{ result: Promise<Pending | undefined> }> {
    const language: LanguageId | undefined = isDocumentation(entry.path) || entry.size > MAX_PARSE_BYTES ? undefined : languageOf(entry.path);
    const hash = row?.hash ?? '';
    const version = row?.version;
    if (!language) return { result: Promise.resolve({ meta: { path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, hash, language: undefined, lines: 0, parser: PARSER_VERSION, version }, parsed: undefined, targets: [] }) };
    let text: string;
    try {
      text = await deps.fs.readTextFile(entry.abs);
    } catch {
      return { result: Promise.resolve(undefined) };
    }
    const meta: FileMeta = { path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, hash, language, lines: lineCount(text), parser: PARSER_VERSION, version };
    const { result } = await parser.submit({ language, text }, { urgent });
    const pending = result.then(
      ({ parsed, skipped }): Pending => {
        for (const { pattern, error } of skipped) deps.logger.log('code_query_pattern_skipped', { language, pattern, error });
        const known = knownPaths(s);
        return { meta, parsed, targets: parsed.imports.map((imp) => resolveImport(known, language, entry.path, imp.source)) };
      },
      (e): Pending => {
        // A grammar that cannot load fails every file of its language: stop, and let the scan answer.
        if (e instanceof AppError && e.code === ErrorCode.Unavailable) throw e;
        deps.logger.log('code_index_file_error', { file: entry.path, error: messageOf(e) });
        return { meta: { ...meta, language: undefined }, parsed: undefined, targets: [] };
      },
    );
    // Awaited later (or never, when the pass stops first): a failure must not go unhandled meanwhile.
    pending.catch(() => undefined);
    return { result: pending };
  }

  /** Writes a batch in one transaction, waiting for other processes' writes without blocking. */
  async function write(s: CodeStore, batch: Pending[], lease?: Lease): Promise<void> {
    if (!batch.length) return;
    const items = batch.splice(0);
    await s.db.writeTransaction(() => {
      lease?.renew();
      for (const p of items) s.replace(p.meta, p.parsed, p.targets);
    });
  }

  /** A refresh pass, by the one process holding the build lease; the others use what exists. */
  async function pass(s: CodeStore): Promise<void> {
    const leased = await withLease(s.db, LEASE_NAME, LEASE_TTL_MS, (lease) => build(s, lease));
    if (leased.ok) return;
    if (state === 'building') state = 'idle';
    deps.logger.log('code_index_built_elsewhere', { pid: leased.holder.pid, since: leased.holder.since });
  }

  async function build(s: CodeStore, lease: Lease): Promise<void> {
    const started = Date.now();
    const first = state !== 'ready';
    deps.logger.log('code_index_start', { root: deps.root, first });
    const entries: CatalogueEntry[] = [];
    const listedFrom = Date.now();
    for await (const e of catalogue(deps.fs, deps.workdirs, listing)) {
      if (closed) return;
      entries.push(e);
    }
    const changes = await syncCatalogue(s, entries, () => void lease.renew());
    if (closed) return;
    // From here the catalogue knows every change made before the listing began (the text reader
    // trusts the index only then: see `open` below).
    await s.db.writeTransaction(() => s.setMeta(CATALOGUE_SYNCED_AT, String(listedFrom)));
    await textStage(s, entries, lease);
    if (closed) return;
    const rows = new Map(s.files().map((r) => [r.path, r]));
    paths = createPathSet(
      entries.map((e) => e.path),
      goModule(),
      readTsPaths(deps.fs, deps.root),
    );
    total = entries.length;
    done = 0;
    const batch: Pending[] = [];
    let bytes = 0;
    let lastYield = performance.now();
    let parsed = 0;
    // Files being parsed, oldest first: several in flight, collected in order into write batches.
    const parsing: { result: Promise<Pending | undefined>; size: number }[] = [];
    let parsingBytes = 0;
    const collectOldest = async () => {
      const oldest = parsing.shift()!;
      parsingBytes -= oldest.size;
      const pending = await oldest.result;
      if (pending) {
        batch.push(pending);
        bytes += pending.meta.size;
        if (pending.parsed) parsed++;
      }
      if (batch.length >= BATCH_FILES || bytes >= BATCH_BYTES) {
        await write(s, batch, lease);
        bytes = 0;
      }
    };
    for (const entry of entries) {
      if (closed) return;
      done++;
      const row = rows.get(entry.path);
      rows.delete(entry.path);
      if (!row || (row.parsed_of === row.version && row.parser === PARSER_VERSION)) continue;
      parsing.push({ result: (await prepare(s, entry, row)).result, size: entry.size });
      parsingBytes += entry.size;
      while (parsing.length >= parser.capacity || parsingBytes > PARSING_BYTES) await collectOldest();
      if (performance.now() - lastYield > 20) {
        await yieldToLoop();
        lastYield = performance.now();
      }
      if (done % 2000 === 0) deps.logger.log('code_index_progress', { done, total });
    }
    while (parsing.length) {
      if (closed) return;
      await collectOldest();
    }
    await write(s, batch, lease);
    await s.db.writeTransaction(() => s.setMeta('complete', '1'));
    state = 'ready';
    deps.logger.log('code_index_done', { files: total, parsed, removed: changes.removed, ms: Date.now() - started });
  }

  /** The text stage of a pass: every file the text index has not taken in its current version. */
  async function textStage(s: CodeStore, entries: readonly CatalogueEntry[], lease?: Lease): Promise<void> {
    const work = textWork(s, entries);
    textBuilding = true;
    try {
      const onIndexed = async () => {
        textBuilding = false;
        if (!lease || textReady) return;
        await s.db.writeTransaction(() => s.setMeta('text_complete', '1'));
        textReady = true;
      };
      await takeText(s, work, { fs: deps.fs, logger: deps.logger, lease, stopped: () => closed, pause: yieldToLoop, onIndexed, onProgress: (d, n) => d % 5000 === 0 && d > 0 && deps.logger.log('text_index_progress', { done: d, total: n }) });
    } finally {
      textBuilding = false;
    }
  }

  /**
   * A pass when one is due. The first of this process starts FIRST_PASS_DELAY_MS after the call that
   * asked for it: that call is answered by a scan, which the walk would otherwise slow down.
   */
  function passOnUse(s: CodeStore): void {
    if (running || firstPassTimer || closed || Date.now() - lastPass <= REFRESH_EVERY_MS) return;
    if (lastPass !== 0) {
      void startPass(s);
      return;
    }
    if (state === 'idle') state = 'building';
    firstPassTimer = setTimeout(() => {
      firstPassTimer = undefined;
      if (!closed) void startPass(s);
    }, FIRST_PASS_DELAY_MS);
    (firstPassTimer as { unref?: () => void }).unref?.();
  }

  function startPass(s: CodeStore): Promise<void> {
    if (running) return running;
    if (state === 'idle') state = 'building';
    relistDue = false;
    running = pass(s)
      .catch((e) => {
        error = messageOf(e);
        deps.logger.log('code_index_error', { error });
        state = e instanceof AppError && e.code === ErrorCode.Unavailable ? 'unavailable' : state === 'building' ? 'idle' : state;
      })
      .finally(() => {
        running = undefined;
        lastPass = Date.now();
        if (relistDue && !closed) void startPass(s);
      });
    return running;
  }

  /**
   * A .gitignore changed: files nobody touched may enter or leave the catalogue, and only a listing
   * tells which — a pass now, or right after the running one (its listing may predate the change).
   */
  function relist(s: CodeStore): void {
    relistDue = true;
    if (!running && !firstPassTimer && !closed) void startPass(s);
  }

  async function freshOne(s: CodeStore, rel: string): Promise<boolean> {
    const abs = path.join(deps.root, rel);
    const st = await deps.fs.stat(abs);
    const row = s.file(rel);
    if (!st?.isFile) {
      if (!row) return false;
      await s.db.writeTransaction(() => s.remove(rel));
      paths?.delete(rel);
      return true;
    }
    // The text stage (freshText) has run: the row holds the version the parse must take.
    if (!row || (row.parsed_of === row.version && row.parser === PARSER_VERSION)) return false;
    // An answer waits on it: ahead of any build's queued files.
    const pending = await (await prepare(s, { path: rel, abs, size: st.size, mtimeMs: st.mtimeMs }, row, true)).result;
    if (pending) await write(s, [pending]);
    return pending !== undefined;
  }

  /**
   * The files of `list` that changed since both stages took them (or appeared, or went): one read
   * transaction for all their rows and the stats in parallel — an answer over a thousand files checks
   * them all, and one lock cycle per lookup cost more than the lookups.
   */
  async function needingWork(s: CodeStore, list: readonly string[]): Promise<string[]> {
    const stats = await Promise.all(list.map((rel) => deps.fs.stat(path.join(deps.root, rel))));
    const rows = s.db.readTransaction(() => list.map((rel) => s.file(rel)));
    return list.filter((_, i) => {
      const st = stats[i];
      const row = rows[i];
      if (!st?.isFile) return row !== undefined;
      return !row || row.size !== st.size || row.mtime_ms !== st.mtimeMs || row.text_of !== row.version || row.parsed_of !== row.version || row.parser !== PARSER_VERSION;
    });
  }

  /** The catalogue and text stage for files touched since they were indexed, all in one small segment; those whose content changed. */
  async function freshText(s: CodeStore, list: readonly string[]): Promise<Set<string>> {
    const entries: CatalogueEntry[] = [];
    const added: CatalogueEntry[] = [];
    const changed: number[] = [];
    const before = new Map<string, number>();
    // Made for this batch: the .gitignore files as they are now (see createCatalogueJudge).
    let takes: ((rel: string) => boolean) | undefined;
    for (const rel of list) {
      const abs = path.join(deps.root, rel);
      const st = await deps.fs.stat(abs);
      if (!st?.isFile) continue;
      const row = s.file(rel);
      const entry = { path: rel, abs, size: st.size, mtimeMs: st.mtimeMs };
      if (!row) {
        takes ??= createCatalogueJudge(deps.fs, listing);
        if (!takes(rel)) continue;
        added.push(entry);
      } else if (row.size !== st.size || row.mtime_ms !== st.mtimeMs) {
        changed.push(row.id);
        before.set(rel, row.version);
      } else if (row.text_of === row.version) continue;
      entries.push(entry);
    }
    if (!entries.length) return new Set();
    await s.db.writeTransaction(() => {
      s.addFiles(added);
      s.markChanged(changed);
    });
    for (const e of added) paths?.add(e.path);
    await takeText(s, textWork(s, entries), { fs: deps.fs, logger: deps.logger, stopped: () => closed, pause: yieldToLoop });
    return new Set(entries.filter((e) => !before.has(e.path) || s.file(e.path)?.version !== before.get(e.path)).map((e) => e.path));
  }

  let touchTimer: ReturnType<typeof setTimeout> | undefined;
  const touchedPaths = new Set<string>();
  /** Fresh runs started by touched files: close() waits for them before it closes the database. */
  const touchRuns = new Set<Promise<unknown>>();
  const text = createTextIndexReader({
    root: deps.root,
    fs: deps.fs,
    async open() {
      if (closed || state === 'unavailable') return undefined;
      const s = await open();
      // Another process may have finished the first build meanwhile.
      if (s && !textReady && s.meta('text_complete') === '1') textReady = true;
      if (s) passOnUse(s);
      // An index from before this process started may miss files edited while no server watched:
      // it narrows searches only once a catalogue listing begun since then is in (by any process).
      if (s && Number(s.meta(CATALOGUE_SYNCED_AT) ?? 0) < openedAt) return undefined;
      return s?.db;
    },
    current: () => store?.db,
    state: () => (state === 'unavailable' ? 'unavailable' : textReady ? 'ready' : textBuilding || running ? 'building' : 'idle'),
    error: () => error,
    onTouched(list) {
      if (closed) return;
      for (const p of list) touchedPaths.add(p);
      if (touchTimer) clearTimeout(touchTimer);
      touchTimer = setTimeout(() => {
        touchTimer = undefined;
        const due = [...touchedPaths];
        touchedPaths.clear();
        if (!closed && store) {
          const run = api.fresh(due).catch((e) => void deps.logger.log('code_index_error', { error: messageOf(e) }));
          touchRuns.add(run);
          void run.finally(() => touchRuns.delete(run));
        }
      }, TOUCH_SETTLE_MS);
    },
  });

  const api: CodeIndex = {
    root: deps.root,
    text,
    status: () => ({ state, done, total, ...(error ? { error } : {}) }),
    async ready() {
      if (closed || state === 'unavailable') return undefined;
      const s = await open();
      if (!s) return undefined;
      // Another process may have finished the first build meanwhile.
      if (state !== 'ready' && s.meta('complete') === '1') state = 'ready';
      passOnUse(s);
      return state === 'ready' ? s : undefined;
    },
    async fresh(list) {
      const s = store;
      if (!s || closed) return 0;
      const all = [...new Set(list)];
      if (all.some((rel) => rel === '.gitignore' || rel.endsWith('/.gitignore'))) relist(s);
      const unique = await needingWork(s, all);
      if (!unique.length) return 0;
      const newText = await freshText(s, unique);
      let changed = 0;
      for (const rel of unique) {
        let job = inFlight.get(rel);
        if (!job) {
          job = freshOne(s, rel).finally(() => inFlight.delete(rel));
          inFlight.set(rel, job);
        }
        if ((await job) || newText.has(rel)) changed++;
      }
      return changed;
    },
    async refresh() {
      const s = await open();
      if (!s) return;
      if (firstPassTimer) clearTimeout(firstPassTimer);
      firstPassTimer = undefined;
      if (running) await running;
      await startPass(s);
    },
    async close() {
      closed = true;
      if (touchTimer) clearTimeout(touchTimer);
      if (firstPassTimer) clearTimeout(firstPassTimer);
      // A running pass stops at its next file; the database closes after it.
      await running?.catch(() => undefined);
      await Promise.allSettled([...touchRuns, ...inFlight.values()]);
      try {
        store?.db.close();
      } catch {
        // already closed
      }
      store = undefined;
    },
  };
  return api;
}
