// Keeps whoever indexes the project told of every file that changes on disk: the runtime's tree
// watch, minus the folders nobody searches (scan.excludeDirs, .git) and our own data folder,
// debounced so a build or a checkout arrives as a few batches. When the watch cannot start (no
// support, inotify limits) the log says so and the caller relies on its own refresh.
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { Runtime, TreeWatcher } from '../runtime/types.ts';

export interface ProjectWatchDeps {
  runtime: Pick<Runtime, 'watch'>;
  /** The folder indexed (real path). */
  root: string;
  /** Folder names never watched nor reported (scan.excludeDirs); `.git` always. */
  excludeDirs: readonly string[];
  /** Absolute folders whose changes are not the project's (the data folder when it lies inside). */
  ignore?: readonly string[];
  logger: Pick<Logger, 'log'>;
  /** Quiet time before a batch goes out (default 150 ms); a batch waits at most 1 s. */
  debounceMs?: number;
  /** Awaited every few folders while the watch is set up (the calls being answered go first). */
  pause?: () => Promise<void>;
}

export interface ProjectWatch {
  /** False when the watch could not start or has stopped: changes are then not reported. */
  readonly watching: boolean;
  /**
   * Settles once every change the system had seen when it was called is reported (the batch waiting
   * for its quiet time sent at once): a query asked right after a write sees it.
   */
  settled(): Promise<void>;
  close(): void;
}

const MAX_WAIT_MS = 1000;

/** Starts watching; `onChange` gets batches of changed paths relative to the root (files, or a folder that went away). */
export async function watchProject(deps: ProjectWatchDeps, onChange: (paths: string[]) => void): Promise<ProjectWatch> {
  const names = new Set([...deps.excludeDirs, '.git']);
  const ignored = (deps.ignore ?? [])
    .map((dir) => path.relative(deps.root, dir).split(path.sep).join('/'))
    .filter((rel) => rel && !rel.startsWith('..') && !path.isAbsolute(rel));
  const skip = (relDir: string) => names.has(relDir.slice(relDir.lastIndexOf('/') + 1)) || ignored.some((i) => relDir === i || relDir.startsWith(`${i}/`));
  const debounceMs = deps.debounceMs ?? 150;
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstAt = 0;
  let watching = false;

  const flush = () => {
    timer = undefined;
    if (!pending.size) return;
    const batch = [...pending].sort();
    pending = new Set();
    deps.logger.log('file_watch_changes', { files: batch.length });
    onChange(batch);
  };
  /** Inside a skipped folder (events from there can still arrive: Deno watches the whole tree). */
  const inSkipped = (p: string) => {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) if (skip(parts.slice(0, i).join('/'))) return true;
    return false;
  };
  const changed = (paths: string[]) => {
    for (const p of paths) if (!inSkipped(p)) pending.add(p);
    if (!pending.size) return;
    const now = Date.now();
    if (timer === undefined) firstAt = now;
    else clearTimeout(timer);
    timer = setTimeout(flush, now - firstAt >= MAX_WAIT_MS ? 0 : debounceMs);
  };

  let watcher: TreeWatcher | undefined;
  try {
    watcher = await deps.runtime.watch(deps.root, changed, {
      skip,
      ...(deps.pause ? { pause: deps.pause } : {}),
      onError(error) {
        watching = false;
        deps.logger.log('file_watch_stopped', { root: deps.root, error: error.message, fallback: 'edits are seen after the index refresh' });
      },
    });
    watching = true;
    deps.logger.log('file_watch_started', { root: deps.root });
  } catch (error) {
    deps.logger.log('file_watch_unavailable', { root: deps.root, error: error instanceof Error ? error.message : String(error), fallback: 'edits are seen after the index refresh' });
  }
  return {
    get watching() {
      return watching;
    },
    async settled() {
      if (!watching || !watcher) return;
      await watcher.settled();
      if (timer !== undefined) {
        clearTimeout(timer);
        flush();
      }
    },
    close() {
      watching = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      watcher?.close();
    },
  };
}
