// Versioned schema (PRAGMA user_version). Several processes may open a new database at once: the
// version is read again inside the write transaction, so only the first one migrates.
import { AppError, ErrorCode } from '../errors.ts';
import type { Database } from './database.ts';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Brings the schema to the newest version; refuses a database written by a newer ctxgate. */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<void> {
  const target = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const refuseNewer = (current: number) => {
    if (current <= target) return;
    throw new AppError(ErrorCode.Unavailable, `database ${db.file} has schema version ${current}, newer than this ctxgate understands (${target})`, {
      hint: 'upgrade ctxgate, or point CTXGATE_DB at another file; the database was left untouched',
    });
  };
  const version = () => Number(db.value('PRAGMA user_version') ?? 0);
  const before = version();
  refuseNewer(before);
  if (before === target) return;
  await db.writeTransaction(() => {
    const current = version();
    refuseNewer(current);
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      db.exec(`PRAGMA user_version=${m.version}`);
    }
  });
}
