// One durable SQLite database shared by every ctxgate process on the project: opened through our
// VFS in SQLite's normal locking mode (locks per transaction, so each process sees the others'
// commits on its next statement), with a bounded statement cache and transactions that roll back
// on any error and keep their nesting count right even when COMMIT itself fails (issue 11, item 7).
import * as path from 'node:path';
import type { BindingSpec, Database as Oo1Database, PreparedStatement, SqlValue } from '@sqlite.org/sqlite-wasm';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { ensureLockDir, lockDirOf } from './database-lock.ts';
import { describeWriter } from './database-users.ts';
import { connectionElsewhere } from './foreign-machine.ts';
import { type Migration, migrate } from './migrate.ts';
import { loadSqlite, type Sqlite3 } from './sqlite.ts';
import { isBusy, StorageError, storageErrorOf } from './storage-error.ts';
import { installDurableVfs } from './vfs.ts';

export type { Migration } from './migrate.ts';
export { migrate } from './migrate.ts';

export type Row = Record<string, SqlValue>;

export interface OpenOptions {
  /**
   * How long a call may wait for its turn (another process writing) before it fails with a
   * StorageError 'busy'. Waits back off; transactions started with writeTransaction wait without
   * blocking the event loop.
   */
  busyTimeoutMs: number;
  migrations: readonly Migration[];
  /** Hold the locks for the connection's whole life (single-process tools such as benchmarks). */
  exclusive?: boolean;
  /** Extra PRAGMA statements run after the standard ones (tuning). */
  pragmas?: readonly string[];
  /** Where lock warnings go (a lock of another machine broken after its expiry). */
  logger?: Logger;
}

const STATEMENT_CACHE = 64;
/** Pages kept in memory (16 MB): a batch of writes fits, so a writer does not spill (and lock readers out) early. */
const CACHE_KIB = 16 * 1024;

/** Thrown inside writeTransaction when BEGIN found another writer: nothing ran yet, so it may wait and retry. */
class BusyAtBegin extends Error {}

export class Database {
  readonly file: string;
  readonly sqlite3: Sqlite3;
  readonly runtime: Runtime;
  private readonly db: Oo1Database;
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, PreparedStatement>();
  private depth = 0;

  constructor(sqlite3: Sqlite3, db: Oo1Database, file: string, runtime: Runtime, busyTimeoutMs: number) {
    this.sqlite3 = sqlite3;
    this.db = db;
    this.file = file;
    this.runtime = runtime;
    this.busyTimeoutMs = busyTimeoutMs;
    this.setBusyTimeout(busyTimeoutMs);
  }

  private setBusyTimeout(ms: number): void {
    this.sqlite3.capi.sqlite3_busy_timeout(this.db, Math.max(0, Math.floor(ms)));
  }

  /** A prepared statement, kept for reuse; the least recently used is finalized past the cache size. */
  private statement(sql: string): PreparedStatement {
    let stmt = this.statements.get(sql);
    if (stmt) {
      this.statements.delete(sql);
    } else {
      stmt = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) {
        const [oldest, old] = this.statements.entries().next().value as [string, PreparedStatement];
        this.statements.delete(oldest);
        old.finalize();
      }
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  /** Turns SQLite's environment failures (busy, disk full, read-only…) into StorageErrors. */
  private failure(error: unknown, waitedMs = this.busyTimeoutMs): unknown {
    return storageErrorOf(error, this.file, isBusy(error) ? { waitedMs, holder: describeWriter(this.runtime, this.file) } : undefined) ?? error;
  }

  private guarded<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Runs statements that return no rows (sqlite-wasm's exec steps each once); `run` for one that may. */
  exec(sql: string): void {
    this.guarded(() => this.db.exec(sql));
  }

  /**
   * Runs a statement to its end, whatever rows it returns (`PRAGMA incremental_vacuum` frees a page
   * per step, each a row); returns the number of rows it changed.
   */
  run(sql: string, bind?: BindingSpec): number {
    return this.guarded(() => {
      const stmt = this.statement(sql);
      try {
        if (hasBindings(bind)) stmt.bind(bind);
        while (stmt.step());
      } finally {
        stmt.reset(true);
      }
      return this.db.changes();
    });
  }

  all<T extends Row = Row>(sql: string, bind?: BindingSpec): T[] {
    return this.guarded(() => {
      const stmt = this.statement(sql);
      const rows: T[] = [];
      try {
        if (hasBindings(bind)) stmt.bind(bind);
        while (stmt.step()) rows.push(stmt.get({}) as T);
      } finally {
        stmt.reset(true);
      }
      return rows;
    });
  }

  get<T extends Row = Row>(sql: string, bind?: BindingSpec): T | undefined {
    return this.guarded(() => {
      const stmt = this.statement(sql);
      try {
        if (hasBindings(bind)) stmt.bind(bind);
        return stmt.step() ? (stmt.get({}) as T) : undefined;
      } finally {
        stmt.reset(true);
      }
    });
  }

  /**
   * The rows of `SELECT columns FROM rest` read as one JSON text and parsed once: several times
   * faster than `all` for tens of thousands of rows (each row and column otherwise crosses from WASM
   * on its own). Plain column names; text, numbers and NULL only (no blobs); doubles round-trip
   * exactly.
   */
  bulk<T extends Row = Row>(columns: readonly string[], rest: string, bind?: BindingSpec): T[] {
    const json = this.value(`SELECT json_group_array(json_array(${columns.join(', ')})) FROM ${rest}`, bind);
    return (JSON.parse(String(json ?? '[]')) as SqlValue[][]).map((values) => {
      const row: Row = {};
      for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i] ?? null;
      return row as T;
    });
  }

  value(sql: string, bind?: BindingSpec): SqlValue | undefined {
    const row = this.get(sql, bind);
    return row ? Object.values(row)[0] : undefined;
  }

  lastInsertRowid(): number {
    return Number(this.sqlite3.capi.sqlite3_last_insert_rowid(this.db));
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** SQLite rolls a whole transaction back by itself after some failures (disk full, I/O). */
  private get autocommit(): boolean {
    return this.sqlite3.capi.sqlite3_get_autocommit(this.db) !== 0;
  }

  /**
   * Runs fn in a write transaction (a savepoint when nested); any throw rolls it back. The outermost
   * level waits for its turn with SQLite's busy handler, blocking this thread up to the bound: prefer
   * writeTransaction where the caller can await.
   */
  transaction<T>(fn: () => T): T {
    return this.runTransaction(fn, false);
  }

  /** Like transaction, but waits for another process's write to end without blocking the event loop. */
  async writeTransaction<T>(fn: () => T): Promise<T> {
    if (this.depth > 0) return this.transaction(fn);
    const started = Date.now();
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        return this.runTransaction(fn, true);
      } catch (error) {
        if (!(error instanceof BusyAtBegin)) throw error;
        const waited = Date.now() - started;
        if (waited >= this.busyTimeoutMs) throw this.failure(error.cause, waited);
        // Jitter keeps processes that collided once from colliding again in step.
        await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
      }
    }
  }

  /**
   * Runs fn's reads in one read transaction: one shared lock for all of them (each statement alone
   * takes and drops its own), and one consistent view. Inside another transaction it just runs fn.
   */
  readTransaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.exec('BEGIN DEFERRED');
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
      if (!this.autocommit) {
        try {
          this.db.exec('COMMIT');
        } catch {
          this.undo(true, 'sp0');
        }
      }
    }
  }

  /** Runs fn in a write transaction only if no other process is writing right now; undefined otherwise. */
  tryTransaction<T>(fn: () => T): { value: T } | undefined {
    if (this.depth > 0) return { value: this.transaction(fn) };
    try {
      return { value: this.runTransaction(fn, true) };
    } catch (error) {
      if (error instanceof BusyAtBegin) return undefined;
      throw error;
    }
  }

  private runTransaction<T>(fn: () => T, noWait: boolean): T {
    const outer = this.depth === 0;
    const name = `sp${this.depth}`;
    if (outer) this.begin(noWait);
    else this.exec(`SAVEPOINT ${name}`);
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (error) {
      this.depth--;
      this.undo(outer, name);
      throw this.failure(error);
    }
    this.depth--;
    try {
      this.db.exec(outer ? 'COMMIT' : `RELEASE ${name}`);
    } catch (error) {
      this.undo(outer, name);
      throw this.failure(error);
    }
    return result;
  }

  private begin(noWait: boolean): void {
    if (!noWait) {
      this.exec('BEGIN IMMEDIATE');
      return;
    }
    this.setBusyTimeout(0);
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if (isBusy(error)) throw new BusyAtBegin('busy', { cause: error });
      throw this.failure(error);
    } finally {
      this.setBusyTimeout(this.busyTimeoutMs);
    }
  }

  /** Rolls back what is still open; nothing when SQLite has already rolled the transaction back. */
  private undo(outer: boolean, name: string): void {
    if (this.autocommit) return;
    try {
      this.db.exec(outer ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
    } catch {
      // the transaction ended while failing; SQLite leaves the file consistent either way
    }
  }

  close(): void {
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
    this.db.close();
  }
}

/** An empty list binds nothing; the WASM API throws when asked to bind it to a statement without parameters. */
function hasBindings(bind: BindingSpec | undefined): bind is BindingSpec {
  return bind !== undefined && !(Array.isArray(bind) && bind.length === 0);
}

/** Opens (creating if needed, 0600) and migrates a database file that other processes may share. */
export async function openDatabase(runtime: Runtime, file: string, options: OpenOptions): Promise<Database> {
  const sqlite3 = await loadSqlite();
  const vfs = installDurableVfs(sqlite3, runtime);
  if (options.logger) vfs.setLogger(path.resolve(runtime.cwd(), file), options.logger);
  const legacy = ensureLockDir(runtime, file);
  if (legacy) {
    throw new StorageError('busy', file, `database ${file} is held by an older ctxgate (pid ${legacy.legacyHolder}) that does not share it`, 'stop that process (or upgrade it); this version lets any number of processes share the database');
  }
  refuseIfUsedElsewhere(runtime, file);
  let raw: Oo1Database;
  try {
    raw = new sqlite3.oo1.DB({ filename: file, flags: 'c', vfs: vfs.name });
  } catch (error) {
    throw storageErrorOf(error, file) ?? new StorageError('readonly', file, `cannot open database ${file}`, 'check that the folder exists and is writable, or set CTXGATE_DB', error);
  }
  const db = new Database(sqlite3, raw, file, runtime, options.busyTimeoutMs);
  try {
    if (options.exclusive) db.exec('PRAGMA locking_mode=EXCLUSIVE');
    db.exec('PRAGMA journal_mode=DELETE');
    db.exec('PRAGMA synchronous=FULL');
    db.exec('PRAGMA foreign_keys=ON');
    db.exec(`PRAGMA cache_size=-${CACHE_KIB}`);
    for (const p of options.pragmas ?? []) if (!alreadySet(db, p)) db.exec(`PRAGMA ${p}`);
    await migrate(db, options.migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  runtime.fs.chmodSync(file, 0o600);
  return db;
}

/**
 * Pragmas kept in the file: setting one writes the file's header in a write transaction (two fsyncs,
 * and a wait behind any writer) even when it holds that value already — on every open of every
 * process. Their values by name.
 */
const STORED_PRAGMAS: Record<string, Record<string, number>> = { auto_vacuum: { none: 0, full: 1, incremental: 2 } };

/** Whether `pragma` (name=value) is one kept in the file that already holds that value. */
function alreadySet(db: Database, pragma: string): boolean {
  const [name, value] = pragma.split('=').map((s) => s.trim().toLowerCase());
  const values = name ? STORED_PRAGMAS[name] : undefined;
  if (!values || value === undefined) return false;
  const wanted = values[value] ?? Number(value);
  return Number(db.value(`PRAGMA ${name}`)) === wanted;
}

/** A data folder in use on another machine is refused (foreign-machine.ts says why), naming it. */
function refuseIfUsedElsewhere(runtime: Runtime, file: string): void {
  const other = connectionElsewhere(runtime, lockDirOf(file));
  if (!other) return;
  const folder = path.dirname(path.resolve(runtime.cwd(), file));
  const seen = `last heartbeat ${Math.round(other.silentMs / 1000)} s ago`;
  throw new StorageError(
    'elsewhere',
    file,
    `the data folder ${folder} is in use by ctxgate on another machine, ${other.host} (pid ${other.pid} there, ${seen}); a SQLite data folder serves the processes of one machine`,
    `to share a project's knowledge between machines, use the Postgres backend (storage.backend: "postgres" with storage.url; README "Team endpoint"), or give this machine a data folder of its own (CTXGATE_DATA_DIR); if ${other.host} is gone, its claim lapses ${Math.ceil(other.expiresInMs / 1000)} s after its last heartbeat`,
  );
}

export { StorageError };
