// A Postgres failure that is about reaching the server (refused, dropped, shut down, wrong password,
// no such database) becomes a StorageError with reason `unreachable`: a clear message naming the
// server without its password, and what to do. Anything else (an SQL error) is a bug and travels on,
// its text scrubbed of the password all the same.
import { messageOf } from '../../errors.ts';
import { StorageError } from '../storage-error.ts';
import { redactPasswordIn, redactUrl } from './redact.ts';

/** Driver codes (postgres.js and Node's sockets) meaning the connection could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
]);

/** `transaction`: a call inside a transaction, which the server ends when it sits idle too long. */
type Situation = 'start' | 'call' | 'transaction';

/** The waits a pool was opened with (connection.ts), named in the errors they raise. */
export interface PgWaits {
  lockTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** SQLSTATEs of a wait that ended or a transaction that lost to another: retrying is right. */
const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';
const DEADLOCK_DETECTED = '40P01';
const SERIALIZATION_FAILURE = '40001';

/** A clear StorageError for a wait that ended (a timeout) or a transaction Postgres chose to end; else undefined. */
function waitErrorOf(error: unknown, code: string, where: string, detail: string, waits: PgWaits | undefined): StorageError | undefined {
  const limit = (ms: number | undefined, setting: string) => (ms === undefined ? setting : `${setting} (${seconds(ms)})`);
  switch (code) {
    case LOCK_NOT_AVAILABLE:
      return new StorageError(
        'busy',
        where,
        `waited longer than ${limit(waits?.lockTimeoutMs, 'lock_timeout')} for a lock on the team database at ${where}: another connection holds it — another ctxgate server saving or purging the same source, or migrating — and has not finished (${detail})`,
        'nothing of this call was committed; retry in a moment. If it keeps happening, a writer is stuck inside a transaction: find it in pg_stat_activity (application_name starts with ctxgate, state "idle in transaction") and end it with pg_terminate_backend(pid)',
        error,
      );
    case QUERY_CANCELED:
      return new StorageError(
        'busy',
        where,
        `a statement on the team database at ${where} ran longer than ${limit(waits?.statementTimeoutMs, 'statement_timeout')} and was cancelled (${detail})`,
        'nothing of this call was committed; retry with less at once (a smaller batch or folder), or ask the database administrator whether the server is overloaded',
        error,
      );
    case IDLE_IN_TRANSACTION_TIMEOUT:
      return new StorageError(
        'unreachable',
        where,
        `the team database at ${where} ended this server's session: its transaction sat idle longer than ${limit(waits?.idleInTransactionTimeoutMs, 'idle_in_transaction_session_timeout')} (the machine may have slept), and its locks were released for the other servers (${detail})`,
        'nothing of this call was committed; the next call reconnects — retry it',
        error,
      );
    case DEADLOCK_DETECTED:
    case SERIALIZATION_FAILURE:
      return new StorageError(
        'busy',
        where,
        `the team database at ${where} ended this call's transaction because it collided with another server's writes to the same sources (${detail})`,
        'nothing of this call was committed; retry it — the other server has finished by now',
        error,
      );
    default:
      return undefined;
  }
}

/** Whether a failure is a collision another attempt of the same transaction can get past (deadlock, serialization). */
export function isRetryableCollision(error: unknown): boolean {
  const code = codeOf(error);
  return code === DEADLOCK_DETECTED || code === SERIALIZATION_FAILURE;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** SQLSTATE classes 08 (connection exception) and 57P0x (server shutting down / starting up). */
function isServerGone(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof StorageError) return error.reason === 'unreachable';
  const code = codeOf(error);
  return CONNECTION_CODES.has(code) || isServerGone(code) || code.startsWith('28') || code === '3D000';
}

/**
 * The StorageError a driver failure stands for; other errors come back as they were, except that the
 * password never survives in their message.
 */
export function postgresErrorOf(error: unknown, url: string, situation: Situation, waits?: PgWaits): unknown {
  if (error instanceof StorageError) return error;
  const where = redactUrl(url);
  const detail = redactPasswordIn(messageOf(error), url);
  const code = codeOf(error);
  const waited = waitErrorOf(error, code, where, detail, waits);
  if (waited) return waited;
  if (code.startsWith('28')) {
    return new StorageError('unreachable', where, `the Postgres server at ${where} refused the login: ${detail}`, 'check the user name and password in storage.url or CTXGATE_DATABASE_URL', error);
  }
  if (code === '3D000') {
    return new StorageError('unreachable', where, `the Postgres server at ${where} has no such database: ${detail}`, 'create it (createdb NAME) or fix the database name at the end of the URL', error);
  }
  if (CONNECTION_CODES.has(code) || isServerGone(code)) {
    const message =
      situation === 'start'
        ? `cannot reach the Postgres database at ${where}: ${detail}`
        : `lost the connection to the Postgres database at ${where} during this call: ${detail}`;
    // The server ends a session idle in its transaction with a FATAL the driver only sees as a closed connection.
    const idle =
      situation === 'transaction'
        ? ` If this machine slept or the call stalled mid-transaction, the server ended the session after ${waits ? seconds(waits.idleInTransactionTimeoutMs) : 'idle_in_transaction_session_timeout'} idle, releasing its locks for the other servers.`
        : '';
    const hint =
      situation === 'start'
        ? 'check that the server is running and that host, port and user in storage.url or CTXGATE_DATABASE_URL are right; or set storage.backend: sqlite to work alone'
        : `nothing of this call was committed; the next call reconnects — retry once the database is back.${idle}`;
    return new StorageError('unreachable', where, message, hint, error);
  }
  if (error instanceof Error && detail !== error.message) {
    const scrubbed = new Error(detail);
    scrubbed.name = error.name;
    return scrubbed;
  }
  return error;
}
