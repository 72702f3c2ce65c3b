// The one place the `postgres` driver is loaded. A PgDatabase is a small pool for one URL: every
// query goes through run() or transaction(), which turn connection failures into clear errors
// (storage/postgres/errors.ts). A lost connection fails the call it happened in; the pool opens a
// new one on the next call, so recovery needs nothing from the caller.
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { StorageError } from '../storage-error.ts';
import { isRetryableCollision, type PgWaits, postgresErrorOf } from './errors.ts';
import { redactUrl } from './redact.ts';

export type { Sql, TransactionSql };

export interface PgOptions {
  /** Shown in pg_stat_activity, so an administrator can tell ctxgate's connections apart. */
  applicationName?: string;
  /** Connections in the pool at most (default 4: a server answers a handful of calls at once). */
  maxConnections?: number;
  /** How long connecting may take before it fails (default 10 s). */
  connectTimeoutSeconds?: number;
  /**
   * How long a statement waits for a lock (default 60 s): another server's save of the same source,
   * a purge, or a migration. Without it, one writer stalled inside its transaction (a laptop gone to
   * sleep) blocks every other server's save of that source forever and their pools fill up.
   */
  lockTimeoutMs?: number;
  /** How long one statement may run (default 10 min: generous, an indexing batch is one statement per table). */
  statementTimeoutMs?: number;
  /**
   * How long a transaction may sit idle (default 30 s): the server ends a stalled writer's session,
   * releasing its locks — shorter than lock_timeout, so the others waiting on it get through.
   */
  idleInTransactionTimeoutMs?: number;
  /**
   * How long this process waits for an answer to a run() before it gives up on the connections
   * (default 2 min; a transaction gets statement_timeout and this on top). The server's own timeouts
   * cannot fire when the server or the network stops answering (a frozen host, a cut without a
   * reset): then only this ends the wait, drops the pool and lets the next call connect anew.
   */
  answerDeadlineMs?: number;
}

/** The defaults of the waits above; a test sets short ones through PgOptions. */
export const PG_TIMEOUT_DEFAULTS = { connectTimeoutSeconds: 10, lockTimeoutMs: 60_000, statementTimeoutMs: 600_000, idleInTransactionTimeoutMs: 30_000, answerDeadlineMs: 120_000 } as const;

export interface PgDatabase {
  /** The URL without its password: what logs, doctor and errors show. */
  readonly where: string;
  /** One query or several outside a transaction. */
  run<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * fn inside one transaction: all of it commits, or none of it. After a deadlock or serialization
   * failure fn runs once more in a new transaction, so whatever it does outside the transaction
   * (a callback, a counter) must be safe to do twice or be guarded by the caller (pg-store.ts saveAll).
   */
  transaction<T>(fn: (tx: TransactionSql) => Promise<T>): Promise<T>;
  /** The server's version, e.g. "15.14". */
  serverVersion(): Promise<string>;
  close(): Promise<void>;
}

function createPool(url: string, options: PgOptions): Sql {
  return postgres(url, {
    max: options.maxConnections ?? 4,
    connect_timeout: options.connectTimeoutSeconds ?? PG_TIMEOUT_DEFAULTS.connectTimeoutSeconds,
    idle_timeout: 60,
    // TCP keepalive probes from 30 s of silence on: a peer that vanished is noticed by the socket too.
    keep_alive: 30,
    // Notices ("extension already exists, skipping") would go to stdout, the MCP channel on stdio.
    onnotice: () => {},
    // Sent as startup parameters: every session of the pool has them from its first statement on.
    connection: {
      application_name: options.applicationName ?? 'ctxgate',
      lock_timeout: options.lockTimeoutMs ?? PG_TIMEOUT_DEFAULTS.lockTimeoutMs,
      statement_timeout: options.statementTimeoutMs ?? PG_TIMEOUT_DEFAULTS.statementTimeoutMs,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? PG_TIMEOUT_DEFAULTS.idleInTransactionTimeoutMs,
    },
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
  const waits: PgWaits = {
    lockTimeoutMs: options.lockTimeoutMs ?? PG_TIMEOUT_DEFAULTS.lockTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs ?? PG_TIMEOUT_DEFAULTS.statementTimeoutMs,
    idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? PG_TIMEOUT_DEFAULTS.idleInTransactionTimeoutMs,
  };
  const db = wrap(sql, () => createPool(url, options), url, waits, options.answerDeadlineMs ?? PG_TIMEOUT_DEFAULTS.answerDeadlineMs);
  try {
    await sql`SELECT 1`;
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw postgresErrorOf(error, url, 'start');
  }
  return db;
}

function wrap(first: Sql, reopen: () => Sql, url: string, waits: PgWaits, deadlineMs: number): PgDatabase {
  let sql = first;
  const fail = (error: unknown): never => {
    throw postgresErrorOf(error, url, 'call', waits);
  };
  const failInTransaction = (error: unknown): never => {
    throw postgresErrorOf(error, url, 'transaction', waits);
  };
  /**
   * `work` on the current pool, given up after `ms` without an answer: the pool is dropped (its
   * connections may be stuck on a server that no longer answers) and a new one serves the next call.
   */
  const answered = <T>(work: (pool: Sql) => Promise<T>, ms: number): Promise<T> => {
    const pool = sql;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (sql === pool) sql = reopen();
        void pool.end({ timeout: 0 }).catch(() => {});
        reject(noAnswer(url, ms));
      }, ms);
    });
    return Promise.race([work(pool), deadline]).finally(() => clearTimeout(timer));
  };
  const begin = <T>(fn: (tx: TransactionSql) => Promise<T>) => answered((pool) => pool.begin((tx) => fn(tx)) as Promise<T>, waits.statementTimeoutMs + deadlineMs);
  return {
    where: redactUrl(url),
    run: (fn) => answered(fn, deadlineMs).catch(fail),
    // A deadlock or serialization failure rolled everything back and the other side has gone on:
    // one more attempt almost always succeeds; a second collision is reported as a clear error.
    transaction: <T>(fn: (tx: TransactionSql) => Promise<T>) => begin(fn).catch((error: unknown) => (isRetryableCollision(error) ? begin(fn) : Promise.reject(error))).catch(failInTransaction),
    async serverVersion() {
      const [row] = await answered((pool) => pool`SELECT current_setting('server_version') AS version`, deadlineMs).catch(fail);
      return String(row?.version ?? '');
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

function noAnswer(url: string, ms: number): StorageError {
  const where = redactUrl(url);
  return new StorageError(
    'unreachable',
    where,
    `the Postgres database at ${where} did not answer within ${Math.round(ms / 1000)} s (the server or the network between stopped answering); this server dropped its connections`,
    'nothing of this call was committed; the next call connects anew — retry it, and check the database host if it happens again',
  );
}
