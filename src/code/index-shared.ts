// What the code index's pass and its freshness checks share with the index that runs them: the few
// things they use and the state they read and update, in one small object the index owns and hands
// to each step (never the index itself).
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import type { CatalogueOptions } from './catalogue.ts';
import type { ParsePool } from './parse-pool.ts';
import { createPathSet } from './resolve.ts';
import type { CodeStore } from './store.ts';
import { readTsPaths } from './tsconfig-paths.ts';

/** Bumped whenever extraction changes what it stores: every file is parsed again. */
export const PARSER_VERSION = 10;

export type CodeIndexState = 'idle' | 'building' | 'ready' | 'unavailable';

type PathSet = ReturnType<typeof createPathSet>;

export interface IndexShared {
  readonly fs: RuntimeFs;
  readonly logger: Logger;
  readonly workdirs: Workdirs;
  /** How the catalogue is listed (root, skipped folders, .gitignore, git). */
  readonly listing: CatalogueOptions;
  readonly parser: ParsePool;
  /** A pass with many new or changed files begins (CodeIndexDeps.onBulkPass). */
  readonly onBulkPass?: () => void;
  /** CodeIndexDeps.textSegmentFiles. */
  readonly textSegmentFiles?: number;
  /** Fresh runs per file: a second ask for the same file waits for the first (close() waits for all). */
  readonly inFlight: Map<string, Promise<boolean>>;
  /** Set by close(): a running pass or check stops at its next file. */
  closed: boolean;
  state: CodeIndexState;
  /** Files looked at / found in the running (or last) pass. */
  done: number;
  total: number;
  /** The paths imports resolve against, made on first need and kept in step with the catalogue. */
  paths: PathSet | undefined;
  textReady: boolean;
  textBuilding: boolean;
  /** Touched paths judged at `judgedAt` to be no file of the catalogue (the text reader stops naming them). */
  notCatalogued?: (paths: readonly string[], judgedAt: number) => void;
}

/** The paths imports resolve against: these files, the Go module, tsconfig's path mappings. */
export function pathSetOf(shared: IndexShared, files: Iterable<string>): PathSet {
  const root = shared.listing.root;
  let goModule: string | undefined;
  try {
    goModule = /^module\s+(\S+)/m.exec(shared.fs.readTextFileSync(path.join(root, 'go.mod')))?.[1];
  } catch {
    goModule = undefined;
  }
  return createPathSet(files, goModule, readTsPaths(shared.fs, root));
}

export function knownPaths(shared: IndexShared, s: CodeStore): PathSet {
  shared.paths ??= pathSetOf(shared, s.paths());
  return shared.paths;
}

/** Whether a path is a .gitignore (its rules decide which files the catalogue takes). */
export function isGitignore(rel: string): boolean {
  return rel === '.gitignore' || rel.endsWith('/.gitignore');
}

/** Lets pending I/O and tool calls run (setImmediate where the runtime has it: no 1 ms timer floor). */
export function yieldToLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}
