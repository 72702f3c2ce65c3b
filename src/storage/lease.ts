// Leases recorded in the database, so that heavy work several processes would do at once (indexing
// the same folder, building an index) is done by one of them while the others use what exists. A
// lease names its holder (pid + kernel start time, as locks do, and the host and boot it runs in)
// and expires: one that nobody renewed in time, or whose holder died, is taken over by the next
// process that asks. A holder on another machine or in another pid namespace cannot be checked by
// pid: its lease holds until it expires; one from an earlier boot of this machine is free at once.
import type { Database } from './database.ts';
import { identityOf, whereabouts } from './lock-host.ts';
import { isAlive } from './lock-owner.ts';

const LEASES_TABLE = `CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  start TEXT NOT NULL,
  token TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  host TEXT,
  boot TEXT
)`;

/**
 * The table is shared infrastructure, created on first use in whichever database asks (outside that
 * database's own versioned migrations), so its upgrade is done the same way: a table made before
 * leases named their host gets the two columns. An older ctxgate writes its rows without them, and
 * such a row is judged by pid, as that version judges.
 */
const HOST_COLUMNS = ['host', 'boot'] as const;

const upgraded = new WeakSet<Database>();

function ensureLeasesTable(db: Database): void {
  if (upgraded.has(db)) return;
  db.exec(LEASES_TABLE);
  const have = new Set(db.all<{ name: string }>('PRAGMA table_info(leases)').map((c) => c.name));
  for (const column of HOST_COLUMNS) if (!have.has(column)) db.exec(`ALTER TABLE leases ADD COLUMN ${column} TEXT`);
  upgraded.add(db);
}

export interface LeaseHolder {
  pid: number;
  /** When the holder took the lease (ms since the epoch). */
  since: number;
  expiresAt: number;
  /** The holder's machine (or container), when it is not this one. */
  host?: string;
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
  [column: string]: string | number | null;
  pid: number;
  start: string;
  token: string;
  acquired_at: number;
  expires_at: number;
  host: string | null;
  boot: string | null;
}

/** The holder of a lease row, when it still holds it at `now`. */
function holderOf(db: Database, row: LeaseRow, now: number): LeaseHolder | undefined {
  if (row.expires_at <= now) return undefined;
  const runtime = db.runtime;
  const identity = row.host !== null && row.boot !== null ? { host: row.host, boot: row.boot } : undefined;
  const where = whereabouts(runtime, identity, row.acquired_at, now);
  const holder = { pid: row.pid, since: row.acquired_at, expiresAt: row.expires_at };
  if (where === 'here') return isAlive(runtime, { pid: row.pid, startTime: row.start, conn: 0 }) ? holder : undefined;
  if (where === 'earlier-boot') return undefined;
  return { ...holder, host: row.host ?? '?' };
}

/** Who holds the lease `name` now (a live holder whose lease has not expired), read without taking it. */
export function leaseHolder(db: Database, name: string): LeaseHolder | undefined {
  if (!db.value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'")) return undefined;
  const row = db.get<LeaseRow>('SELECT * FROM leases WHERE name = ?', [name]);
  return row ? holderOf(db, { ...row, host: row.host ?? null, boot: row.boot ?? null }, Date.now()) : undefined;
}

/** Takes the lease `name` for `ttlMs` unless a live holder has it and it has not expired. */
export async function acquireLease(db: Database, name: string, ttlMs: number): Promise<LeaseResult> {
  const runtime = db.runtime;
  const token = crypto.randomUUID();
  const start = runtime.processStartTime(runtime.pid) ?? 'unknown';
  const me = identityOf(runtime);
  const held = await db.writeTransaction((): LeaseHolder | undefined => {
    ensureLeasesTable(db);
    const now = Date.now();
    const row = db.get<LeaseRow>('SELECT pid, start, token, acquired_at, expires_at, host, boot FROM leases WHERE name = ?', [name]);
    const holder = row && holderOf(db, row, now);
    if (holder) return holder;
    db.run(
      `INSERT INTO leases (name, pid, start, token, acquired_at, expires_at, host, boot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET pid = excluded.pid, start = excluded.start, token = excluded.token,
         acquired_at = excluded.acquired_at, expires_at = excluded.expires_at, host = excluded.host, boot = excluded.boot`,
      [name, runtime.pid, start, token, now, now + ttlMs, me?.host ?? null, me?.boot ?? null],
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
