// A warm start: a new process finds an index on disk that the last process left, and files may have
// changed while no server ran. Before the index answers, one sweep finds every file changed, gone or
// new since the catalogue was last confirmed whole (a pass's listing or an earlier sweep) and takes
// them (text, then parse); the full listing still runs later, in the background. Where find(1) runs,
// it lists what changed since then by ctime (reconcile-listed.ts checks that list); otherwise every
// catalogued file is stat'ed (size, mtime, ctime, inode: file-identity.ts) and every folder holding
// one (adding or removing a file changes its folder's times) — a fraction of listing the project
// again, but on the Linux tree ~77k stats and a read of the whole catalogue before the first answer.
import * as path from 'node:path';
import { type ChangedSince, LIST_FROM_FILES } from '../workspace/changed-since.ts';
import { mayDiffer, RACY_MS } from '../textindex/file-identity.ts';
import { createCatalogueFolderJudge, walked } from './catalogue.ts';
import { freshFiles } from './index-fresh.ts';
import { type IndexShared, yieldToLoop } from './index-shared.ts';
import { changesAmong } from './reconcile-listed.ts';
import type { CodeStore } from './store.ts';

/** code_meta key: when the last sweep that found and took every change began (ms since the epoch). */
export const SWEPT_AT = 'swept_at';
/** A list of more changed entries than this is not worth checking one by one: every file is stat'ed instead. */
const MAX_LISTED = 20_000;
export { LIST_FROM_FILES } from '../workspace/changed-since.ts';

/** More changes than this are left to the full pass: the index is not trusted until it ran. */
export const MAX_RECONCILED_CHANGES = 5000;
/** Stats between turns given to other work. */
const STATS_PER_TURN = 4000;

export interface Reconciled {
  /** Files (and folders) looked at. */
  checked: number;
  /** Files changed, gone or new, taken before the index answers. */
  changes: string[];
  /** False when there were too many changes to take now: the full pass must run first. */
  trusted: boolean;
  /** How the changes were found: from find's list of what changed, or by a stat of every catalogued file. */
  by: 'listed' | 'stats';
}

/**
 * Whether the catalogue holds `files` files or more. Its greatest id (one step down the table's tree)
 * is never below its count: under `files`, it is small. Only past that is it counted — count(*)
 * reads the whole path index (~500 pages, 30–60 ms on the Linux tree, on a new process's way to its
 * first answer), and ids left by deleted files keep the greatest id up.
 */
export function holdsAtLeast(s: CodeStore, files: number): boolean {
  if (files <= 0) return true;
  if (Number(s.db.value('SELECT max(id) FROM code_files') ?? 0) < files) return false;
  return Number(s.db.value('SELECT count(*) FROM code_files') ?? 0) >= files;
}

/**
 * Finds the files changed since the catalogue was last confirmed whole (`confirmedFrom`, ms since the
 * epoch) and takes them; `changedSince` lists what changed (find), when it can, for a catalogue of
 * `listFrom` files or more.
 */
export async function reconcile(shared: IndexShared, s: CodeStore, confirmedFrom: number, changedSince?: ChangedSince, listFrom = LIST_FROM_FILES): Promise<Reconciled> {
  const big = () => holdsAtLeast(s, listFrom);
  // A change made after a row's stat has a ctime no earlier than that, less a coarse clock's tick.
  const listed = changedSince && big() ? await changedSince(confirmedFrom - RACY_MS) : undefined;
  const found = listed && listed.length <= MAX_LISTED ? { ...(await changesAmong(shared, s, listed)), complete: true, by: 'listed' as const } : { ...(await sweepAll(shared, s, confirmedFrom)), by: 'stats' as const };
  const { checked, changes, by } = found;
  if (!found.complete || changes.length > MAX_RECONCILED_CHANGES || shared.closed) return { checked, changes, trusted: false, by };
  // New paths are judged by the catalogue's rules there (ignored, hidden, secret: never taken).
  await freshFiles(shared, s, changes);
  return { checked, changes, trusted: !shared.closed, by };
}

/**
 * Every catalogued file stat'ed and compared with its identity; folders judged by their times against
 * `confirmedFrom`. Not complete when it stopped early (closed, or more changes than are taken now).
 */
async function sweepAll(shared: IndexShared, s: CodeStore, confirmedFrom: number): Promise<{ checked: number; changes: string[]; complete: boolean }> {
  const { fs } = shared;
  const root = shared.listing.root;
  const rows = s.catalogueRows();
  const known = new Set<string>();
  const folders = new Set<string>(['']);
  const changes: string[] = [];
  let checked = 0;
  for (const row of rows) {
    known.add(row.path);
    for (let dir = path.posix.dirname(row.path); dir !== '.' && !folders.has(dir); dir = path.posix.dirname(dir)) folders.add(dir);
    // The catalogue takes regular files only: a file replaced by a symlink or a folder is gone.
    const st = fs.lstatSync(path.join(root, row.path));
    if (!st?.isFile || st.isSymbolicLink || mayDiffer(row, st)) changes.push(row.path);
    if (++checked % STATS_PER_TURN === 0) {
      if (shared.closed) return { checked, changes, complete: false };
      await yieldToLoop();
    }
  }
  // A folder whose times are not older than the listing may hold files the catalogue never saw.
  const enters = createCatalogueFolderJudge(fs, shared.listing);
  for (const dir of folders) {
    const abs = path.join(root, dir);
    const st = fs.statSync(abs);
    checked++;
    if (!st?.isDirectory || Math.max(st.mtimeMs, st.ctimeMs) < confirmedFrom - RACY_MS) continue;
    let entries: ReturnType<typeof fs.readDirSync>;
    try {
      entries = fs.readDirSync(abs);
    } catch {
      continue;
    }
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isFile && !known.has(rel)) changes.push(rel);
      else if (e.isDirectory && !folders.has(rel) && enters(rel)) {
        // A new folder the listing would enter: the catalogue's walk says which of its files it takes.
        for await (const entry of walked(fs, shared.listing, path.join(root, rel))) changes.push(entry.path);
      }
    }
    if (changes.length > MAX_RECONCILED_CHANGES) return { checked, changes, complete: false };
  }
  return { checked, changes, complete: true };
}
