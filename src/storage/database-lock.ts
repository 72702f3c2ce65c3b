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
// leaves is rolled back by the next reader.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { errnoOf, LockFile, removeQuietly } from './lock-file.ts';
import { isAlive, type LockOwner } from './lock-owner.ts';

export const LockLevel = { None: 0, Shared: 1, Reserved: 2, Pending: 3, Exclusive: 4 } as const;

const MARKER = /^([su])\.(\d+)\.(\d+|unknown)\.(\d+)$/;

/** The folder holding a database's locks. */
export function lockDirOf(dbPath: string): string {
  return `${dbPath}-lock`;
}

export function markerName(kind: 's' | 'u', owner: LockOwner): string {
  return `${kind}.${owner.pid}.${owner.startTime}.${owner.conn}`;
}

export function parseMarker(name: string): { kind: 's' | 'u'; owner: LockOwner } | undefined {
  const m = MARKER.exec(name);
  return m ? { kind: m[1] as 's' | 'u', owner: { pid: Number(m[2]), startTime: m[3]!, conn: Number(m[4]) } } : undefined;
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

export class DatabaseLock {
  readonly dir: string;
  readonly me: LockOwner;
  private readonly dbPath: string;
  private readonly runtime: Runtime;
  private readonly reserved: LockFile;
  private readonly pending: LockFile;
  private readonly shared: string;
  private readonly user: string;
  private current: number = LockLevel.None;

  constructor(runtime: Runtime, dbPath: string, me: LockOwner) {
    this.runtime = runtime;
    this.me = me;
    this.dbPath = dbPath;
    this.dir = lockDirOf(dbPath);
    this.reserved = new LockFile(runtime, path.join(this.dir, 'reserved'), me);
    this.pending = new LockFile(runtime, path.join(this.dir, 'pending'), me);
    this.shared = path.join(this.dir, markerName('s', me));
    this.user = path.join(this.dir, markerName('u', me));
  }

  get level(): number {
    return this.current;
  }

  /** Makes the folder and says this connection uses the database (for `ctxgate doctor`). */
  open(): void {
    ensureLockDir(this.runtime, this.dbPath);
    pruneDeadMarkers(this.runtime, this.dir);
    placeMarker(this.runtime, this.user, `${Date.now()} ${this.runtime.name}`);
  }

  close(): void {
    this.unlock(LockLevel.None);
    removeQuietly(this.runtime, this.user);
  }

  /** Raises the lock to `level`; false means busy (SQLite retries through its busy handler). */
  lock(level: number): boolean {
    if (level <= this.current) return true;
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
    this.current = Math.min(this.current, level);
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
      if (isAlive(this.runtime, marker.owner)) return true;
      removeQuietly(this.runtime, path.join(this.dir, name));
    }
    return false;
  }
}

function placeMarker(runtime: Runtime, file: string, target: string): void {
  try {
    runtime.fs.files.symlink(target || '.', file);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error; // ours already (a marker name is unique to a connection)
  }
}

/** Removes the markers of connections whose process is gone (a marker's name is unique to its connection). */
export function pruneDeadMarkers(runtime: Runtime, dir: string): void {
  for (const name of listLockDir(runtime, dir)) {
    const marker = parseMarker(name);
    if (marker && !isAlive(runtime, marker.owner)) removeQuietly(runtime, path.join(dir, name));
  }
}

export function listLockDir(runtime: Runtime, dir: string): string[] {
  try {
    return runtime.fs.readDirSync(dir).map((e) => e.name);
  } catch {
    return [];
  }
}
