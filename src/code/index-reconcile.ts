// A warm start: a new process finds an index on disk that the last process left, and files may have
// changed while no server ran. Before the index answers, one sweep compares what the catalogue holds
// with the disk — a stat of every catalogued file (size, mtime, ctime, inode: file-identity.ts) and
// of every folder holding one (adding or removing a file changes its folder's times) — which costs a
// fraction of listing the project again. The files changed, gone or new are taken (text, then parse)
// before the answer; the full listing still runs later, in the background.
import * as path from 'node:path';
import { mayDiffer, RACY_MS } from '../textindex/file-identity.ts';
import { createCatalogueFolderJudge, walked } from './catalogue.ts';
import { freshFiles } from './index-fresh.ts';
import { type IndexShared, yieldToLoop } from './index-shared.ts';
import type { CodeStore } from './store.ts';

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
}

/**
 * Finds the files changed since the catalogue's last listing began (`listedFrom`, ms since the epoch)
 * and takes them. Folders are judged by their times against that listing; files by their identity.
 */
export async function reconcile(shared: IndexShared, s: CodeStore, listedFrom: number): Promise<Reconciled> {
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
      if (shared.closed) return { checked, changes, trusted: false };
      await yieldToLoop();
    }
  }
  // A folder whose times are not older than the listing may hold files the catalogue never saw.
  const enters = createCatalogueFolderJudge(fs, shared.listing);
  for (const dir of folders) {
    const abs = path.join(root, dir);
    const st = fs.statSync(abs);
    checked++;
    if (!st?.isDirectory || Math.max(st.mtimeMs, st.ctimeMs) < listedFrom - RACY_MS) continue;
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
    if (changes.length > MAX_RECONCILED_CHANGES) break;
  }
  if (changes.length > MAX_RECONCILED_CHANGES || shared.closed) return { checked, changes, trusted: false };
  // New paths are judged by the catalogue's rules there (ignored, hidden, secret: never taken).
  await freshFiles(shared, s, changes);
  return { checked, changes, trusted: !shared.closed };
}
