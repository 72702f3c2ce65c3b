// What the code index is made from (CodeIndexDeps) and what it answers (CodeIndex): index.ts makes it.
import type { Executor } from '../exec/executor.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime, RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import type { Database } from '../storage/database.ts';
import type { CatalogueSnapshot } from '../textindex/catalogue-snapshot.ts';
import type { TextIndexHandle } from '../textindex/reader.ts';
import type { ChangedSince } from '../workspace/changed-since.ts';
import type { Grammars } from './grammars.ts';
import type { IndexOnDisk } from './index-disk.ts';
import type { CodeIndexState } from './index-shared.ts';
import type { CheckedNote, EarlyList } from './index-warm.ts';
import type { ParsePool } from './parse-pool.ts';
import type { CodeStore } from './store.ts';

/** The files whose text names a word; `narrowed`: only those of them with a line that may declare it. */
export interface FilesNaming {
  files: readonly string[];
  narrowed: boolean;
}

export interface CodeIndexDeps {
  fs: RuntimeFs;
  grammars: Grammars;
  /** Where files are parsed (a pool of workers); without one, in this thread with `grammars`. The caller closes it. */
  parser?: ParsePool;
  logger: Logger;
  workdirs: Workdirs;
  /** The folder indexed (the project root); paths are relative to it. */
  root: string;
  scan: { excludeDirs: readonly string[]; respectGitignore: boolean };
  openDatabase(): Promise<Database>;
  /** Lists the catalogue with `git ls-files` in a repository (the walk otherwise). */
  git?: { runtime: Runtime; exec: Executor };
  /** Resolves once the tool calls being answered are done: the first pass waits for it. */
  whenQuiet?: () => Promise<void>;
  /**
   * The files whose text holds `word` as a whole word (paths relative to the root), found by a scan:
   * before the first build is done, the files an answer about a name rests on, parsed on demand.
   * `defining` with more of them than `parseable` (or over 2 MB of text): only those holding a line
   * that may declare it.
   */
  filesNaming?: (word: string, options?: { defining?: boolean; parseable?: number }) => Promise<FilesNaming>;
  /** What changed under the root since a moment (find): a warm start checks that instead of every file. */
  changedSince?: ChangedSince;
  /** From how many catalogued files on the warm start uses changedSince (default LIST_FROM_FILES; tests: 0). */
  listFromFiles?: number;
  /** Files a text segment of a pass holds at most (default: the text stage's 4,000; tests make it small). */
  textSegmentFiles?: number;
  /**
   * A note beside the database of the last whole check (when it began, how many files): a starting
   * server runs find from it at once, before the database is open (~0.3 s of WASM start-up and
   * reads on a loaded machine), and uses that list when the database's own record is not earlier.
   */
  checkedNote?: CheckedNote;
  /**
   * find's list of what changed since `since`, started before this index was made (when the process
   * started: app/early-check.ts); used as the note's list would be.
   */
  earlyList?: EarlyList;
  /** Whether the database exists already (a warm start never creates one). */
  databaseExists?: () => boolean;
  /**
   * Called when a pass begins with many new or changed files (a first build): the runtime may tune
   * its heaps for minutes of fast allocation from then on (runtime.beginBulkWork).
   */
  onBulkPass?: () => void;
  /** The text index's catalogue kept in a file beside the database for the next process (textindex/catalogue-snapshot.ts). */
  catalogueSnapshot?: CatalogueSnapshot;
}

export interface CodeIndexStatus {
  state: CodeIndexState;
  /** Files looked at / found in the running (or last) pass. */
  done: number;
  total: number;
  error?: string;
}

export interface CodeIndex {
  readonly root: string;
  status(): CodeIndexStatus;
  /** Starts a build or refresh when due; the store when the index can answer now. */
  ready(): Promise<CodeStore | undefined>;
  /** Re-parses any of these files (relative paths) touched since they were indexed; how many were. */
  fresh(paths: Iterable<string>): Promise<number>;
  /**
   * Before the index can answer (`ready()` undefined): the store with these files parsed in their
   * current version now, so that an answer resting on them is the one the built index gives.
   */
  onDemand(paths: Iterable<string>): Promise<CodeStore | undefined>;
  /** The files an answer about `name` rests on, for onDemand: undefined when they cannot be found or are too many to parse now. */
  filesNaming(name: string, options?: { defining?: boolean }): Promise<FilesNaming | undefined>;
  /**
   * A server starting with an index on disk: opens it and starts the warm start's sweep now, beside
   * the client's handshake, instead of at the first question. Nothing when there is no index yet;
   * whether there is one.
   */
  warm(): boolean;
  /** Settles when the warm start begun by warm() has checked the index and read its catalogue (at once without one). */
  warmed(): Promise<void>;
  /** A full refresh pass, awaited (tests, benchmarks, the first build). */
  refresh(): Promise<void>;
  /** What the index on disk holds (any process's build); undefined when its database cannot be opened. */
  onDisk(): Promise<IndexOnDisk | undefined>;
  /** How many files the catalogue's listing finds, counted no further than `limit` + 1 (the project's size at a glance). */
  filesUpTo(limit: number): Promise<number>;
  /** Stops a running pass at its next file and closes the database. */
  close(): Promise<void>;
  /** The trigram text index over the same catalogue, refreshed by the same pass. */
  readonly text: TextIndexHandle;
}
