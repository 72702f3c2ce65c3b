// One durable SQLite database: opened through our VFS, locked for this process, migrated to the
// current schema, with a small statement cache and transactions that roll back on any error.
import type { BindingSpec, Database as Oo1Database, PreparedStatement, SqlValue } from '@sqlite.org/sqlite-wasm';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { loadSqlite, type Sqlite3 } from './sqlite.ts';
import { installDurableVfs } from './vfs.ts';

export type Row = Record<string, SqlValue>;

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export interface OpenOptions {
  /** Hold the lock for the connection's whole life (the owning server). */
  exclusive: boolean;
  busyTimeoutMs: number;
  migrations: readonly Migration[];
  /** Extra PRAGMA statements run after the standard ones (tuning). */
  pragmas?: readonly string[];
}

const SQLITE_BUSY = 5;

export class Database {
  readonly file: string;
  readonly sqlite3: Sqlite3;
  private readonly db: Oo1Database;
  private readonly statements = new Map<string, PreparedStatement>();
  private depth = 0;

  constructor(sqlite3: Sqlite3, db: Oo1Database, file: string) {
    this.sqlite3 = sqlite3;
    this.db = db;
    this.file = file;
  }

  private statement(sql: string): PreparedStatement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  /** Runs a statement; returns the number of rows it changed. */
  run(sql: string, bind?: BindingSpec): number {
    const stmt = this.statement(sql);
    try {
      if (hasBindings(bind)) stmt.bind(bind);
      stmt.step();
    } finally {
      stmt.reset(true);
    }
    return this.db.changes();
  }

  all<T extends Row = Row>(sql: string, bind?: BindingSpec): T[] {
    const stmt = this.statement(sql);
    const rows: T[] = [];
    try {
      if (hasBindings(bind)) stmt.bind(bind);
      while (stmt.step()) rows.push(stmt.get({}) as T);
    } finally {
      stmt.reset(true);
    }
    return rows;
  }

  get<T extends Row = Row>(sql: string, bind?: BindingSpec): T | undefined {
    const stmt = this.statement(sql);
    try {
      if (hasBindings(bind)) stmt.bind(bind);
      return stmt.step() ? (stmt.get({}) as T) : undefined;
    } finally {
      stmt.reset(true);
    }
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

  /** Runs fn in a transaction (a savepoint when nested); any throw rolls everything back. */
  transaction<T>(fn: () => T): T {
    const name = `sp${this.depth}`;
    this.exec(this.depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
    this.depth++;
    try {
      const result = fn();
      this.depth--;
      this.exec(this.depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
      return result;
    } catch (error) {
      this.depth--;
      this.exec(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
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

function isBusy(error: unknown): boolean {
  const code = (error as { resultCode?: number } | null)?.resultCode;
  return code !== undefined && (code & 0xff) === SQLITE_BUSY;
}

/** Opens (creating if needed, 0600) and migrates a database file. */
export async function openDatabase(runtime: Runtime, file: string, options: OpenOptions): Promise<Database> {
  const sqlite3 = await loadSqlite();
  const vfs = installDurableVfs(sqlite3, runtime);
  let raw: Oo1Database;
  try {
    raw = new sqlite3.oo1.DB({ filename: file, flags: 'c', vfs: vfs.name });
  } catch (error) {
    throw new AppError(ErrorCode.Unavailable, `cannot open database ${file}: ${messageOf(error)}`, { hint: 'check that the folder exists and is writable, or set CTXGATE_DB' });
  }
  const db = new Database(sqlite3, raw, file);
  try {
    db.exec(`PRAGMA busy_timeout=${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    if (options.exclusive) db.exec('PRAGMA locking_mode=EXCLUSIVE');
    db.exec('PRAGMA journal_mode=DELETE');
    db.exec('PRAGMA synchronous=FULL');
    db.exec('PRAGMA foreign_keys=ON');
    for (const p of options.pragmas ?? []) db.exec(`PRAGMA ${p}`);
    // The first real access takes the lock: fail here, clearly, rather than on a later call.
    migrate(db, options.migrations);
  } catch (error) {
    db.close();
    if (isBusy(error)) {
      const owner = vfs.lockFor(file).owner();
      throw new AppError(ErrorCode.Unavailable, `database ${file} is in use by ${owner ? `pid ${owner.pid}` : 'another process'}`, {
        hint: 'another ctxgate server holds this project\'s database: stop it, or point CTXGATE_DB at another file',
      });
    }
    throw error;
  }
  runtime.fs.chmodSync(file, 0o600);
  return db;
}

/** Brings the schema to the newest version; refuses a database written by a newer ctxgate. */
export function migrate(db: Database, migrations: readonly Migration[]): void {
  const target = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const current = Number(db.value('PRAGMA user_version') ?? 0);
  if (current > target) {
    throw new AppError(ErrorCode.Unavailable, `database ${db.file} has schema version ${current}, newer than this ctxgate understands (${target})`, {
      hint: 'upgrade ctxgate, or point CTXGATE_DB at another file; the database was left untouched',
    });
  }
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version=${m.version}`);
    });
  }
}
