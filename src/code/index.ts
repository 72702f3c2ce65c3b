// The code index: built in the background on first use, refreshed incrementally, and never stale —
// callers pass the files an answer rests on to `fresh`, which re-parses any touched since. One refresh
// pass (index-pass.ts) lists the catalogue once and feeds two stages: the text stage (the trigram
// index, `text`) reads a file again only when its size or mtime changed and tells whether its content
// hash did; the parse stage then parses only the files whose content changed. The freshness checks
// are in index-fresh.ts; both get the state they share with the index as one small object
// (index-shared.ts). Until the first build completes, `ready()` answers undefined: the graph's answers
// then parse the files they rest on at once (`onDemand`, `filesNaming`), and the other tools scan. A
// new process with an index on disk first sweeps for files changed while no server ran
// (index-warm.ts, index-reconcile.ts), then answers from it.
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import { isStorageError } from '../storage/storage-error.ts';
import { createTextIndexReader, TEXT_EPOCH } from '../textindex/reader.ts';
import { CLEAR_TEXT_INDEX_SQL } from '../textindex/schema.ts';
import { catalogue } from './catalogue.ts';
import type { CodeIndex, CodeIndexDeps } from './index-api.ts';
import { indexOnDisk } from './index-disk.ts';
import { freshFiles } from './index-fresh.ts';
import { CATALOGUE_SYNCED_AT, PASS_MS, runPass } from './index-pass.ts';
import { createWarmStart, noteWholeCheck } from './index-warm.ts';
import { type IndexShared, isGitignore, PARSER_VERSION } from './index-shared.ts';
import { createInThreadParser } from './parse-pool.ts';
import { CLEAR_BLOCKS_SQL } from './store-blocks.ts';
import { CodeStore } from './store.ts';

// The state type is part of the status this module answers; the version, of what it stores.
export { type CodeIndexState, PARSER_VERSION } from './index-shared.ts';
export { describeIndexOnDisk, type IndexOnDisk } from './index-disk.ts';
export type { CodeIndex, CodeIndexDeps, CodeIndexStatus } from './index-api.ts';

/**
 * A refresh pass runs at most this often on use, and at most once in PASS_COST_FACTOR times the
 * last full pass's length: on the Linux tree a pass (a listing of 77k files) takes ~25 s of wall
 * time, which every 30 s would be a background load beside every search (the watch tells the index
 * of changes meanwhile).
 */
const REFRESH_EVERY_MS = 30_000;
const PASS_COST_FACTOR = 20;
/** However long the last pass took (a first build parses everything), one is due after this. */
const REFRESH_AT_LEAST_MS = 10 * 60_000;

/** Touched files are taken into the index this long after the last touch (a burst of writes: one refresh). */
const TOUCH_SETTLE_MS = 300;

/** How long the first pass of a process waits after the call that asked for it (see passOnUse). */
export const FIRST_PASS_DELAY_MS = 1000;

/**
 * code_meta: when a .gitignore change was last seen (ms since the epoch; by a sweep or the watch, in
 * any process). The catalogue's verdicts are the walk's only from a listing begun after it.
 */
const RULES_CHANGED_AT = 'rules_changed_at';

/** Files parsed on demand for one answer at most (a few milliseconds each, in the parse workers). */
export const MAX_ON_DEMAND_FILES = 300;

export function createCodeIndex(deps: CodeIndexDeps): CodeIndex {
  const openedAt = Date.now();
  let opening: Promise<CodeStore | undefined> | undefined;
  let store: CodeStore | undefined;
  let error: string | undefined;
  let running: Promise<void> | undefined;
  let lastPass = 0;
  let firstPassTimer: ReturnType<typeof setTimeout> | undefined;
  /** A .gitignore changed since the running pass began listing (see relist). */
  let relistDue = false;
  /** When this process last saw a .gitignore change (RULES_CHANGED_AT may not be writable). */
  let rulesChangedHere = 0;
  /** The warm start begun by warm(): settles when it is done (see warmed). */
  let warmedUp: Promise<unknown> | undefined;
  const shared: IndexShared = {
    fs: deps.fs,
    logger: deps.logger,
    workdirs: deps.workdirs,
    listing: { root: deps.root, excludeDirs: deps.scan.excludeDirs, respectGitignore: deps.scan.respectGitignore, git: deps.git },
    parser: deps.parser ?? createInThreadParser(deps.grammars),
    onBulkPass: deps.onBulkPass,
    textSegmentFiles: deps.textSegmentFiles,
    inFlight: new Map(),
    closed: false,
    state: 'idle',
    done: 0,
    total: 0,
    paths: undefined,
    textReady: false,
    textBuilding: false,
  };

  const warmStart = createWarmStart({
    shared,
    openedAt,
    changedSince: deps.changedSince,
    listFromFiles: deps.listFromFiles,
    checkedNote: deps.checkedNote,
    whenQuiet: deps.whenQuiet,
    onSwept(started, gitignoreChanged, s) {
      // The sweep did what the first pass would: that one waits for its turn (an edited .gitignore lists again now).
      if (lastPass === 0) lastPass = started;
      if (gitignoreChanged) relist(s);
    },
  });
  const trusted = (s: CodeStore) => warmStart.trusted(s);

  function open(): Promise<CodeStore | undefined> {
    opening ??= (async () => {
      try {
        const db = await deps.openDatabase();
        store = new CodeStore(db);
        if (store.meta('root') !== deps.root || store.meta('parser') !== String(PARSER_VERSION)) {
          // Another root or an older extraction: start again from nothing.
          await db.writeTransaction(() => {
            db.exec(`${CLEAR_BLOCKS_SQL} DELETE FROM code_refs; DELETE FROM code_locals; DELETE FROM code_imports; DELETE FROM code_import_targets; DELETE FROM code_defs; DELETE FROM code_names; DELETE FROM code_name_keys; DELETE FROM code_name_keys_new; DELETE FROM code_name_sweep; DELETE FROM code_file_rows; DELETE FROM code_file_macros; DELETE FROM code_macro_keys; DELETE FROM code_files; DELETE FROM code_meta;`);
            db.exec(CLEAR_TEXT_INDEX_SQL);
            store!.setMeta('root', deps.root);
            store!.setMeta('parser', String(PARSER_VERSION));
          });
        }
        // The database's epoch (catalogue-snapshot.ts): made with it, and anew when it starts again.
        if (store.meta(TEXT_EPOCH) === undefined) {
          // Without one (a read-only or full disk) the catalogue is read from its table each time.
          await db
            .writeTransaction(() => {
              if (store!.meta(TEXT_EPOCH) === undefined) store!.setMeta(TEXT_EPOCH, crypto.randomUUID());
            })
            .catch((e) => deps.logger.log('code_index_error', { error: messageOf(e) }));
        }
        if (store.meta('complete') === '1') shared.state = 'ready';
        if (store.meta('text_complete') === '1') shared.textReady = true;
        return store;
      } catch (e) {
        error = messageOf(e);
        if (isStorageError(e) && e.reason === 'busy') {
          // Another process held the file past the busy timeout (the one VACUUM that switches an
          // older file to giving pages back, a long write): a later call opens it again.
          store?.db.close();
          store = undefined;
          opening = undefined;
          deps.logger.log('code_index_busy', { error });
          return undefined;
        }
        shared.state = 'unavailable';
        deps.logger.log('code_index_unavailable', { error: error });
        return undefined;
      }
    })();
    return opening;
  }

  /**
   * A pass when one is due. The first of this process starts FIRST_PASS_DELAY_MS after the call that
   * asked for it, and not before the calls being answered are (whenQuiet): that call is answered by a
   * scan, which the walk would otherwise slow down.
   */
  function passDue(s: CodeStore): boolean {
    const lastPassMs = Number(s.meta(PASS_MS) ?? 0);
    return Date.now() - lastPass > Math.min(REFRESH_AT_LEAST_MS, Math.max(REFRESH_EVERY_MS, lastPassMs * PASS_COST_FACTOR));
  }

  function passOnUse(s: CodeStore): void {
    if (running || firstPassTimer || shared.closed || (lastPass !== 0 && !passDue(s))) return;
    if (lastPass !== 0) {
      void startPass(s);
      return;
    }
    if (shared.state === 'idle') shared.state = 'building';
    firstPassTimer = setTimeout(async () => {
      await deps.whenQuiet?.();
      // A warm start's sweep still running (a slow find on a loaded machine) decides first: it may make
      // this pass unnecessary, and a pass beside it took files it had just indexed for changed (edited
      // within the racy window of their stat) — the index then sent searches to a scan until the pass's
      // text stage had read them again.
      await warmStart.swept();
      firstPassTimer = undefined;
      // A warm start's sweep (see trusted) that took every change meanwhile counts as this pass.
      if (!shared.closed && !(shared.state === 'ready' && lastPass !== 0 && !passDue(s))) void startPass(s);
    }, FIRST_PASS_DELAY_MS);
    (firstPassTimer as { unref?: () => void }).unref?.();
  }

  function startPass(s: CodeStore): Promise<void> {
    if (running) return running;
    if (shared.state === 'idle') shared.state = 'building';
    relistDue = false;
    running = runPass(shared, s)
      .then(() => noteCompletePass(s))
      .catch((e) => {
        error = messageOf(e);
        deps.logger.log('code_index_error', { error });
        shared.state = e instanceof AppError && e.code === ErrorCode.Unavailable ? 'unavailable' : shared.state === 'building' ? 'idle' : shared.state;
      })
      .finally(() => {
        running = undefined;
        lastPass = Date.now();
        if (relistDue && !shared.closed) void startPass(s);
      });
    return running;
  }

  /**
   * A complete index confirmed whole when its last listing began: the note beside the database says
   * so, as a warm start's sweep does, so that the next process starts its find for what changed
   * since then at once (app/early-check.ts) — the first process after a build had none, and its
   * first search on the Linux tree waited ~0.4 s for that find (1.6 s where the tree had been
   * unpacked a minute before the listing, and whole minutes listed all of it).
   */
  function noteCompletePass(s: CodeStore): void {
    if (shared.closed || !deps.checkedNote || s.meta('complete') !== '1') return;
    const at = Number(s.meta(CATALOGUE_SYNCED_AT) ?? 0);
    if (at > (deps.checkedNote.read()?.at ?? 0)) noteWholeCheck(deps.checkedNote, s, at, deps.logger);
  }

  /**
   * A .gitignore changed: files nobody touched may enter or leave the catalogue, and only a listing
   * tells which — a pass now, or right after the running one (its listing may predate the change).
   */
  function relist(s: CodeStore): void {
    relistDue = true;
    // Every process's searches stop taking the catalogue's verdicts until a listing begun after now.
    const at = Date.now();
    rulesChangedHere = at;
    void s.db
      .writeTransaction(() => {
        if (Number(s.meta(RULES_CHANGED_AT) ?? 0) < at) s.setMeta(RULES_CHANGED_AT, String(at));
      })
      .catch((e) => deps.logger.log('code_index_error', { error: messageOf(e) }));
    if (!running && !firstPassTimer && !shared.closed) void startPass(s);
  }

  let touchTimer: ReturnType<typeof setTimeout> | undefined;
  const touchedPaths = new Set<string>();
  /** Fresh runs started by touched files: close() waits for them before it closes the database. */
  const touchRuns = new Set<Promise<unknown>>();
  const text = createTextIndexReader({
    root: deps.root,
    fs: deps.fs,
    async open() {
      if (shared.closed || shared.state === 'unavailable') return undefined;
      const s = await open();
      if (!s) return undefined;
      // Another process may have finished the first build meanwhile.
      if (!shared.textReady && s.meta('text_complete') === '1') shared.textReady = true;
      passOnUse(s);
      return s.db;
    },
    async confirmed() {
      // An index from before this process started may miss files edited while no server watched.
      const s = store ?? (await open());
      return s !== undefined && !shared.closed && (await trusted(s));
    },
    rulesCurrent() {
      // Listed without the .gitignore rules, a .gitignore touched and not yet taken, or changed since
      // the last listing began (seen here or by another process): the walk's rules judge again.
      if (!deps.scan.respectGitignore || !store || shared.closed) return false;
      for (const p of touchedPaths) if (isGitignore(p)) return false;
      const listedFrom = Number(store.meta(CATALOGUE_SYNCED_AT) ?? 0);
      return listedFrom >= Math.max(rulesChangedHere, Number(store.meta(RULES_CHANGED_AT) ?? 0));
    },
    current: () => store?.db,
    state: () => (shared.state === 'unavailable' ? 'unavailable' : shared.textReady ? 'ready' : shared.textBuilding || running ? 'building' : 'idle'),
    error: () => error,
    ...(deps.catalogueSnapshot ? { snapshot: { file: deps.catalogueSnapshot, whenQuiet: deps.whenQuiet ?? (() => Promise.resolve()) } } : {}),
    onTouched(list) {
      if (shared.closed) return;
      for (const p of list) touchedPaths.add(p);
      if (touchTimer) clearTimeout(touchTimer);
      touchTimer = setTimeout(() => {
        touchTimer = undefined;
        const due = [...touchedPaths];
        touchedPaths.clear();
        if (!shared.closed && store) {
          const run = api.fresh(due).catch((e) => void deps.logger.log('code_index_error', { error: messageOf(e) }));
          touchRuns.add(run);
          void run.finally(() => touchRuns.delete(run));
        }
      }, TOUCH_SETTLE_MS);
    },
  });
  shared.notCatalogued = (paths, judgedAt) => text.forget(paths, judgedAt);

  const api: CodeIndex = {
    root: deps.root,
    text,
    status: () => ({ state: shared.state, done: shared.done, total: shared.total, ...(error ? { error } : {}) }),
    async ready() {
      if (shared.closed || shared.state === 'unavailable') return undefined;
      const s = await open();
      if (!s) return undefined;
      // Another process may have finished the first build meanwhile.
      if (shared.state !== 'ready' && s.meta('complete') === '1') shared.state = 'ready';
      passOnUse(s);
      return shared.state === 'ready' && (await trusted(s)) ? s : undefined;
    },
    async onDemand(list) {
      if (shared.closed || shared.state === 'unavailable') return undefined;
      const files = [...new Set(list)];
      if (files.length > MAX_ON_DEMAND_FILES) return undefined;
      const s = await open();
      if (!s || shared.closed) return undefined;
      passOnUse(s);
      // New files are judged by the catalogue's rules (an ignored or secret file is never taken).
      await freshFiles(shared, s, files);
      return s;
    },
    async filesNaming(name, options) {
      if (!deps.filesNaming || shared.closed) return undefined;
      try {
        // Every file naming it while they can all be parsed now: any of them may declare it (a
        // field, a parameter, a local the line heuristics do not see), as the built index would say.
        const found = await deps.filesNaming(name, { ...options, parseable: MAX_ON_DEMAND_FILES });
        return found.files.length <= MAX_ON_DEMAND_FILES ? found : undefined;
      } catch (e) {
        deps.logger.log('code_on_demand_error', { error: messageOf(e) });
        return undefined;
      }
    },
    async fresh(list) {
      const s = store;
      if (!s || shared.closed) return 0;
      const all = [...new Set(list)];
      if (all.some(isGitignore)) relist(s);
      return freshFiles(shared, s, all);
    },
    warm() {
      if (shared.closed || !deps.databaseExists?.()) return false;
      warmStart.listEarly(deps.earlyList);
      warmedUp = open()
        .then((s) => {
          if (!s || shared.closed || s.meta('catalogued') !== '1') return undefined;
          const sweep = trusted(s);
          // The catalogue as the text index's queries read it, while find lists what changed.
          if (shared.textReady) text.preload(s.db);
          return sweep;
        })
        .catch((e) => deps.logger.log('code_index_error', { error: messageOf(e) }));
      return true;
    },
    async warmed() {
      await warmedUp;
    },
    async refresh() {
      const s = await open();
      if (!s) return;
      if (firstPassTimer) clearTimeout(firstPassTimer);
      firstPassTimer = undefined;
      if (running) await running;
      await startPass(s);
    },
    async onDisk() {
      const s = await open();
      return s ? indexOnDisk(s) : undefined;
    },
    async filesUpTo(limit) {
      let n = 0;
      for await (const _ of catalogue(deps.fs, deps.workdirs, shared.listing)) if (++n > limit || shared.closed) break;
      return n;
    },
    async close() {
      shared.closed = true;
      if (touchTimer) clearTimeout(touchTimer);
      if (firstPassTimer) clearTimeout(firstPassTimer);
      // A running pass stops at its next file; the database closes after it.
      await running?.catch(() => undefined);
      await Promise.allSettled([...touchRuns, ...shared.inFlight.values()]);
      // A sweep not recorded yet (the process ends before a quiet moment came).
      if (store) await warmStart.record();
      // A database still opening (a first query's) is closed once it is open.
      await opening?.catch(() => undefined);
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
