// Calls and savings per user of a team endpoint, from the Postgres call records of one project
// (kb/pg-schema.ts: every row names its project and, for a user's token, its user).
import type { PgDatabase } from '../storage/postgres/connection.ts';

export interface UserUsage {
  /** The user's name; null for calls made with the server's own token, stdio or the command line. */
  user: string | null;
  calls: number;
  errors: number;
  refusals: number;
  replyBytes: number;
  savedBytes: number;
  /** The latest call (ms since the epoch). */
  lastAt: number;
}

/** Per user, the most saved first; only `projectKey`'s rows, from `since` on. */
export async function usageByUser(db: PgDatabase, projectKey: string, since = 0): Promise<UserUsage[]> {
  const rows = await db.run(
    (sql) => sql`
      SELECT user_name, count(*) AS calls,
        count(*) FILTER (WHERE outcome = 'error') AS errors,
        count(*) FILTER (WHERE outcome = 'refused') AS refusals,
        coalesce(sum(reply_bytes), 0) AS reply_bytes, coalesce(sum(saved_bytes), 0) AS saved_bytes, max(at) AS last_at
      FROM calls WHERE project_key = ${projectKey} AND at >= ${since}
      GROUP BY user_name ORDER BY saved_bytes DESC, calls DESC, user_name`,
  );
  return rows.map((r) => ({
    user: r.user_name === null ? null : String(r.user_name),
    calls: Number(r.calls),
    errors: Number(r.errors),
    refusals: Number(r.refusals),
    replyBytes: Number(r.reply_bytes),
    savedBytes: Number(r.saved_bytes),
    lastAt: Number(r.last_at),
  }));
}
