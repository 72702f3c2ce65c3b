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

type Situation = 'start' | 'call';

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
export function postgresErrorOf(error: unknown, url: string, situation: Situation): unknown {
  if (error instanceof StorageError) return error;
  const where = redactUrl(url);
  const detail = redactPasswordIn(messageOf(error), url);
  const code = codeOf(error);
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
    const hint =
      situation === 'start'
        ? 'check that the server is running and that host, port and user in storage.url or CTXGATE_DATABASE_URL are right; or set storage.backend: sqlite to work alone'
        : 'nothing of this call was committed; the next call reconnects — retry once the database is back';
    return new StorageError('unreachable', where, message, hint, error);
  }
  if (error instanceof Error && detail !== error.message) {
    const scrubbed = new Error(detail);
    scrubbed.name = error.name;
    return scrubbed;
  }
  return error;
}
