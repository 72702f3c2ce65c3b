// Giving freed pages back to the file system. SQLite keeps a deleted row's pages in the file for
// reuse; a database whose big tables are rewritten (the code index's compaction, a re-parse) would
// keep its largest size for ever. With auto_vacuum=INCREMENTAL the free pages can be cut off the end
// of the file a few thousand at a time, each step one short write transaction, so other processes'
// reads wait milliseconds, not the length of a whole VACUUM.
import type { Database } from './database.ts';

/** SQLite's auto_vacuum modes (PRAGMA auto_vacuum). */
const INCREMENTAL = 2;
/** Pages freed per write transaction (16 MB at 4 KiB pages). */
const PAGES_PER_STEP = 4096;

export interface FreePagesOptions {
  /** Called before each step (a lease to keep). */
  renew?: () => void;
  /** Lets the event loop run between steps. */
  pause?: () => Promise<void>;
  stopped?: () => boolean;
}

/** True when the database can give pages back a step at a time. */
export function canReturnPages(db: Database): boolean {
  return Number(db.value('PRAGMA auto_vacuum')) === INCREMENTAL;
}

/** Free pages in the file (kept for reuse until given back). */
export function freePages(db: Database): number {
  return Number(db.value('PRAGMA freelist_count') ?? 0);
}

/**
 * Cuts the free pages off the end of the file, a step at a time; the pages given back (0 when the
 * file is not in incremental mode: see switchToIncremental).
 */
export async function returnFreePages(db: Database, options: FreePagesOptions = {}): Promise<number> {
  if (!canReturnPages(db)) return 0;
  let returned = 0;
  for (;;) {
    if (options.stopped?.()) break;
    const before = freePages(db);
    if (before === 0) break;
    await db.writeTransaction(() => {
      options.renew?.();
      db.run(`PRAGMA incremental_vacuum(${PAGES_PER_STEP})`);
    });
    const after = freePages(db);
    returned += Math.max(0, before - after);
    if (after >= before) break;
    await options.pause?.();
  }
  return returned;
}

/**
 * Puts a file made without incremental vacuum into it. That takes one VACUUM (the whole file
 * rewritten while every other process waits), so it is done only when it is short or pays: the file
 * is at most `maxBytes`, or a quarter of it or more is free pages (the rewrite then shrinks it by as
 * much). Otherwise the file keeps reusing its free pages in place. True when the file is in
 * incremental mode afterwards.
 */
export function switchToIncremental(db: Database, maxBytes: number): boolean {
  if (canReturnPages(db)) return true;
  const pageSize = Number(db.value('PRAGMA page_size'));
  const pages = Number(db.value('PRAGMA page_count'));
  if (pageSize * pages > maxBytes && freePages(db) * 4 < pages) return false;
  db.exec('PRAGMA auto_vacuum=INCREMENTAL');
  db.exec('VACUUM');
  return canReturnPages(db);
}
