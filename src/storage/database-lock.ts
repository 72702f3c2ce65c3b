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
// refreshed while the connection is open, and such an owner is judged by that (lock-judge.ts).
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { errnoOf, LockFile, removeQuietly } from './lock-file.ts';
import { Heartbeat } from './lock-heartbeat.ts';
import { HEARTBEAT_MS } from './lock-host.ts';
import { judgeOwner, type Verdict } from './lock-judge.ts';
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
  private readonly heartbeat: Heartbeat;
  private current: number = LockLevel.None;
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
    this.dir = lockDirOf(dbPath);
    this.reserved = new LockFile(runtime, path.join(this.dir, 'reserved'), me, (owner) => this.alive(owner, 'reserved'));
    this.pending = new LockFile(runtime, path.join(this.dir, 'pending'), me, (owner) => this.alive(owner, 'pending'));
    this.shared = path.join(this.dir, markerName('s', me));
    this.heartbeat = new Heartbeat(runtime, this.dir, me, this.clock);
  }

  get level(): number {
    return this.current;
  }

  /** Makes the folder and says this connection uses the database, and where it runs. */
  open(): void {
    ensureLockDir(this.runtime, this.dbPath);
    this.heartbeat.place();
    pruneDeadMarkers(this.runtime, this.dir, { fsNow: this.heartbeat.now(), report: (owner, entry, verdict) => this.report(owner, entry, verdict) });
    // While the connection is open, also between transactions: a lock held across event-loop turns
    // (exclusive mode, a transaction spanning awaits) is judged by it, and so is whether the data
    // folder is in use on another machine (foreign-machine.ts), which an idle server still is.
    this.beating = setInterval(() => this.beatIfDue(), HEARTBEAT_MS);
    (this.beating as { unref?: () => void }).unref?.();
  }

  close(): void {
    clearInterval(this.beating);
    this.unlock(LockLevel.None);
    this.heartbeat.remove();
  }

  /** Raises the lock to `level`; false means busy (SQLite retries through its busy handler). */
  lock(level: number): boolean {
    if (level <= this.current) return true;
    // A fresh beat before the first lock (others elsewhere judge this lock by it), and while SQLite's
    // busy handler keeps asking for a higher one (the thread sleeps there: no timer runs).
    this.beatIfDue();
    if (this.lost) throw new Error(`a lock on ${this.dbPath} was broken while this process stalled; the transaction must start over`);
    if (this.current === LockLevel.None) {
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
    const verdict = judgeOwner(this.runtime, this.dir, owner, this.heartbeat.now());
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

  /** Refreshes the heartbeat when it is due, after checking that what this connection holds is still its own. */
  private beatIfDue(): void {
    if (!this.heartbeat.due) return;
    if (this.current > LockLevel.None && !this.lost && !this.holdsStill()) {
      this.lost = true;
      this.logger?.log('storage_lock_lost', { level: 'warn', database: this.dbPath, stalled_s: Math.round(this.heartbeat.sinceMs / 1000) });
    }
    this.heartbeat.beat();
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

export interface PruneOptions {
  /**
   * Now on the file system's clock (lock-heartbeat.ts): only with it is a reader marker of another
   * machine judged by its heartbeat and removed; without it, such markers are left alone.
   */
  fsNow?: number;
  report?: (owner: LockOwner, entry: string, verdict: Verdict) => void;
}

/**
 * Removes the markers of connections that are gone (a marker's name is unique to its connection),
 * user markers last: they say where the owners of the others run. A user marker of a connection
 * elsewhere is kept even when it has stopped beating — it is what says where that connection's locks
 * are held — and goes only when that machine finds the connection gone, or reboots.
 */
export function pruneDeadMarkers(runtime: Runtime, dir: string, options: PruneOptions = {}): void {
  const now = options.fsNow ?? Date.now();
  const markers = listLockDir(runtime, dir).flatMap((name) => {
    const marker = parseMarker(name);
    return marker ? [{ name, ...marker }] : [];
  });
  markers.sort((a, b) => Number(a.kind === 'u') - Number(b.kind === 'u'));
  for (const { name, kind, owner } of markers) {
    const verdict = judgeOwner(runtime, dir, owner, now);
    if (verdict.alive) continue;
    if (verdict.where === 'foreign' && (kind !== 's' || options.fsNow === undefined)) continue;
    if (kind === 's' && verdict.where !== 'here') options.report?.(owner, name, verdict);
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
