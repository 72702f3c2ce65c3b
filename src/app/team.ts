// A team endpoint's side of this server (storage.backend postgres): the project key its rows are
// kept under, its users, and their calls — through one small pool of its own, closed at shutdown.
// Nothing of this exists on SQLite, where one person uses the server's own token.
import { openPostgres, type PgDatabase } from '../storage/postgres/connection.ts';
import { openPostgresUsers } from '../users/postgres-users.ts';
import type { UserStore } from '../users/user-store.ts';
import type { AppContext } from './context.ts';
import { projectKeyOf } from './project-key.ts';

export interface Team {
  projectKey: string;
  users: UserStore;
  db: PgDatabase;
  close(): Promise<void>;
}

/** The team of this server's database; undefined on SQLite. A clear error when Postgres cannot be reached. */
export async function openTeam(app: Pick<AppContext, 'storage' | 'runtime' | 'exec' | 'projectRoot'>, purpose: string): Promise<Team | undefined> {
  if (app.storage.backend !== 'postgres') return undefined;
  const db = await openPostgres(app.storage.url, { applicationName: `ctxgate ${purpose}`, maxConnections: 2 });
  try {
    const [projectKey, users] = await Promise.all([projectKeyOf(app), openPostgresUsers(db)]);
    return { projectKey, users, db, close: () => db.close() };
  } catch (error) {
    await db.close();
    throw error;
  }
}
