// A new process's warm start of the code index: before an index on disk answers, one sweep finds and
// takes every file changed while no server ran (index-reconcile.ts) — from find's list of what
// changed since the catalogue was last confirmed whole, started as early as the process can (the note
// of the last whole check beside code.db, or app/early-check.ts's list) — and records that it did, so
// the next process's sweep starts from this one.
import { messageOf } from '../errors.ts';
import { RACY_MS } from '../textindex/file-identity.ts';
import type { ChangedSince } from '../workspace/changed-since.ts';
import { CATALOGUE_SYNCED_AT } from './index-pass.ts';
import { LIST_FROM_FILES, reconcile, SWEPT_AT } from './index-reconcile.ts';
import { type IndexShared, isGitignore } from './index-shared.ts';
import type { CodeStore } from './store.ts';

/** The note beside the database of the last whole check of the catalogue (when it began, how many files). */
export interface CheckedNote {
  read(): { at: number; files: number } | undefined;
  write(note: { at: number; files: number }): void;
}

/**
 * Notes a whole check begun at `at` (a sweep, or a complete pass's listing) with the catalogue's files:
 * the next process starts its find for what changed since then before its database is open. A note
 * that cannot be written is logged, not thrown: the next process then waits for its database.
 */
export function noteWholeCheck(note: CheckedNote, s: CodeStore, at: number, logger: IndexShared['logger']): void {
  try {
    note.write({ at, files: Number(s.db.value('SELECT count(*) FROM code_files') ?? 0) });
  } catch (e) {
    logger.log('code_index_error', { error: messageOf(e) });
  }
}

/** find's list of what changed since a moment, begun before the database was open. */
export interface EarlyList {
  since: number;
  listed: Promise<string[] | undefined>;
}

export interface WarmStartDeps {
  shared: IndexShared;
  /** When this process's index was made (ms since the epoch): a listing begun since confirms the catalogue. */
  openedAt: number;
  changedSince?: ChangedSince;
  listFromFiles?: number;
  checkedNote?: CheckedNote;
  whenQuiet?: () => Promise<void>;
  /** The sweep found and took every change (it began at `started`): what the first pass would have done. */
  onSwept(started: number, gitignoreChanged: boolean, s: CodeStore): void;
}

export interface WarmStart {
  /**
   * Whether the index on disk may answer: a catalogue listing begun since this process started is in
   * (by any process), or this process's sweep found and took every file changed while no server
   * watched. Until then the answers scan or parse on demand.
   */
  trusted(s: CodeStore): Promise<boolean>;
  /** Starts find's list now, before the database is open: the one given (app/early-check.ts), or one from the note of the last whole check. */
  listEarly(given?: EarlyList): void;
  /** Records a trusted sweep not recorded yet (the index closes before a quiet moment came). */
  record(): Promise<void>;
  /** Settles when the sweep that was asked for has ended (at once when none was). */
  swept(): Promise<unknown>;
}

export function createWarmStart(deps: WarmStartDeps): WarmStart {
  const { shared } = deps;
  const { logger } = shared;
  /** The sweep, once (whoever asks first). */
  let warming: Promise<boolean> | undefined;
  /** Records the trusted sweep (the note beside the database, SWEPT_AT): once, whoever asks first. */
  let sweepRecord: (() => Promise<void>) | undefined;
  let early: EarlyList | undefined;

  return {
    listEarly(given) {
      if (given) {
        early = given;
        return;
      }
      const note = deps.checkedNote?.read();
      if (note && deps.changedSince && note.files >= (deps.listFromFiles ?? LIST_FROM_FILES)) {
        const since = note.at - RACY_MS;
        early = { since, listed: deps.changedSince(since) };
      }
    },

    async record() {
      await sweepRecord?.();
    },

    swept() {
      return warming ?? Promise.resolve();
    },

    trusted(s) {
      const listedFrom = Number(s.meta(CATALOGUE_SYNCED_AT) ?? 0);
      if (listedFrom >= deps.openedAt) return Promise.resolve(true);
      if (s.meta('catalogued') !== '1') return Promise.resolve(false);
      warming ??= (async () => {
        const started = Date.now();
        try {
          // Confirmed whole: by the last listing, or by a sweep since (which took every change before it began).
          const confirmedFrom = Math.max(listedFrom, Number(s.meta(SWEPT_AT) ?? 0));
          // The early list covers every change since an earlier moment than asked: a superset, usable.
          const { changedSince } = deps;
          const fromEarly = early;
          const listing = changedSince && ((since: number, signal?: AbortSignal) => (fromEarly && fromEarly.since <= since ? fromEarly.listed : changedSince(since, signal)));
          // A list already made (started early) is used whatever the catalogue's size: it costs nothing more.
          const made = fromEarly !== undefined && fromEarly.since <= confirmedFrom - RACY_MS;
          const r = await reconcile(shared, s, confirmedFrom, listing || undefined, made ? 0 : deps.listFromFiles);
          logger.log('code_index_reconciled', { by: r.by, ...(r.by === 'listed' && early ? { early: early.since <= confirmedFrom - RACY_MS } : {}), checked: r.checked, changed: r.changes.length, trusted: r.trusted, ms: Date.now() - started });
          if (!r.trusted) return false;
          // The next process's sweep looks only at what changed since this one began: recorded once the
          // calls waiting for this sweep are answered (two synced writes, ~0.1 s on a loaded machine),
          // or when the index closes first.
          let recording: Promise<void> | undefined;
          const write = async () => {
            if (deps.checkedNote) noteWholeCheck(deps.checkedNote, s, started, logger);
            await s.db
              .writeTransaction(() => {
                if (Number(s.meta(SWEPT_AT) ?? 0) < started) s.setMeta(SWEPT_AT, String(started));
              })
              .catch((e) => logger.log('code_index_error', { error: messageOf(e) }));
          };
          sweepRecord = () => (recording ??= write());
          void (async () => {
            await deps.whenQuiet?.();
            if (!shared.closed) await sweepRecord?.();
          })();
          deps.onSwept(started, r.changes.some(isGitignore), s);
          return true;
        } catch (e) {
          logger.log('code_index_error', { error: messageOf(e) });
          return false;
        }
      })();
      return warming;
    },
  };
}
