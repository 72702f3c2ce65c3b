// What the VFS's methods share: the WASM bindings, the runtime's file API, the table of open files
// (keyed by SQLite's sqlite3_file pointer) and the last error text for xGetLastError.
import type { Logger } from '../logging/logger.ts';
import type { Runtime, SyncFiles } from '../runtime/types.ts';
import type { DatabaseLock } from './database-lock.ts';

// The struct-binding API that installs a VFS is not in the package's type declarations.
// biome-ignore lint/suspicious/noExplicitAny: untyped part of the sqlite-wasm API
export type Loose = any;

export interface OpenFile {
  fd: number;
  path: string;
  deleteOnClose: boolean;
  /** Only the main database file carries the cross-process locks. */
  lock: DatabaseLock | undefined;
}

export interface VfsState {
  runtime: Runtime;
  files: SyncFiles;
  capi: Loose;
  wasm: Loose;
  open: Map<number, OpenFile>;
  lastError: string;
  /** Where each database's lock warnings go (by absolute path), when its opener gave a logger. */
  loggers: Map<string, Logger>;
}

export function errnoOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Remembers what went wrong (SQLite asks through xGetLastError) and answers with `code`. */
export function failWith(state: VfsState, code: number, error: unknown): number {
  state.lastError = String(error);
  return code;
}

/** ENOSPC and EDQUOT are SQLITE_FULL ("database or disk is full"), not an I/O error. */
export function writeFailure(state: VfsState, fallback: number, error: unknown): number {
  const errno = errnoOf(error);
  return failWith(state, errno === 'ENOSPC' || errno === 'EDQUOT' ? state.capi.SQLITE_FULL : fallback, error);
}
