// What `doctor` says about a Postgres backend: where (without the password), whether it answers,
// the server's version and each component's schema version — or why it cannot be reached.
import { messageOf } from '../../errors.ts';
import { openPostgres } from './connection.ts';
import { schemaVersions } from './migrate.ts';
import { redactUrl } from './redact.ts';

export interface PostgresHealth {
  url: string;
  reachable: boolean;
  serverVersion?: string;
  /** Schema version per component ({} before the first server migrated). */
  schema?: Record<string, number>;
  error?: string;
  hint?: string;
}

export async function postgresHealth(url: string): Promise<PostgresHealth> {
  const where = redactUrl(url);
  try {
    const db = await openPostgres(url, { maxConnections: 1, connectTimeoutSeconds: 5, applicationName: 'ctxgate doctor' });
    try {
      return { url: where, reachable: true, serverVersion: await db.serverVersion(), schema: await schemaVersions(db) };
    } finally {
      await db.close();
    }
  } catch (error) {
    const hint = (error as { hint?: unknown }).hint;
    return { url: where, reachable: false, error: messageOf(error), ...(typeof hint === 'string' ? { hint } : {}) };
  }
}
