// A cross-process lock without fcntl (Node has none): a symbolic link whose target names the owner
// (`pid start conn`). Creating a link is atomic and fails when one exists, so taking the lock and
// saying who took it is one step — there is no half-written lock file to misread, and no disk block
// is needed (a full disk cannot stop a rollback from taking its lock). A lock whose owner is dead, or
// whose pid now belongs to another process, is stale: it is broken under a guard link, so two
// breakers never both act. Whether an owner is alive is the caller's judgement (by pid here, by
// heartbeat for an owner on another machine: lock-judge.ts); by default it is the pid check.
import type { Runtime } from '../runtime/types.ts';
import { formatOwner, isAlive, type LockOwner, parseOwner, sameOwner } from './lock-owner.ts';

/** Whether the owner a lock names still holds it. */
export type OwnerCheck = (owner: LockOwner) => boolean;

export type AcquireResult = { ok: true } | { ok: false; owner: LockOwner | undefined };

export function errnoOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Who a lock link names; `undefined` when there is none, `null` when it holds something unreadable. */
export function readLock(runtime: Runtime, file: string): LockOwner | undefined | null {
  let text: string;
  try {
    text = runtime.fs.readlinkSync(file);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    // EINVAL: a plain file (nothing this code writes): unreadable, so stale.
    return null;
  }
  return parseOwner(text) ?? null;
}

export function removeQuietly(runtime: Runtime, file: string): void {
  try {
    runtime.fs.files.unlink(file);
  } catch {
    // gone already
  }
}

export class LockFile {
  readonly path: string;
  private readonly runtime: Runtime;
  private readonly me: LockOwner;
  private readonly alive: OwnerCheck;
  private held = false;

  constructor(runtime: Runtime, path: string, me: LockOwner, alive: OwnerCheck = (owner) => isAlive(runtime, owner)) {
    this.runtime = runtime;
    this.path = path;
    this.me = me;
    this.alive = alive;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Who holds the lock now, if anyone (dead owners included). */
  owner(): LockOwner | undefined {
    return readLock(this.runtime, this.path) ?? undefined;
  }

  /** The owner when it is another connection that is still running. */
  liveOther(): LockOwner | undefined {
    const owner = readLock(this.runtime, this.path);
    if (!owner || sameOwner(owner, this.me)) return undefined;
    return this.alive(owner) ? owner : undefined;
  }

  /** Held by this connection and still naming it (a lock can be broken while its holder stalls). */
  stillMine(): boolean {
    const owner = readLock(this.runtime, this.path);
    return this.held && owner !== null && owner !== undefined && sameOwner(owner, this.me);
  }

  tryAcquire(): AcquireResult {
    if (this.held) return { ok: true };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (link(this.runtime, this.me, this.path)) {
        this.held = true;
        return { ok: true };
      }
      const owner = readLock(this.runtime, this.path);
      if (owner === undefined) continue; // released in between: try again
      if (owner && sameOwner(owner, this.me)) {
        this.held = true; // ours, left by an earlier call that failed half-way
        return { ok: true };
      }
      if (owner && this.alive(owner)) return { ok: false, owner };
      if (!this.breakStale(owner)) return { ok: false, owner: owner ?? undefined };
    }
    return { ok: false, owner: this.owner() };
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    const owner = readLock(this.runtime, this.path);
    if (owner && sameOwner(owner, this.me)) removeQuietly(this.runtime, this.path);
  }

  /** Removes a stale lock under the guard; false when another breaker holds the guard. */
  private breakStale(seen: LockOwner | null): boolean {
    const guard = `${this.path}.guard`;
    if (!link(this.runtime, this.me, guard)) {
      breakDeadGuard(this.runtime, guard, this.me, this.alive);
      return false;
    }
    try {
      const now = readLock(this.runtime, this.path);
      const same = now === seen || (now && seen && sameOwner(now, seen));
      if (same && !(now && this.alive(now))) removeQuietly(this.runtime, this.path);
      return true;
    } finally {
      const owner = readLock(this.runtime, guard);
      if (owner && sameOwner(owner, this.me)) removeQuietly(this.runtime, guard);
    }
  }
}

/** Creates the lock link; false when it exists already. */
function link(runtime: Runtime, me: LockOwner, file: string): boolean {
  try {
    runtime.fs.files.symlink(formatOwner(me), file);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * A breaker that died holding the guard must not block everyone forever. The dead guard is moved
 * aside first and checked there, so a guard taken by a live breaker a moment ago is put back instead
 * of being deleted.
 */
function breakDeadGuard(runtime: Runtime, guard: string, me: LockOwner, alive: OwnerCheck): void {
  const owner = readLock(runtime, guard);
  if (owner === undefined || (owner && alive(owner))) return;
  const aside = `${guard}.${me.pid}.${me.conn}`;
  try {
    runtime.fs.renameSync(guard, aside);
  } catch {
    return; // someone else moved it
  }
  const moved = readLock(runtime, aside);
  if (moved && alive(moved)) {
    try {
      runtime.fs.files.symlink(formatOwner(moved), guard);
    } catch {
      // a new guard exists already: its holder goes first
    }
  }
  removeQuietly(runtime, aside);
}
