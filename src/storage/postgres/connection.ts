// The one place the `postgres` driver is loaded. A PgDatabase is a small pool for one URL: every
// query goes through run() or transaction(), which turn connection failures into clear errors
// (storage/postgres/errors.ts). A lost connection fails the call it happened in; the pool opens a
// new one on the next call, so recovery needs nothing from the caller.
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { postgresErrorOf } from './errors.ts';
import { redactUrl } from './redact.ts';

export type { Sql, TransactionSql };

export interface PgOptions {
  /** Shown in pg_stat_activity, so an administrator can tell ctxgate's connections apart. */
  applicationName?: string;
  /** Connections in the pool at most (default 4: a server answers a handful of calls at once). */
  maxConnections?: number;
  connectTimeoutSeconds?: number;
}

export interface PgDatabase {
  /** The URL without its password: what logs, doctor and errors show. */
  readonly where: string;
  /** One query or several outside a transaction. */
  run<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** fn inside one transaction: all of it commits, or none of it. */
  transaction<T>(fn: (tx: TransactionSql) => Promise<T>): Promise<T>;
  /** The server's version, e.g. "15.14". */
  serverVersion(): Promise<string>;
  close(): Promise<void>;
}

function createPool(url: string, options: PgOptions): Sql {
  return postgres(url, {
    max: options.maxConnections ?? 4,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    idle_timeout: 60,
    // Notices ("extension already exists, skipping") would go to stdout, the MCP channel on stdio.
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'ctxgate' },
  });
}

/** Opens a pool and checks the server answers; a clear error (what, where, what to do) when it does not. */
export async function openPostgres(url: string, options: PgOptions = {}): Promise<PgDatabase> {
  let sql: Sql;
  try {
    sql = createPool(url, options);
  } catch (error) {
    throw postgresErrorOf(error, url, 'start');
  }
  const db = wrap(sql, url);
  try {
    await sql`SELECT 1`;
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw postgresErrorOf(error, url, 'start');
  }
  return db;
}

function wrap(sql: Sql, url: string): PgDatabase {
  const fail = (error: unknown): never => {
    throw postgresErrorOf(error, url, 'call');
  };
  return {
    where: redactUrl(url),
    run: (fn) => fn(sql).catch(fail),
    transaction: <T>(fn: (tx: TransactionSql) => Promise<T>) => (sql.begin((tx) => fn(tx)) as Promise<T>).catch(fail),
    async serverVersion() {
      const [row] = await sql`SELECT current_setting('server_version') AS version`.catch(fail);
      return String(row?.version ?? '');
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
