// ctx_fs ls: a folder's entries to a depth, hidden ones optional, heavy folders listed but not entered.
import type { RuntimeFs } from '../runtime/types.ts';
import type { SafePath } from '../security/resolve-safe.ts';
import { type EntryType, walk } from './walk.ts';

export interface ListOptions {
  depth: number;
  includeHidden: boolean;
  limit: number;
  signal?: AbortSignal;
}

export interface ListedEntry {
  path: string;
  type: EntryType;
  size?: number;
}

export interface Listing {
  path: string;
  entries: ListedEntry[];
  truncated: boolean;
  /** Folders listed but not entered (e.g. node_modules) when depth > 1. */
  notEntered: string[];
}

/** Folders that ls, glob and ctx_kb index list but never enter: VCS internals and vendored code. */
export const UNENTERED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', 'vendor']);

export async function listDir(fs: RuntimeFs, target: SafePath, options: ListOptions): Promise<Listing> {
  const entries: ListedEntry[] = [];
  const notEntered: string[] = [];
  let truncated = false;
  for await (const e of walk(fs, {
    root: target.workdir,
    base: target.real,
    includeHidden: options.includeHidden,
    respectGitignore: false,
    listOnlyDirs: UNENTERED_DIRS,
    maxDepth: options.depth,
    signal: options.signal,
  })) {
    if (entries.length >= options.limit) {
      truncated = true;
      break;
    }
    const item: ListedEntry = { path: e.rel, type: e.type };
    if (e.type === 'file') item.size = (await fs.lstat(e.path))?.size ?? 0;
    if (e.type === 'dir' && options.depth > e.depth && UNENTERED_DIRS.has(e.name)) notEntered.push(e.rel);
    entries.push(item);
  }
  return { path: target.relative || '.', entries, truncated, notEntered };
}
