// A search over named files (the candidates a text index gave) instead of a walk: each file is
// admitted only when the walk would have searched it (the admission's `named`: under the target, not
// hidden, not in an excluded folder, not gitignored unless the glob asks for it, not secret), and is
// a regular file reached through no symlink, not too big — so a search over the list answers exactly
// as the full scan.
import * as path from 'node:path';
import type { RuntimeFs } from '../../runtime/types.ts';
import type { Admission } from './admission.ts';
import { MAX_SEARCH_FILE_BYTES } from './types.ts';

export interface ListedFile {
  abs: string;
  /** Relative to the workdir, `/`-separated. */
  relRoot: string;
  /** Unknown when the list was admitted without a stat (the reader checks as it reads). */
  size?: number;
}

/**
 * The files of `files` (relative to the target's workdir) that a full search of the admission's
 * target (a folder) would search, sorted by path. With `stat` (the default) each file is looked at
 * too: symlinks, files that are not regular, too big or gone (deleted since indexing) are left out;
 * without it the reader must skip those itself (readRegularFileSync does). `statFolders: false` does
 * not look at the folders either (whether one is a symlink, which the walk never enters): a first
 * cut, for lists whose files are admitted again before they are read. `catalogued`: the files a
 * listing by the same .gitignore files holds (Admission.named).
 */
export function admitFiles(fs: RuntimeFs, admission: Admission, files: Iterable<string>, options: AdmitOptions & { stat?: boolean } = {}): ListedFile[] {
  const workdir = admission.target.workdir;
  const out: ListedFile[] = [];
  for (const relRoot of admittedPaths(admission, files, options)) {
    const abs = path.join(workdir, relRoot);
    if (options.stat === false) {
      out.push({ abs, relRoot });
      continue;
    }
    const st = fs.lstatSync(abs);
    if (!st?.isFile || st.isSymbolicLink || st.size > MAX_SEARCH_FILE_BYTES) continue;
    out.push({ abs, relRoot, size: st.size });
  }
  return out;
}

export interface AdmitOptions {
  statFolders?: boolean;
  catalogued?: (relRoot: string) => boolean;
}

/** admitFiles' paths without a stat (the reader checks each as it reads), sorted, each once. */
export function admittedPaths(admission: Admission, files: Iterable<string>, options: AdmitOptions = {}): string[] {
  const out: string[] = [];
  // A list already in order, each once (an index's candidates), needs neither the set nor the sort:
  // both cost a new server's first refusal several ms over 5,000 candidates.
  let seen: Set<string> | undefined;
  let last: string | undefined;
  for (const relRoot of files) {
    if (!seen && last !== undefined && !(last < relRoot)) seen = new Set(out);
    if (seen) {
      if (seen.has(relRoot)) continue;
      seen.add(relRoot);
    }
    last = relRoot;
    if (admission.named(relRoot, { statFolders: options.statFolders, catalogued: options.catalogued?.(relRoot) })) out.push(relRoot);
  }
  return seen ? out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : out;
}

/** The regular files (not symlinks, not past the size limit) among `files` (relative to `workdir`), with their sizes. */
export function regularFiles(fs: RuntimeFs, workdir: string, files: readonly string[]): ListedFile[] {
  const out: ListedFile[] = [];
  for (const relRoot of files) {
    const abs = path.join(workdir, relRoot);
    const st = fs.lstatSync(abs);
    if (st?.isFile && !st.isSymbolicLink && st.size <= MAX_SEARCH_FILE_BYTES) out.push({ abs, relRoot, size: st.size });
  }
  return out;
}
