// Leases recorded in the database, so that heavy work several processes would do at once (indexing
// the same folder, building an index) is done by one of them while the others use what exists. A
// lease names its holder (pid + kernel start time, as locks do) and expires: one whose holder died,
// or that nobody renewed in time, is taken over by the next process that asks.
import type { Database } from './database.ts';
import { isAlive } from './lock-owner.ts';

const LEASES_TABLE = `CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  start TEXT NOT NULL,
  token TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
)`;

export interface LeaseHolder {
  pid: number;
  /** When the holder took the lease (ms since the epoch). */
  since: number;
  expiresAt: number;
}

export interface Lease {
  readonly name: string;
  /**
   * Extends the lease by its ttl; false when it was lost (expired and taken over meanwhile). Call it
   * inside a write transaction the work opens anyway (it nests there; alone it blocks for its turn).
   */
  renew(): boolean;
  release(): Promise<void>;
}

export type LeaseResult = { ok: true; lease: Lease } | { ok: false; holder: LeaseHolder };

interface LeaseRow {
  [column: string]: string | number;
  pid: number;
  start: string;
  token: string;
  acquired_at: number;
  expires_at: number;
}

/** Takes the lease `name` for `ttlMs` unless a live holder has it and it has not expired. */
export async function acquireLease(db: Database, name: string, ttlMs: number): Promise<LeaseResult> {
  const runtime = db.runtime;
  const token = crypto.randomUUID();
  const start = runtime.processStartTime(runtime.pid) ?? 'unknown';
  const held = await db.writeTransaction((): LeaseHolder | undefined => {
    db.exec(LEASES_TABLE);
    const now = Date.now();
    const row = db.get<LeaseRow>('SELECT pid, start, token, acquired_at, expires_at FROM leases WHERE name = ?', [name]);
    if (row && row.expires_at > now && isAlive(runtime, { pid: row.pid, startTime: row.start, conn: 0 })) {
      return { pid: row.pid, since: row.acquired_at, expiresAt: row.expires_at };
    }
    db.run(
      `INSERT INTO leases (name, pid, start, token, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET pid = excluded.pid, start = excluded.start, token = excluded.token,
         acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      [name, runtime.pid, start, token, now, now + ttlMs],
    );
    return undefined;
  });
  if (held) return { ok: false, holder: held };
  return {
    ok: true,
    lease: {
      name,
      renew: () => db.transaction(() => db.run('UPDATE leases SET expires_at = ? WHERE name = ? AND token = ?', [Date.now() + ttlMs, name, token])) === 1,
      release: async () => {
        await db.writeTransaction(() => db.run('DELETE FROM leases WHERE name = ? AND token = ?', [name, token]));
      },
    },
  };
}

/** Runs work under the lease, renewing nothing by itself; the lease is released however work ends. */
export async function withLease<T>(db: Database, name: string, ttlMs: number, work: (lease: Lease) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; holder: LeaseHolder }> {
  const got = await acquireLease(db, name, ttlMs);
  if (!got.ok) return got;
  try {
    return { ok: true, value: await work(got.lease) };
  } finally {
    await got.lease.release().catch(() => undefined);
  }
}
