// The people of a team endpoint, in its Postgres database (one table for every project the database
// serves: a user may be given several). A token is stored only as its hash (user-token.ts). A name
// whose user was revoked can be given again: the row is replaced, with a new token.
import { AppError, ErrorCode } from '../errors.ts';
import type { PgDatabase } from '../storage/postgres/connection.ts';
import { migratePostgres, type PgMigration } from '../storage/postgres/migrate.ts';
import type { TeamUser, UserStore } from './user-store.ts';

export const USERS_PG_COMPONENT = 'users';

export const USERS_PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'users with the hash of their token and the projects they may use',
    sql: `
      CREATE TABLE ctxgate_users (
        name TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        projects TEXT[],
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        revoked_at TIMESTAMPTZ
      );
      COMMENT ON COLUMN ctxgate_users.projects IS 'project keys the token may be used for; NULL: every project';
      COMMENT ON COLUMN ctxgate_users.token_hash IS 'sha-256 of the token, hex; the token itself is never stored';
    `,
  },
  {
    version: 2,
    description: 'the tools each user may use',
    sql: `
      ALTER TABLE ctxgate_users ADD COLUMN tools TEXT[];
      COMMENT ON COLUMN ctxgate_users.tools IS 'tool names the token may use; NULL: every tool the server offers';
    `,
  },
];

interface UserRow {
  name: string;
  projects: string[] | null;
  tools: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
}

function userOf(row: UserRow): TeamUser {
  return { name: row.name, projects: row.projects ?? 'all', tools: row.tools ?? 'all', createdAt: new Date(row.created_at), ...(row.revoked_at ? { revokedAt: new Date(row.revoked_at) } : {}) };
}

/** The users of the database `db`, its table migrated first. */
export async function openPostgresUsers(db: PgDatabase): Promise<UserStore> {
  await migratePostgres(db, USERS_PG_COMPONENT, USERS_PG_MIGRATIONS);
  return {
    async add(name, tokenHash, projects, tools = 'all') {
      const list = projects === 'all' ? null : projects;
      const toolList = tools === 'all' ? null : tools;
      const rows = await db.run(
        (sql) => sql<UserRow[]>`
          INSERT INTO ctxgate_users (name, token_hash, projects, tools) VALUES (${name}, ${tokenHash}, ${list}, ${toolList})
          ON CONFLICT (name) DO UPDATE SET token_hash = EXCLUDED.token_hash, projects = EXCLUDED.projects, tools = EXCLUDED.tools, created_at = now(), revoked_at = NULL
            WHERE ctxgate_users.revoked_at IS NOT NULL
          RETURNING name, projects, tools, created_at, revoked_at`,
      );
      if (!rows[0]) {
        throw new AppError(ErrorCode.InvalidArgument, `user ${name} exists already (in ${db.where})`, {
          hint: `to give ${name} a new token, revoke the old one first (ctxgate users revoke ${name}), then add ${name} again; or choose another name`,
        });
      }
      return userOf(rows[0]);
    },
    async grant(name, projects) {
      // NULL projects means every project already: nothing to add.
      const rows = await db.run(
        (sql) => sql<UserRow[]>`
          UPDATE ctxgate_users SET projects = CASE WHEN projects IS NULL THEN NULL ELSE (SELECT array_agg(DISTINCT p ORDER BY p) FROM unnest(projects || ${[...projects]}::text[]) AS p) END
          WHERE name = ${name} AND revoked_at IS NULL
          RETURNING name, projects, tools, created_at, revoked_at`,
      );
      return rows[0] ? userOf(rows[0]) : undefined;
    },
    async list() {
      const rows = await db.run((sql) => sql<UserRow[]>`SELECT name, projects, tools, created_at, revoked_at FROM ctxgate_users ORDER BY name`);
      return rows.map(userOf);
    },
    async revoke(name) {
      const rows = await db.run((sql) => sql`UPDATE ctxgate_users SET revoked_at = now() WHERE name = ${name} AND revoked_at IS NULL RETURNING name`);
      return rows.length > 0;
    },
    async findByTokenHash(tokenHash) {
      const rows = await db.run((sql) => sql<UserRow[]>`SELECT name, projects, tools, created_at, revoked_at FROM ctxgate_users WHERE token_hash = ${tokenHash}`);
      return rows[0] ? userOf(rows[0]) : undefined;
    },
  };
}
