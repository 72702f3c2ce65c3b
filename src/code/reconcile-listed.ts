// The warm start's sweep from a list of what changed instead of a stat of every catalogued file. The
// list (workspace/changed-since.ts) holds every entry whose ctime is later than the moment the
// catalogue was last confirmed whole; nothing changes a file or a folder's entries without setting
// that. What it cannot show is a folder moved in from elsewhere with its contents as they were
// (only the moved folder's own ctime is new): so every folder in the list is compared entry by entry
// with what the catalogue holds there, and each of its catalogued subfolders that the list does not
// name must still hold a catalogued file of the same identity (inode, size, times) — proof that it
// is the folder the catalogue knew; any other is looked at whole.
import * as path from 'node:path';
import type { FileStat, RuntimeFs } from '../runtime/types.ts';
import { mayDiffer, sameStat } from '../textindex/file-identity.ts';
import { createCatalogueFolderJudge, createCatalogueJudge, walked } from './catalogue.ts';
import { type IndexShared, isGitignore } from './index-shared.ts';
import type { CodeStore, FileRow } from './store.ts';

/** Files of a catalogued subfolder tried as proof of its identity (a listed file proves nothing: it is checked anyway). */
const PROBES_PER_FOLDER = 8;

export interface ListedChanges {
  /** Catalogued files changed, gone or replaced, and new files a listing would take. */
  changes: string[];
  /** Entries, probes and files looked at. */
  checked: number;
}

function differs(fs: RuntimeFs, abs: string, row: FileRow): boolean {
  const st = fs.lstatSync(abs);
  return !st?.isFile || st.isSymbolicLink || mayDiffer(row, st);
}

/** The same inode, unchanged since the row was taken (any change, link or rename sets the ctime). */
function sameIdentity(row: FileRow, st: FileStat | undefined): boolean {
  return st?.isFile === true && !st.isSymbolicLink && sameStat(row, st);
}

/**
 * The changes among `listed` (paths relative to the root, '' the root, as changed-since lists them):
 * each listed catalogued file compared with its row, each listed folder with its rows, and the
 * folders that cannot be vouched for looked at whole.
 */
export async function changesAmong(shared: IndexShared, s: CodeStore, listed: readonly string[]): Promise<ListedChanges> {
  const { fs } = shared;
  const root = shared.listing.root;
  const abs = (rel: string) => (rel ? path.join(root, rel) : root);
  const named = new Set(listed);
  const changes = new Set<string>();
  /** Folders whose every file is looked at: their rows stat'ed and their entries walked. */
  const whole = new Set<string>();
  let checked = 0;
  let takes: ((rel: string) => boolean) | undefined;
  const enters = createCatalogueFolderJudge(fs, shared.listing);
  const entered = new Map<string, boolean>();
  /** Whether a listing would enter this folder and every folder above it. */
  const entersAll = (rel: string): boolean => {
    if (rel === '') return true;
    let verdict = entered.get(rel);
    if (verdict === undefined) {
      const parent = path.posix.dirname(rel);
      verdict = entersAll(parent === '.' ? '' : parent) && enters(rel);
      entered.set(rel, verdict);
    }
    return verdict;
  };
  const holdsFiles = (dir: string) => dir === '' || s.firstPathFrom(`${dir}/`)?.startsWith(`${dir}/`) === true;

  /** Whether a catalogued subfolder still holds a file the catalogue knows as it was (the same folder). */
  const vouched = (dir: string): boolean => {
    let p = s.firstPathFrom(`${dir}/`);
    for (let tried = 0; p?.startsWith(`${dir}/`) && tried < PROBES_PER_FOLDER; p = s.pathAfter(p)) {
      if (named.has(p)) continue;
      tried++;
      checked++;
      const row = s.file(p);
      if (row && sameIdentity(row, fs.lstatSync(abs(p)))) return true;
    }
    return false;
  };

  /** A listed folder the catalogue holds files under: its entries against its rows. */
  const compareFolder = (dir: string) => {
    let entries: ReturnType<RuntimeFs['readDirSync']>;
    try {
      entries = fs.readDirSync(abs(dir));
    } catch {
      whole.add(dir);
      return;
    }
    const present = new Map(entries.map((e) => [e.name, e]));
    const prefix = dir ? `${dir}/` : '';
    const knownFiles = new Set<string>();
    // The folder's direct files and subfolders, by seeks on the path index (one step per entry).
    let p = s.firstPathFrom(prefix);
    while (p?.startsWith(prefix)) {
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf('/');
      const name = slash < 0 ? rest : rest.slice(0, slash);
      const rel = prefix + name;
      const e = present.get(name);
      checked++;
      if (slash < 0) {
        knownFiles.add(name);
        if (!e?.isFile || e.isSymbolicLink) changes.add(rel);
        p = s.pathAfter(p);
        continue;
      }
      if (!e?.isDirectory || e.isSymbolicLink) for (const row of s.filesUnder(rel)) changes.add(row.path);
      else if (!named.has(rel) && !vouched(rel)) whole.add(rel);
      // '0' is the character after '/': the first path past the subfolder.
      p = s.firstPathFrom(`${rel}0`);
    }
    // A new file a listing would take (a new folder is listed itself: mkdir and rename set its ctime).
    for (const e of entries) {
      if (!e.isFile || e.isSymbolicLink || knownFiles.has(e.name)) continue;
      takes ??= createCatalogueJudge(fs, shared.listing);
      if (takes(prefix + e.name)) changes.add(prefix + e.name);
    }
  };

  const folders: string[] = [];
  const files: string[] = [];
  for (const rel of listed) {
    const st = fs.lstatSync(abs(rel));
    checked++;
    if (st?.isDirectory && !st.isSymbolicLink) folders.push(rel);
    else files.push(rel);
  }
  s.db.readTransaction(() => {
    for (const rel of files) {
      const row = s.file(rel);
      // Not catalogued: a new file is found from its folder, listed too; a .gitignore edited in place relists.
      if (row ? differs(fs, abs(rel), row) : isGitignore(rel)) changes.add(rel);
    }
    for (const dir of folders) {
      if (!entersAll(dir)) continue;
      // A folder the catalogue holds nothing under (new, or moved in with what it holds): looked at whole.
      if (holdsFiles(dir)) compareFolder(dir);
      else whole.add(dir);
    }
  });

  // Each folder once: not again under a folder looked at whole.
  const under = (dir: string) => {
    for (let up = dir; up !== ''; ) {
      const parent = path.posix.dirname(up);
      up = parent === '.' ? '' : parent;
      if (whole.has(up)) return true;
    }
    return false;
  };
  for (const dir of [...whole].filter((d) => d !== '' && !under(d)).concat(whole.has('') ? [''] : [])) {
    if (shared.closed) break;
    const rows = s.db.readTransaction(() => s.filesUnder(dir));
    const known = new Set<string>();
    for (const row of rows) {
      known.add(row.path);
      checked++;
      if (differs(fs, abs(row.path), row)) changes.add(row.path);
    }
    if (!entersAll(dir)) continue;
    for await (const entry of walked(fs, shared.listing, abs(dir))) {
      checked++;
      if (!known.has(entry.path)) changes.add(entry.path);
    }
  }
  return { changes: [...changes], checked };
}
