// SQLite's failures that are about the environment, not about the SQL: busy past the bound, disk
// full, read-only, I/O, damage. Each becomes a StorageError (an AppError with code UNAVAILABLE and a
// `reason`), so the tool layer can recognize it and keep a command's output some other way.
import { AppError, ErrorCode, messageOf } from '../errors.ts';

/**
 * `elsewhere`: the data folder is in use on another machine (foreign-machine.ts); `unreachable`: a
 * database server (Postgres) could not be reached or dropped the connection.
 */
export type StorageFailure = 'busy' | 'full' | 'readonly' | 'io' | 'corrupt' | 'elsewhere' | 'unreachable';

export class StorageError extends AppError {
  readonly reason: StorageFailure;
  readonly file: string;

  constructor(reason: StorageFailure, file: string, message: string, hint: string, cause?: unknown) {
    super(ErrorCode.Unavailable, message, { hint, cause });
    this.name = 'StorageError';
    this.reason = reason;
    this.file = file;
  }
}

export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}

const SQLITE_PERM = 3;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/** The primary SQLite result code of a thrown error, if it has one. */
export function sqliteCode(error: unknown): number | undefined {
  const code = (error as { resultCode?: number } | null)?.resultCode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

/**
 * The StorageError an SQLite failure stands for, or undefined when it is not one (a constraint or
 * SQL error is a bug and travels on unchanged). `busy` says who holds the database, when known.
 */
export function storageErrorOf(error: unknown, file: string, busy?: { waitedMs: number; holder?: string }): StorageError | undefined {
  if (error instanceof StorageError) return error;
  const detail = messageOf(error);
  switch (sqliteCode(error)) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED: {
      const who = busy?.holder ?? 'another ctxgate process';
      const waited = busy ? ` for ${(busy.waitedMs / 1000).toFixed(1)} s` : '';
      return new StorageError('busy', file, `database ${file} stayed busy${waited}: ${who} kept writing to it`, 'try again in a moment; nothing was written by this call', error);
    }
    case SQLITE_FULL:
      return new StorageError('full', file, `disk full: the database ${file} could not grow (${detail})`, 'free space on that disk (or point CTXGATE_DB elsewhere) and retry; this call wrote nothing and the database is intact', error);
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      return new StorageError('readonly', file, `cannot write the database ${file}: ${detail}`, 'check that the file and its folder are writable by this user, or set CTXGATE_DB', error);
    case SQLITE_IOERR:
      return new StorageError('io', file, `I/O error on the database ${file}: ${detail}`, 'check the disk; this call wrote nothing', error);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new StorageError('corrupt', file, `the database ${file} is damaged: ${detail}`, 'move the file aside (ctxgate creates a new one), or point CTXGATE_DB elsewhere', error);
    default:
      return undefined;
  }
}
