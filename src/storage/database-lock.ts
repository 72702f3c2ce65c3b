// SQLite's locking protocol for one connection, over lock links in the folder `<db>-lock/` (see
// docs/storage.md). SQLite asks for five levels and this gives them the meaning of its unix VFS:
//   SHARED    reading. Any number at once: each connection has its own marker `s.<pid>.<start>.<conn>`.
//   RESERVED  about to write (journal being filled): the link `reserved`, one holder; readers go on.
//   PENDING   waiting to write the database file: the link `pending`; no new reader may start.
//   EXCLUSIVE writing the database file: PENDING held and no other live reader marker left.
// A reader puts its marker down *before* it looks for `pending`, and a writer takes `pending`
// *before* it looks for markers, so one of the two always sees the other. Every lock names its
// owner; a dead owner's lock counts as absent and is removed by whoever needs it (markers by name,
// links under a guard: lock-file.ts), so `kill -9` never blocks the others and a hot journal it
// leaves is rolled back by the next reader. An owner on another machine or in another pid namespace
// cannot be checked by pid: its connection's user marker names where it runs and carries a heartbeat,
// refreshed while the connection holds a lock, and such an owner is judged by that (lock-judge.ts).
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { errnoOf, LockFile, removeQuietly } from './lock-file.ts';
import { HEARTBEAT_MS, identityOf } from './lock-host.ts';
import { formatUser, judgeOwner, userMarkerName, type Verdict } from './lock-judge.ts';
import { isAlive, type LockOwner } from './lock-owner.ts';

export const LockLevel = { None: 0, Shared: 1, Reserved: 2, Pending: 3, Exclusive: 4 } as const;

/** `s` reader, `u` user, `t` a user marker being refreshed (older ctxgates know only `s` and `u`). */
const MARKER = /^([sut])\.(\d+)\.(\d+|unknown)\.(\d+)$/;

type MarkerKind = 's' | 'u' | 't';

/** The folder holding a database's locks. */
export function lockDirOf(dbPath: string): string {
  return `${dbPath}-lock`;
}

export function markerName(kind: MarkerKind, owner: LockOwner): string {
  return `${kind}.${owner.pid}.${owner.startTime}.${owner.conn}`;
}

export function parseMarker(name: string): { kind: MarkerKind; owner: LockOwner } | undefined {
  const m = MARKER.exec(name);
  return m ? { kind: m[1] as MarkerKind, owner: { pid: Number(m[2]), startTime: m[3]!, conn: Number(m[4]) } } : undefined;
}

/**
 * Makes the lock folder. Before it, ctxgate held a database for a server's whole life with a plain
 * file at this path: a live holder of such a lock is an older ctxgate still running (refused, so
 * the two never write at once); a dead one's file is removed.
 */
export function ensureLockDir(runtime: Runtime, dbPath: string): { legacyHolder: number } | undefined {
  const dir = lockDirOf(dbPath);
  const st = runtime.fs.lstatSync(dir);
  if (st?.isDirectory) return undefined;
  if (st) {
    const m = /^(\d+) (\S+)\n$/.exec(safeRead(runtime, dir));
    const owner = m ? { pid: Number(m[1]), startTime: m[2]!, conn: 0 } : undefined;
    if (owner && isAlive(runtime, owner)) return { legacyHolder: owner.pid };
    removeQuietly(runtime, dir);
  }
  try {
    runtime.fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
  }
  return undefined;
}

function safeRead(runtime: Runtime, file: string): string {
  try {
    return runtime.fs.readTextFileSync(file);
  } catch {
    return '';
  }
}

export interface DatabaseLockOptions {
  /** Where a lock broken because its owner elsewhere stopped beating is reported (a warning). */
  logger?: Logger;
  /** Now, in ms since the epoch (tests move it). */
  clock?: () => number;
}

export class DatabaseLock {
  readonly dir: string;
  readonly me: LockOwner;
  private readonly dbPath: string;
  private readonly runtime: Runtime;
  private readonly logger: Logger | undefined;
  private readonly clock: () => number;
  private readonly reserved: LockFile;
  private readonly pending: LockFile;
  private readonly shared: string;
  private readonly user: string;
  private readonly openedAt: number;
  private current: number = LockLevel.None;
  private lastBeat = 0;
  private beating: ReturnType<typeof setInterval> | undefined;
  /** Set when a lock this connection held was broken meanwhile (it stalled past the expiry). */
  private lost = false;
  private readonly reported = new Set<string>();

  constructor(runtime: Runtime, dbPath: string, me: LockOwner, options: DatabaseLockOptions = {}) {
    this.runtime = runtime;
    this.me = me;
    this.dbPath = dbPath;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.openedAt = this.clock();
    this.dir = lockDirOf(dbPath);
    this.reserved = new LockFile(runtime, path.join(this.dir, 'reserved'), me, (owner) => this.alive(owner, 'reserved'));
    this.pending = new LockFile(runtime, path.join(this.dir, 'pending'), me, (owner) => this.alive(owner, 'pending'));
    this.shared = path.join(this.dir, markerName('s', me));
    this.user = path.join(this.dir, userMarkerName(me));
  }

  get level(): number {
    return this.current;
  }

  /** Makes the folder and says this connection uses the database, and where it runs. */
  open(): void {
    ensureLockDir(this.runtime, this.dbPath);
    pruneDeadMarkers(this.runtime, this.dir, (owner, entry, verdict) => this.report(owner, entry, verdict));
    this.lastBeat = this.clock();
    placeMarker(this.runtime, this.user, this.userTarget(this.lastBeat));
    // While a lock is held across event-loop turns (exclusive mode, a transaction spanning awaits).
    this.beating = setInterval(() => {
      if (this.current > LockLevel.None) this.beatIfDue();
    }, HEARTBEAT_MS);
    (this.beating as { unref?: () => void }).unref?.();
  }

  close(): void {
    clearInterval(this.beating);
    this.unlock(LockLevel.None);
    removeQuietly(this.runtime, this.user);
  }

  /** Raises the lock to `level`; false means busy (SQLite retries through its busy handler). */
  lock(level: number): boolean {
    if (level <= this.current) return true;
    if (this.lost) throw new Error(`a lock on ${this.dbPath} was broken while this process stalled; the transaction must start over`);
    if (this.current === LockLevel.None) {
      // A fresh beat before the first lock: others judge this lock by it if this process runs elsewhere.
      this.beatIfDue();
      placeMarker(this.runtime, this.shared, '');
      if (this.pending.liveOther()) {
        removeQuietly(this.runtime, this.shared);
        return false;
      }
      this.current = LockLevel.Shared;
    }
    if (level === LockLevel.Reserved) {
      if (!this.reserved.tryAcquire().ok) return false;
      this.current = LockLevel.Reserved;
    } else if (level === LockLevel.Exclusive) {
      // From SHARED too: a hot journal is rolled back without RESERVED, as in SQLite's unix VFS.
      if (!this.pending.tryAcquire().ok) return false;
      this.current = Math.max(this.current, LockLevel.Pending);
      if (this.otherReaders()) return false;
      this.current = LockLevel.Exclusive;
    }
    return true;
  }

  /** Lowers the lock to SHARED or NONE. */
  unlock(level: number): void {
    if (level < LockLevel.Pending) this.pending.release();
    if (level < LockLevel.Reserved) this.reserved.release();
    if (level === LockLevel.None && this.current > LockLevel.None) removeQuietly(this.runtime, this.shared);
    if (level === LockLevel.None) this.lost = false;
    this.current = Math.min(this.current, level);
  }

  /**
   * Before the database file is written: false when a lock this connection holds was broken
   * meanwhile (the process stalled past the expiry and another machine took over), so nothing is
   * written over the new holder's work. Checked with each heartbeat, so it costs a clock read.
   */
  mayWrite(): boolean {
    this.beatIfDue();
    return !this.lost;
  }

  /** Whether some connection is writing (for SQLite's hot-journal check: a journal nobody writes is hot). */
  reservedElsewhere(): boolean {
    if (this.current >= LockLevel.Reserved) return true;
    return this.reserved.liveOther() !== undefined || this.pending.liveOther() !== undefined;
  }

  /** Live readers besides this connection; dead ones' markers are removed on the way. */
  private otherReaders(): boolean {
    const mine = path.basename(this.shared);
    for (const name of listLockDir(this.runtime, this.dir)) {
      if (name === mine) continue;
      const marker = parseMarker(name);
      if (marker?.kind !== 's') continue;
      if (this.alive(marker.owner, name)) return true;
      removeQuietly(this.runtime, path.join(this.dir, name));
    }
    return false;
  }

  /** Judges an owner; one that ran elsewhere and is given up is reported once. */
  private alive(owner: LockOwner, entry: string): boolean {
    const verdict = judgeOwner(this.runtime, this.dir, owner, this.clock());
    if (!verdict.alive && verdict.where !== 'here') this.report(owner, entry, verdict);
    return verdict.alive;
  }

  private report(owner: LockOwner, entry: string, verdict: Verdict): void {
    const key = `${entry} ${owner.pid} ${owner.startTime} ${owner.conn}`;
    if (this.reported.has(key)) return;
    if (this.reported.size > 100) this.reported.clear();
    this.reported.add(key);
    this.logger?.log('storage_lock_expired', {
      level: 'warn',
      database: this.dbPath,
      lock: entry,
      pid: owner.pid,
      host: verdict.host,
      why: verdict.where === 'earlier-boot' ? 'held in an earlier boot of this machine' : 'no heartbeat from another machine or pid namespace',
      silent_s: Math.round((verdict.silentMs ?? 0) / 1000),
    });
  }

  private userTarget(beatAt: number): string {
    const identity = identityOf(this.runtime);
    return formatUser({ openedAt: this.openedAt, runtime: this.runtime.name, beatAt, ...(identity ? { identity } : {}) });
  }

  /** Refreshes the heartbeat when it is due, after checking that what this connection holds is still its own. */
  private beatIfDue(): void {
    const now = this.clock();
    // Without an identity (no /proc) this connection is judged by pid everywhere: nothing to beat.
    if (now - this.lastBeat < HEARTBEAT_MS || !identityOf(this.runtime)) return;
    if (this.current > LockLevel.None && !this.lost && !this.holdsStill()) {
      this.lost = true;
      this.logger?.log('storage_lock_lost', { level: 'warn', database: this.dbPath, stalled_s: Math.round((now - this.lastBeat) / 1000) });
    }
    this.lastBeat = now;
    replaceMarker(this.runtime, this.user, path.join(this.dir, markerName('t', this.me)), this.userTarget(now));
  }

  private holdsStill(): boolean {
    if (this.reserved.isHeld && !this.reserved.stillMine()) return false;
    if (this.pending.isHeld && !this.pending.stillMine()) return false;
    return this.runtime.fs.lstatSync(this.shared) !== undefined;
  }
}

function placeMarker(runtime: Runtime, file: string, target: string): void {
  try {
    runtime.fs.files.symlink(target || '.', file);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error; // ours already (a marker name is unique to a connection)
  }
}

/** Replaces a marker in one step (a new link renamed over it), so it is never missing meanwhile. */
function replaceMarker(runtime: Runtime, file: string, temp: string, target: string): void {
  try {
    removeQuietly(runtime, temp);
    runtime.fs.files.symlink(target, temp);
    runtime.fs.renameSync(temp, file);
  } catch {
    // The folder is gone or unwritable: the next beat tries again.
    removeQuietly(runtime, temp);
  }
}

/**
 * Removes the markers of connections that are gone (a marker's name is unique to its connection),
 * user markers last: they say where the owners of the others run. A user marker of a connection
 * elsewhere is kept even when it has stopped beating — it is what says where that connection's locks
 * are held — and goes only when that machine finds the connection gone, or reboots.
 */
export function pruneDeadMarkers(runtime: Runtime, dir: string, report?: (owner: LockOwner, entry: string, verdict: Verdict) => void): void {
  const now = Date.now();
  const markers = listLockDir(runtime, dir).flatMap((name) => {
    const marker = parseMarker(name);
    return marker ? [{ name, ...marker }] : [];
  });
  markers.sort((a, b) => Number(a.kind === 'u') - Number(b.kind === 'u'));
  for (const { name, kind, owner } of markers) {
    const verdict = judgeOwner(runtime, dir, owner, now);
    if (verdict.alive || (kind !== 's' && verdict.where === 'foreign')) continue;
    if (kind === 's' && verdict.where !== 'here') report?.(owner, name, verdict);
    removeQuietly(runtime, path.join(dir, name));
  }
}

export function listLockDir(runtime: Runtime, dir: string): string[] {
  try {
    return runtime.fs.readDirSync(dir).map((e) => e.name);
  } catch {
    return [];
  }
}
