// The file catalogue's listing: every file of the project the way the gate scans it (.gitignore
// rules, scan.excludeDirs, hidden entries and secret-like files skipped), with size and mtime. In a
// git repository `git ls-files` lists it far faster than a walk; the walk is the fallback (no git,
// not a repository, git failed) and covers what git lists as one entry (a submodule, a nested
// repository).
import * as path from 'node:path';
import type { Executor } from '../exec/executor.ts';
import type { FileStat, Runtime, RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import { isSecretPath } from '../security/secret-files.ts';
import { gitEnv } from '../vcs/git.ts';
import { SAFE_CONFIG } from '../vcs/git-guard.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { createPathJudge, walk } from '../workspace/walk.ts';
import { isDocumentation, type LanguageId, languageOf } from './languages.ts';

/** Files larger than this are catalogued but never parsed (generated code, data). */
export const MAX_PARSE_BYTES = 1_000_000;

/** The grammar a catalogued file is parsed with; undefined for documentation, files too big, and files no grammar reads. */
export function parseLanguageOf(entry: Pick<CatalogueEntry, 'path' | 'size'>): LanguageId | undefined {
  return isDocumentation(entry.path) || entry.size > MAX_PARSE_BYTES ? undefined : languageOf(entry.path);
}

export interface CatalogueEntry {
  /** Relative to the root, `/`-separated. */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface CatalogueOptions {
  root: string;
  excludeDirs: readonly string[];
  respectGitignore: boolean;
  signal?: AbortSignal;
  /** Runs git for the fast path; without it, the catalogue walks. */
  git?: { runtime: Runtime; exec: Executor };
}

const GIT_TIMEOUT_MS = 60_000;
const STATS_IN_FLIGHT = 64;

export async function* catalogue(fs: RuntimeFs, _workdirs: Workdirs, options: CatalogueOptions): AsyncGenerator<CatalogueEntry> {
  const listed = options.git && options.respectGitignore ? await gitListing(options.git, options.root, options.signal) : undefined;
  if (!listed) {
    yield* walked(fs, options, options.root);
    return;
  }
  const skip = new Set([...UNENTERED_DIRS, ...options.excludeDirs]);
  const kept = listed.filter((rel) => keeps(rel, skip));
  for (let i = 0; i < kept.length; i += STATS_IN_FLIGHT) {
    if (options.signal?.aborted) return;
    const chunk = kept.slice(i, i + STATS_IN_FLIGHT);
    const stats = await Promise.all(chunk.map((rel) => fs.lstat(path.join(options.root, rel))));
    for (let k = 0; k < chunk.length; k++) {
      const rel = chunk[k]!;
      const st = stats[k];
      if (st?.isFile) yield entryOf(rel, path.join(options.root, rel), st);
      // A submodule or a nested repository is one entry to git: walk it.
      else if (st?.isDirectory) yield* walked(fs, options, path.join(options.root, rel));
    }
  }
}

/** A catalogue entry for a file and its stat. */
export function entryOf(rel: string, abs: string, st: FileStat): CatalogueEntry {
  return { path: rel, abs, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
}

/** What the walk would keep: no hidden entry, no skipped folder on the way, not secret-like. */
function keeps(rel: string, skip: ReadonlySet<string>): boolean {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('.')) return false;
    if (i < parts.length - 1 && skip.has(part)) return false;
  }
  return !isSecretPath(rel);
}

/** How the catalogue walks `base`; a judge of single paths takes the same options. */
function walkOptions(options: Pick<CatalogueOptions, 'root' | 'excludeDirs' | 'respectGitignore'>, base: string) {
  const skip = new Set([...UNENTERED_DIRS, ...options.excludeDirs]);
  return { root: options.root, base, includeHidden: false, respectGitignore: options.respectGitignore, listOnlyDirs: skip, excludeDirs: skip };
}

/**
 * Whether a listing made now would take this file (a path relative to the root): the walk's verdict,
 * which the git listing shares (it reads the same .gitignore files and no others). A judge reads each
 * folder's .gitignore once, when first asked: make one per batch of paths, so that an edited
 * .gitignore or a new folder is seen by the next batch.
 */
export function createCatalogueJudge(fs: RuntimeFs, options: Pick<CatalogueOptions, 'root' | 'excludeDirs' | 'respectGitignore'>): (rel: string) => boolean {
  const { listOnlyDirs: _, ...judged } = walkOptions(options, options.root);
  const judge = createPathJudge(fs, judged);
  return function takes(rel) {
    if (isSecretPath(rel) || judge.judge(rel)?.ignored !== false) return false;
    // The walk and the git listing take regular files only, never a symlink.
    const st = fs.lstatSync(path.join(options.root, rel));
    return st?.isFile === true && !st.isSymbolicLink;
  };
}

/** Whether a listing made now would enter this folder (a path relative to the root); one judge per batch, as above. */
export function createCatalogueFolderJudge(fs: RuntimeFs, options: Pick<CatalogueOptions, 'root' | 'excludeDirs' | 'respectGitignore'>): (rel: string) => boolean {
  const { listOnlyDirs: skip, ...judged } = walkOptions(options, options.root);
  const judge = createPathJudge(fs, judged);
  return (rel) => !skip.has(rel.slice(rel.lastIndexOf('/') + 1)) && judge.judge(rel, true)?.ignored === false;
}

/** The catalogue's files under `base` (a folder of the root), as the walk lists them. */
export async function* walked(fs: RuntimeFs, options: CatalogueOptions, base: string): AsyncGenerator<CatalogueEntry> {
  let pending: string[] = [];
  // Stats go out a few dozen at a time: one by one, they dominate the walk of a big tree.
  const stated = async function* () {
    const files = pending;
    pending = [];
    const stats = await Promise.all(files.map((rel) => fs.stat(path.join(options.root, rel))));
    for (let k = 0; k < files.length; k++) {
      const st = stats[k];
      if (st?.isFile) yield entryOf(files[k]!, path.join(options.root, files[k]!), st);
    }
  };
  for await (const e of walk(fs, { ...walkOptions(options, base), signal: options.signal })) {
    if (e.type !== 'file' || isSecretPath(e.relRoot)) continue;
    pending.push(e.relRoot);
    if (pending.length >= STATS_IN_FLIGHT) yield* stated();
  }
  yield* stated();
}

/**
 * Tracked and untracked-but-not-ignored files (`git ls-files -co`), less tracked files the ignore
 * rules name (the walk and the scan skip those too). The rules are the .gitignore files only, as the
 * walk and the scan read them — not .git/info/exclude nor the user's global excludes (rg runs with
 * --no-ignore-exclude and --no-ignore-global): a file the scan finds is catalogued. Undefined when
 * git is missing, the root is not the top of a repository, or git fails. Untracked nested
 * repositories come as `dir/`.
 */
async function gitListing(git: NonNullable<CatalogueOptions['git']>, root: string, signal?: AbortSignal): Promise<string[] | undefined> {
  const gitPath = git.runtime.which('git');
  if (!gitPath) return undefined;
  const run = async (args: string[]) => {
    const r = await git.exec.run({
      command: gitPath,
      args: ['--no-pager', ...SAFE_CONFIG, ...args],
      cwd: root,
      env: gitEnv(git.runtime, root),
      timeoutMs: GIT_TIMEOUT_MS,
      signal,
      maxOutputBytes: 256 * 1024 * 1024,
    });
    return r.exitCode === 0 && !r.truncated && !r.timedOut ? r.stdout : undefined;
  };
  try {
    const top = await run(['rev-parse', '--show-toplevel']);
    if (top === undefined || path.resolve(top.trim()) !== git.runtime.fs.realpathSync(root)) return undefined;
    const all = await run(['ls-files', '-z', '--cached', '--others', '--exclude-per-directory=.gitignore']);
    const ignored = await run(['ls-files', '-z', '--cached', '--ignored', '--exclude-per-directory=.gitignore']);
    if (all === undefined || ignored === undefined) return undefined;
    const drop = new Set(ignored.split('\0'));
    const out = new Set<string>();
    for (const entry of all.split('\0')) {
      if (!entry || drop.has(entry)) continue;
      out.add(entry.endsWith('/') ? entry.slice(0, -1) : entry);
    }
    return [...out].sort();
  } catch {
    return undefined;
  }
}
