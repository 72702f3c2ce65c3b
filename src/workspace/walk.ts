// Walks a folder inside a workdir the way a developer expects: .gitignore rules (nested files, the
// deepest opinion wins, via the `ignore` package), skipped folder names, hidden entries optional,
// symlinks reported but never followed (no loops, no escapes). Entries come sorted by name.
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { RuntimeFs } from '../runtime/types.ts';

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Relative to the walk's base, `/`-separated. */
  rel: string;
  /** Relative to the workdir root, `/`-separated. */
  relRoot: string;
  name: string;
  type: EntryType;
  /** 1 for the base folder's own entries. */
  depth: number;
  /** Set (only with `keepIgnoredFiles`) on files a .gitignore excludes. */
  ignored?: boolean;
}

export interface WalkOptions {
  /** The workdir (real path); .gitignore files from here down to `base` apply. */
  root: string;
  /** Folder to walk (real path, inside root). */
  base: string;
  includeHidden: boolean;
  respectGitignore: boolean;
  /** Folder names never descended into (their entry is still yielded unless hidden/ignored). */
  listOnlyDirs: ReadonlySet<string>;
  /** Folder names neither yielded nor descended into. */
  excludeDirs?: ReadonlySet<string>;
  maxDepth?: number;
  /** Yield gitignored files marked `ignored` instead of dropping them (ignored folders stay unentered). */
  keepIgnoredFiles?: boolean;
  /**
   * Entries in the order of their paths (`relRoot` compared as strings) instead of by name: a folder
   * sorts as its name followed by `/`, so `a/x` comes before `a-b`, as a sort of the whole list would
   * put them. A search streams its files in the order its answer lists them.
   */
  pathOrder?: boolean;
  signal?: AbortSignal;
}

interface IgnoreLayer {
  /** Folder (relative to root) the .gitignore lives in; '' for the root. */
  dir: string;
  rules: Ignore;
}

/**
 * Parsed .gitignore files by path, kept while their size and mtime stay the same: parsing is the
 * costly part, and each parsed set remembers the verdicts it gave (a search over an index's
 * candidates judges thousands of paths against the same few files, query after query).
 */
const parsed = new Map<string, { size: number; mtimeMs: number; rules: Ignore }>();
const PARSED_LIMIT = 4096;

function loadGitignore(fs: RuntimeFs, root: string, dirRel: string): IgnoreLayer | undefined {
  const file = path.join(root, dirRel, '.gitignore');
  // Most folders have none: a stat that finds nothing is cheaper than a read that throws.
  const st = fs.statSync(file);
  if (!st?.isFile) return undefined;
  const known = parsed.get(file);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return { dir: dirRel, rules: known.rules };
  let text: string;
  try {
    text = fs.readTextFileSync(file);
  } catch {
    return undefined;
  }
  const rules = ignore().add(text);
  if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value!);
  parsed.set(file, { size: st.size, mtimeMs: st.mtimeMs, rules });
  return { dir: dirRel, rules };
}

/** True when the deepest .gitignore with an opinion on this path says "ignored". */
export function isIgnored(layers: readonly IgnoreLayer[], relRoot: string, isDir: boolean): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    const local = layer.dir ? relRoot.slice(layer.dir.length + 1) : relRoot;
    const verdict = layer.rules.test(isDir ? `${local}/` : local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

function typeOf(e: { isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }): EntryType {
  if (e.isSymbolicLink) return 'symlink';
  if (e.isDirectory) return 'dir';
  if (e.isFile) return 'file';
  return 'other';
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The .gitignore layers from the root down to (and including) `dirRel`. */
function initialLayers(fs: RuntimeFs, root: string, baseRel: string): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  const parts = baseRel ? baseRel.split('/') : [];
  for (let i = 0; i <= parts.length; i++) {
    const layer = loadGitignore(fs, root, parts.slice(0, i).join('/'));
    if (layer) layers.push(layer);
  }
  return layers;
}

/**
 * The walk's verdicts for paths named one by one (a file list from an index instead of a walk):
 * whether `walk` with these options would yield this file, and whether it would mark it `ignored`.
 * Folders' .gitignore files and types are read once each.
 */
export interface PathJudge {
  /** undefined: the walk would never reach this file; else whether a .gitignore excludes it. */
  judge(relRoot: string, isDir?: boolean): { ignored: boolean } | undefined;
  /**
   * The same verdict for a file that a listing of the root by the same .gitignore files, unchanged
   * since, holds (the code index's catalogue): no .gitignore is read or tested, only the judge's own
   * options (base, hidden names, excluded folders, symlinked folders).
   */
  listed(relRoot: string): { ignored: false } | undefined;
}

export function createPathJudge(fs: RuntimeFs, options: Omit<WalkOptions, 'listOnlyDirs' | 'maxDepth' | 'signal' | 'keepIgnoredFiles'> & { statFolders?: boolean }): PathJudge {
  const baseRel = toPosix(path.relative(options.root, options.base));
  const rootLayers = options.respectGitignore ? initialLayers(fs, options.root, baseRel) : [];
  // Per folder below the base: undefined when the walk would not enter it, else its layers.
  const folders = new Map<string, IgnoreLayer[] | undefined>();
  folders.set(baseRel, rootLayers);

  /** Whether a folder's name lets the walk enter it (hidden names, excluded folders). */
  function enterableName(name: string): boolean {
    return (options.includeHidden || !name.startsWith('.')) && !options.excludeDirs?.has(name);
  }

  /** Whether a folder is a real one: a symlink to a folder is reported by the walk, never entered (statFolders false: not looked at). */
  function realFolder(relRoot: string): boolean {
    if (options.statFolders === false) return true;
    const st = fs.lstatSync(path.join(options.root, relRoot));
    return st?.isDirectory === true && !st.isSymbolicLink;
  }

  /** The folder a file is in (relative to the root); undefined when the walk never yields it by its own name (outside the base, hidden). */
  function folderOf(relRoot: string): string | undefined {
    if (baseRel && !relRoot.startsWith(`${baseRel}/`)) return undefined;
    const cut = relRoot.lastIndexOf('/');
    const name = relRoot.slice(cut + 1);
    if (!name || (!options.includeHidden && name.startsWith('.'))) return undefined;
    return cut < 0 ? '' : relRoot.slice(0, cut);
  }

  function folder(relRoot: string): IgnoreLayer[] | undefined {
    if (folders.has(relRoot)) return folders.get(relRoot);
    const cut = relRoot.lastIndexOf('/');
    const parentRel = cut < 0 ? '' : relRoot.slice(0, cut);
    let layers: IgnoreLayer[] | undefined;
    const parent = relRoot === '' || (baseRel && !`${relRoot}/`.startsWith(`${baseRel}/`)) ? undefined : folder(parentRel);
    if (parent && enterableName(relRoot.slice(cut + 1)) && realFolder(relRoot) && !(parent.length > 0 && isIgnored(parent, relRoot, true))) {
      const own = options.respectGitignore ? loadGitignore(fs, options.root, relRoot) : undefined;
      layers = own ? [...parent, own] : parent;
    }
    folders.set(relRoot, layers);
    return layers;
  }

  // Folders a listed file is in: under the base, none hidden or excluded, and (looked at) no symlink.
  const listedFolders = new Map<string, boolean>();
  function listedFolder(relRoot: string): boolean {
    if (relRoot === baseRel) return true;
    let ok = listedFolders.get(relRoot);
    if (ok !== undefined) return ok;
    const cut = relRoot.lastIndexOf('/');
    ok = relRoot !== '' && enterableName(relRoot.slice(cut + 1)) && listedFolder(cut < 0 ? '' : relRoot.slice(0, cut)) && realFolder(relRoot);
    listedFolders.set(relRoot, ok);
    return ok;
  }

  return {
    listed(relRoot) {
      const dir = folderOf(relRoot);
      return dir !== undefined && listedFolder(dir) ? { ignored: false } : undefined;
    },
    judge(relRoot, isDir = false) {
      const dir = folderOf(relRoot);
      const layers = dir === undefined ? undefined : folder(dir);
      if (!layers) return undefined;
      return { ignored: layers.length > 0 && isIgnored(layers, relRoot, isDir) };
    },
  };
}

export async function* walk(fs: RuntimeFs, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const baseRel = toPosix(path.relative(options.root, options.base));
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const rootLayers = options.respectGitignore ? initialLayers(fs, options.root, baseRel) : [];

  async function* visit(dir: string, depth: number, layers: IgnoreLayer[]): AsyncGenerator<WalkEntry> {
    if (options.signal?.aborted) return;
    let entries: Awaited<ReturnType<RuntimeFs['readDir']>>;
    try {
      entries = await fs.readDir(dir);
    } catch {
      return; // unreadable folder: skip it, as rg and git do
    }
    if (options.pathOrder) {
      const key = (e: (typeof entries)[number]) => (e.isDirectory && !e.isSymbolicLink ? `${e.name}/` : e.name);
      entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    } else {
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    for (const entry of entries) {
      if (!options.includeHidden && entry.name.startsWith('.')) continue;
      const type = typeOf(entry);
      if (type === 'dir' && options.excludeDirs?.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      const relRoot = toPosix(path.relative(options.root, abs));
      const ignored = layers.length > 0 && isIgnored(layers, relRoot, type === 'dir');
      if (ignored && (type === 'dir' || !options.keepIgnoredFiles)) continue;
      const rel = toPosix(path.relative(options.base, abs));
      yield ignored ? { path: abs, rel, relRoot, name: entry.name, type, depth, ignored } : { path: abs, rel, relRoot, name: entry.name, type, depth };
      if (type === 'dir' && depth < maxDepth && !options.listOnlyDirs.has(entry.name)) {
        const own = options.respectGitignore ? loadGitignore(fs, options.root, relRoot) : undefined;
        yield* visit(abs, depth + 1, own ? [...layers, own] : layers);
      }
    }
  }

  yield* visit(options.base, 1, rootLayers);
}
