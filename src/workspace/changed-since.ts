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

export function createChangedSince(options: ChangedSinceOptions): ChangedSince {
  const names = options.skipDirs.filter((n) => n && !PATTERN_CHARS.test(n));
  const pruned = ['-name', '.?*', ...names.flatMap((n) => ['-o', '-name', n])];
  return async (sinceMs, signal) => {
    const find = options.runtime.which('find');
    if (!find) return undefined;
    // -cmin -N: changed less than N minutes ago (GNU exactly, BSD rounded up); one minute more for that.
    const minutes = Math.max(1, Math.ceil((Date.now() - sinceMs) / 60_000) + 1);
    const r = await options.exec
      .run({
        command: find,
        args: ['.', '(', '-type', 'd', '(', ...pruned, ')', ')', '-prune', '-o', '-cmin', `-${minutes}`, '-print0'],
        cwd: options.root,
        env: childEnv(options.runtime, { LC_ALL: 'C' }),
        timeoutMs: FIND_TIMEOUT_MS,
        signal,
        maxOutputBytes: MAX_OUTPUT_BYTES,
      })
      .catch(() => undefined);
    if (r?.exitCode !== 0 || r.truncated || r.timedOut || r.cancelled) return undefined;
    const out: string[] = [];
    for (const entry of r.stdout.split('\0')) {
      if (entry === '.') out.push('');
      else if (entry.startsWith('./')) out.push(entry.slice(2));
    }
    return out;
  };
}
