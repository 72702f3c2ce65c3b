// The runtime shim's contract. Everything outside src/runtime/ receives a Runtime and never touches
// `process`, `Deno`, runtime-specific `node:` modules or /proc itself (a test enforces this).
import type { Readable, Writable } from 'node:stream';

export type RuntimeName = 'node' | 'deno';

export interface FileStat {
  size: number;
  mode: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  /** Device and inode: a file's identity under any name (hard links, bind mounts share it). */
  dev: number;
  ino: number;
  /** Names the inode has; more than one means hard links. */
  nlink: number;
  /** When the inode last changed (a write, a chmod, a utimes, a new hard link): no caller can set it back. */
  ctimeMs: number;
}

/**
 * A buffer one reader reuses from file to file (a scan reads thousands of files and keeps none of
 * them): a new array per file costs its pages' first touch each time — 2–6× the read itself here
 * for files above glibc's mmap threshold.
 */
export interface ReadBuffer {
  bytes: Uint8Array;
}

/** A file opened without following a final symlink: its bytes, fstat of the descriptor, and where it really was. */
export interface OpenedFile {
  bytes: Uint8Array;
  stat: FileStat;
  /** The descriptor's path as the kernel names it (/proc/self/fd); undefined where that cannot be read. */
  location?: string;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** File system access: synchronous where the caller sits on a hot path or in a VFS, async elsewhere. */
export interface RuntimeFs {
  readTextFile(path: string): Promise<string>;
  readTextFileSync(path: string): string;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * A regular file's bytes in one synchronous step (open without following a final symlink, fstat,
   * read): undefined when it is missing, unreadable, a symlink or not a regular file, or larger than
   * `maxBytes`. For scans over many small files, where the async round trips cost more than the reads.
   */
  readRegularFileSync(path: string, maxBytes: number): Uint8Array | undefined;
  /**
   * Opens a file without following a final symlink, fstats the descriptor and reads it: the bytes are
   * those of the file the stat describes, whatever happens to the path meanwhile. Throws (code ELOOP
   * for a symlink, ENOENT, EISDIR…) when it cannot; `maxBytes`: larger files throw EFBIG unread.
   */
  readOpened(path: string, maxBytes?: number): Promise<OpenedFile>;
  /**
   * readOpened in one synchronous step; undefined (nothing thrown) when the file cannot be read as a
   * regular file within maxBytes. `into`: the bytes are read into that buffer (grown when too small)
   * and returned as a view of it, valid until the next read into it.
   */
  readOpenedSync(path: string, maxBytes: number, options?: { location?: boolean; into?: ReadBuffer }): OpenedFile | undefined;
  /** Writes through a temporary file and a rename, so a crash never leaves a half-written file. */
  writeFileAtomicSync(path: string, data: string | Uint8Array, mode?: number): void;
  /** Opens (creating with `mode`) a file for appending; returns a small append handle. */
  openAppendSync(path: string, mode?: number): AppendHandle;
  mkdirSync(path: string, options?: { recursive?: boolean; mode?: number }): void;
  chmodSync(path: string, mode: number): void;
  renameSync(from: string, to: string): void;
  removeSync(path: string, options?: { recursive?: boolean }): void;
  /** `undefined` when the path does not exist. */
  statSync(path: string): FileStat | undefined;
  lstatSync(path: string): FileStat | undefined;
  stat(path: string): Promise<FileStat | undefined>;
  lstat(path: string): Promise<FileStat | undefined>;
  realpathSync(path: string): string;
  realpath(path: string): Promise<string>;
  readlinkSync(path: string): string;
  readDir(path: string): Promise<DirEntry[]>;
  readDirSync(path: string): DirEntry[];
  /** A new private (0700) folder under the system's temp folder. */
  makeTempDirSync(prefix: string): string;
  writeFileSync(path: string, data: string | Uint8Array, mode?: number): void;
  files: SyncFiles;
}

/** Positional, synchronous file access for the SQLite VFS (it is called from inside WASM). */
export interface SyncFiles {
  /** flags as in fopen-style node flags: 'r', 'r+', 'w+', 'wx'… */
  open(path: string, flags: string, mode?: number): number;
  /**
   * Opens a file for reading without following a final symlink (ELOOP for one), with fstat of the
   * descriptor and, where the kernel tells (/proc/self/fd), where it really is: what a reader compares
   * with the file it judged before opening it.
   */
  openRead(path: string): { fd: number; stat: FileStat; location?: string };
  read(fd: number, into: Uint8Array, position: number): number;
  write(fd: number, from: Uint8Array, position: number): number;
  sync(fd: number): void;
  truncate(fd: number, size: number): void;
  size(fd: number): number;
  close(fd: number): void;
  unlink(path: string): void;
  exists(path: string): boolean;
  /** Creates a symbolic link atomically (EEXIST when the path exists): a lock file with its owner in one step. */
  symlink(target: string, path: string): void;
  /** fsync a folder so a created or deleted entry survives a crash. */
  syncDir(path: string): void;
}

export interface AppendHandle {
  append(text: string): void;
  size(): number;
  close(): void;
}

export interface HttpListener {
  /** The address actually bound (the port is real even when 0 was asked for). */
  hostname: string;
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  hostname: string;
  port: number;
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export type ShutdownSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface Runtime {
  name: RuntimeName;
  /** Version of the JavaScript runtime itself (e.g. "20.20.2" or "2.9.6"). */
  version: string;
  platform: string;
  pid: number;
  /** The executable running ctxgate (node or deno): child scripts run on the same runtime. */
  execPath: string;
  /** Absolute file URL or path of an installed module (e.g. 'tsx/esm'), or undefined. */
  resolveModule(specifier: string): string | undefined;
  /** The script this process started from (the bundle, or src/main.ts on Deno), symlinks resolved; '' when unknown. */
  mainScript: string;
  /**
   * Keeps the code this process compiles in the folder `dir()` names (made private by it) for the next
   * process to reuse (Node's module.enableCompileCache); a no-op where the runtime caches compiled
   * modules itself (Deno). A folder that cannot be made or written means no cache, not an error.
   */
  cacheCompiledCode(dir: () => string): void;
  /**
   * Bulk work begins (a big index build): from now on this process's heaps, the workers' included,
   * grow by less past what a collection kept (less memory for a little more collecting), and their
   * young generations, kept small until then, may grow (a main thread that allocates fast for
   * minutes spends less time collecting). Optional: a runtime without such settings (Deno) keeps
   * its own choice.
   */
  beginBulkWork?(): void;
  /** Command-line arguments after the script name. */
  args: readonly string[];
  cwd(): string;
  homeDir(): string;
  env: {
    get(name: string): string | undefined;
    toObject(): Record<string, string>;
  };
  fs: RuntimeFs;
  /** The process's standard streams, as the MCP SDK's stdio transport wants them. */
  stdio(): { stdin: Readable; stdout: Writable };
  /**
   * Writes to stdout; settles once written. When the reader has gone (`ctxgate call … | head`
   * closed the pipe) it resolves without writing and without a stack trace.
   */
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): void;
  onSignal(signal: ShutdownSignal, handler: () => void): () => void;
  onStdinEnd(handler: () => void): void;
  listen(fetch: FetchHandler, options: ListenOptions): Promise<HttpListener>;
  /** Absolute path of an executable found on PATH, or undefined. */
  which(command: string): string | undefined;
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildHandle;
  /** Every address a host name resolves to. */
  resolveHost(hostname: string): Promise<ResolvedAddress[]>;
  /** A GET to `url`, connected to `address` (already checked by the caller). */
  httpRequest(options: HttpRequestOptions): Promise<HttpResponseStream>;
  /**
   * A process's start time as the kernel reports it (/proc/<pid>/stat field 22), to tell a live
   * process from a reused pid; undefined when the process is gone (a zombie counts as gone) or this
   * cannot be read.
   */
  processStartTime(pid: number): string | undefined;
  /** Whether a process with this pid exists (signal 0); for systems without /proc. */
  processExists(pid: number): boolean;
  /**
   * Every live process that can be seen (Linux /proc; empty elsewhere), zombies left out; with a
   * marker, each says whether its environment (as at exec) holds it. The calling process is left out.
   */
  listProcesses(marker?: EnvMarker): ProcessInfo[];
  /** Now, in the units of processStartTime (clock ticks since boot); undefined without /proc. */
  ticksSinceBoot(): number | undefined;
  /**
   * This boot of this machine (host name, Linux boot id): pids and start times mean something only
   * within one; undefined without /proc.
   */
  bootIdentity(): { host: string; boot: string } | undefined;
  /** Signals one process (never a group, never pid 0 or 1); false when it is gone or not ours. */
  signalProcess(pid: number, signal: 'SIGTERM' | 'SIGKILL'): boolean;
  /** Blocks the thread (no event loop turn): for SQLite's xSleep, which must be synchronous. */
  sleepSync(ms: number): void;
  /** Logical processors this process may use (at least 1). */
  cpuCount(): number;
  /**
   * Starts a module worker thread running `url` (a .ts source on Deno or under tsx, an .mjs beside the
   * bundle); throws when this runtime cannot start workers. Failing to load shows up as onError.
   */
  startWorker(url: URL, options?: StartWorkerOptions): WorkerHandle;
  /** Inside a worker: its link to the thread that started it; undefined on the main thread. */
  parentPort(): ParentPort | undefined;
  /**
   * Watches a folder tree for changes: `onChange` gets the changed paths (relative to `root`,
   * `/`-separated; a new folder comes with what it already holds), undebounced. Resolves once
   * watching has started; rejects when it cannot (no support, inotify limits reached) — the caller
   * then falls back to its own checks.
   */
  watch(root: string, onChange: (paths: string[]) => void, options?: WatchOptions): Promise<TreeWatcher>;
  /** Hex SHA-256 of a string (used for stable per-project folder names). */
  sha256Hex(text: string): string;
  exit(code: number): never;
}

export interface WatchOptions {
  /** Folders (relative to the root) whose changes nobody wants: not watched where that can be avoided, never reported. */
  skip?: (relDir: string) => boolean;
  /** The watch failed after it started (a limit reached while following new folders); it has stopped. */
  onError?: (error: Error) => void;
  /** Awaited every few folders while the watch is being set up (a walk of the tree): lets more urgent work go first. */
  pause?: () => Promise<void>;
}

export interface TreeWatcher {
  close(): void;
  /**
   * Settles once the events the system had queued when it was called are reported (after a turn of
   * the event loop, and the work they started: a changed path's stat, a new folder's listing).
   */
  settled(): Promise<void>;
}

/** An environment entry `name=value` (exact), or `name=value…` when `prefix` is set. */
export interface EnvMarker {
  name: string;
  value: string;
  prefix?: boolean;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** As processStartTime reports it. */
  startTime: string;
  /** The environment holds the marker asked about. */
  marked: boolean;
  /** The marker variable's value in the environment (its first entry), when it has one. */
  markerValue?: string;
  /**
   * A marker was asked about but the environment read empty: a process in the middle of an exec has
   * none for a moment (so `marked` is unsure), as does one started with an empty environment.
   */
  envEmpty?: boolean;
}

export interface SpawnOptions {
  cwd: string;
  /** The child's whole environment (nothing is inherited implicitly). */
  env: Record<string, string>;
  stdin?: Uint8Array;
}

export interface ChildExit {
  code: number | null;
  signal: string | null;
  /** errno code when the process could not be started (e.g. ENOENT: command not found). */
  spawnError?: string;
}

/** A child process that leads its own process group, so the whole group can be signalled. */
export interface ChildHandle {
  pid: number | undefined;
  onStdout(listener: (chunk: Uint8Array) => void): void;
  onStderr(listener: (chunk: Uint8Array) => void): void;
  /** Settles when the leader exits (or could not start). */
  exited: Promise<ChildExit>;
  /** Settles when the output pipes are closed (all output read). */
  closed: Promise<void>;
  /** Signals every process in the child's group; false when the group is already gone. */
  killGroup(signal: 'SIGTERM' | 'SIGKILL'): boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface HttpRequestOptions {
  url: URL;
  /** The already-checked address to connect to. */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface HttpResponseStream {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  cancel(): void;
}

/** A module worker thread seen from the thread that started it. */
export interface StartWorkerOptions {
  /**
   * The worker's JS heap (V8's old generation) is kept under this many MB: it collects its garbage
   * instead of growing, and a job that needs more ends the worker (reported as onError). Node only:
   * Deno's web workers take no such limit.
   */
  maxHeapMb?: number;
  /**
   * The semi-spaces of its young generation (V8's nursery) start this many MB each while the runtime
   * keeps other threads' small (before bulk work: beginBulkWork). Node only, as maxHeapMb.
   */
  semiSpaceMb?: number;
}

export interface WorkerHandle {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onMessage(listener: (message: unknown) => void): void;
  /** An error the worker did not handle (it has stopped), or its module failed to load. */
  onError(listener: (error: Error) => void): void;
  /** The worker has stopped, for whatever reason (terminated, crashed, finished). */
  onExit(listener: () => void): void;
  /** Whether the worker alone should keep the process alive (Node's ref/unref; Deno: no effect). */
  setBusy(busy: boolean): void;
  /** Stops the worker; settles once it has. */
  terminate(): Promise<void>;
}

/** A worker's side of the link to the thread that started it. */
export interface ParentPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onMessage(listener: (message: unknown) => void): void;
}
