// The entries of a tree whose status changed since a moment, listed by find(1) from their ctime. An
// edit, a replace by rename, a new hard link, a chmod and a utimes that sets the mtime back all set a
// file's ctime to now, and nothing sets it back; adding, removing or renaming an entry does the same
// to its folder. So everything changed since a moment is among what this lists — a superset: find
// counts in whole minutes. On the Linux tree (~83k entries) the stats cost find ~0.2 s of CPU in a
// process of its own, on the other core, while this thread opens the index; the same stats here
// come with a read of the whole catalogue to compare them with.
import { childEnv } from '../exec/env.ts';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';

/**
 * Catalogues of fewer files are stat'ed file by file: that takes a few milliseconds, less than
 * starting find (tens of milliseconds, hundreds on a loaded machine).
 */
export const LIST_FROM_FILES = 5000;

const FIND_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Characters find's -name reads as a pattern: a folder name holding one is not pruned (it could match others). */
const PATTERN_CHARS = /[*?[\\]/;

export interface ChangedSinceOptions {
  runtime: Runtime;
  exec: Executor;
  root: string;
  /** Folder names never entered (exact names; hidden folders are never entered either). */
  skipDirs: readonly string[];
}

/**
 * Lists the paths (relative to the root, `/`-separated; '' for the root itself) of files, folders and
 * links whose ctime may be `sinceMs` (ms since the epoch) or later. Undefined when find is missing,
 * failed (an unreadable folder hides what it holds), or its list did not fit: then nothing is known.
 */
export type ChangedSince = (sinceMs: number, signal?: AbortSignal) => Promise<string[] | undefined>;

/** Start points past which the tree is not split further (find's argument list stays short). */
const MAX_STARTS = 4000;

/**
 * The tree cut into `parts` lists of find start points of about equal weight: the root and its
 * entries in a first list (depth 1 only), each folder's entries one level down dealt round-robin to
 * the others — on the Linux tree, `drivers/` alone is 40% of the files, its entries hundreds.
 */
function startPoints(options: ChangedSinceOptions, skipped: (name: string) => boolean, parts: number): string[][] | undefined {
  let top: ReturnType<Runtime['fs']['readDirSync']>;
  try {
    top = options.runtime.fs.readDirSync(options.root);
  } catch {
    return undefined;
  }
  const starts: string[] = [];
  for (const e of top) {
    if (!e.isDirectory || e.isSymbolicLink || skipped(e.name)) continue;
    try {
      for (const c of options.runtime.fs.readDirSync(`${options.root}/${e.name}`)) starts.push(`./${e.name}/${c.name}`);
    } catch {
      return undefined;
    }
    if (starts.length > MAX_STARTS) return undefined;
  }
  const lists: string[][] = Array.from({ length: parts }, () => []);
  starts.sort();
  for (let i = 0; i < starts.length; i++) lists[i % parts]!.push(starts[i]!);
  return lists.filter((l) => l.length);
}

export function createChangedSince(options: ChangedSinceOptions): ChangedSince {
  const names = options.skipDirs.filter((n) => n && !PATTERN_CHARS.test(n));
  const skipped = (name: string) => name.startsWith('.') || names.includes(name);
  const pruned = ['(', '-type', 'd', '(', '-name', '.?*', ...names.flatMap((n) => ['-o', '-name', n]), ')', ')', '-prune', '-o'];
  return async (sinceMs, signal) => {
    const find = options.runtime.which('find');
    if (!find) return undefined;
    // -cmin -N: changed less than N minutes ago (GNU exactly, BSD rounded up); one minute more for that.
    const newer = ['-cmin', `-${Math.max(1, Math.ceil((Date.now() - sinceMs) / 60_000) + 1)}`, '-print0'];
    const run = (args: string[]) =>
      options.exec
        .run({ command: find, args, cwd: options.root, env: childEnv(options.runtime, { LC_ALL: 'C' }), timeoutMs: FIND_TIMEOUT_MS, signal, maxOutputBytes: MAX_OUTPUT_BYTES, leavesNothing: true })
        .catch(() => undefined);
    // The stats are the work (the kernel's): one find per core, each on its share of the tree.
    const parts = startPoints(options, skipped, Math.max(1, options.runtime.cpuCount()));
    const runs = parts ? [run(['.', '-maxdepth', '1', ...pruned, ...newer]), ...parts.map((starts) => run([...starts, ...pruned, ...newer]))] : [run(['.', ...pruned, ...newer])];
    const out: string[] = [];
    for (const r of await Promise.all(runs)) {
      if (r?.exitCode !== 0 || r.truncated || r.timedOut || r.cancelled) return undefined;
      for (const entry of r.stdout.split('\0')) {
        if (entry === '.') out.push('');
        else if (entry.startsWith('./')) out.push(entry.slice(2));
      }
    }
    return out;
  };
}
