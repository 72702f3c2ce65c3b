// Versioned schema on Postgres. Each component (the knowledge base, the users) keeps its own list of
// migrations and its own version in ctxgate_migrations. Migrating is one transaction that first takes
// one advisory lock shared by all components, so of several servers starting together one migrates
// and the others, once the lock is theirs, find nothing left to do. One lock, not one per component:
// two components migrating at once on a fresh database would both create ctxgate_migrations, and
// CREATE TABLE IF NOT EXISTS is not safe against a concurrent creator (duplicate pg_type row).
import { AppError, ErrorCode, messageOf } from '../../errors.ts';
import type { PgDatabase, TransactionSql } from './connection.ts';
import { advisoryXactLock } from './locks.ts';

export interface PgMigration {
  version: number;
  description: string;
  /** One or more statements, run as they are (no parameters). */
  sql: string;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ctxgate_migrations (
  component TEXT NOT NULL,
  version INTEGER NOT NULL,
  description TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (component, version)
)`;

async function currentVersion(tx: TransactionSql, component: string): Promise<number> {
  const [row] = await tx`SELECT coalesce(max(version), 0) AS version FROM ctxgate_migrations WHERE component = ${component}`;
  return Number(row?.version ?? 0);
}

/** Brings the component's tables to its newest version; returns that version. Refuses a newer schema. */
export async function migratePostgres(db: PgDatabase, component: string, migrations: readonly PgMigration[]): Promise<number> {
  return migrate(db, component, migrations).catch(async (error: unknown) => {
    throw (await permissionErrorOf(db, error)) ?? error;
  });
}

/** 42501 insufficient_privilege: a role that may not create tables (PG15's default for a non-owner) — say how to grant it. */
async function permissionErrorOf(db: PgDatabase, error: unknown): Promise<AppError | undefined> {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== '42501') return undefined;
  const [row] = await db.run((sql) => sql`SELECT current_user AS role, current_schema() AS schema`).catch(() => [] as Record<string, unknown>[]);
  const role = row?.role ? String(row.role) : 'ROLE';
  const schema = row?.schema ? String(row.schema) : 'public';
  return new AppError(ErrorCode.Config, `Postgres at ${db.where}: the role ${role} cannot create ctxgate's tables in schema ${schema} (${messageOf(error)})`, {
    hint: `as the database owner or a superuser: GRANT CREATE ON SCHEMA ${schema} TO ${role}; or make ${role} the database's owner (ALTER DATABASE … OWNER TO ${role})`,
    cause: error,
  });
}

async function migrate(db: PgDatabase, component: string, migrations: readonly PgMigration[]): Promise<number> {
  const target = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  return db.transaction(async (tx) => {
    await advisoryXactLock(tx, 'ctxgate.migrate', 'all components');
    await tx.unsafe(CREATE_TABLE);
    const current = await currentVersion(tx, component);
    if (current > target) {
      throw new AppError(ErrorCode.Unavailable, `the ${component} tables in ${db.where} are at schema version ${current}, newer than this ctxgate understands (${target})`, {
        hint: 'upgrade ctxgate on this machine to the version the other servers run; the database was left untouched',
      });
    }
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (m.version <= current) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO ctxgate_migrations (component, version, description) VALUES (${component}, ${m.version}, ${m.description})`;
    }
    return Math.max(current, target);
  });
}

/** Each component's schema version (doctor); empty when nothing was migrated yet. */
export async function schemaVersions(db: PgDatabase): Promise<Record<string, number>> {
  return db.run(async (sql) => {
    const [exists] = await sql`SELECT to_regclass('ctxgate_migrations') IS NOT NULL AS present`;
    if (!exists?.present) return {};
    const rows = await sql`SELECT component, max(version) AS version FROM ctxgate_migrations GROUP BY component ORDER BY component`;
    return Object.fromEntries(rows.map((r) => [String(r.component), Number(r.version)]));
  });
}
