// Cross-process locking without fcntl: a lock file beside the database holding the owner's pid and
// kernel start time. A lock whose owner is dead (or whose pid now belongs to another process) is
// stale and is broken under a guard file, so two breakers can never both win.
import type { Runtime } from '../runtime/types.ts';

export interface LockOwner {
  pid: number;
  startTime: string;
}

const UNREADABLE_GRACE_MS = 2000;

export type AcquireResult = { ok: true } | { ok: false; owner: LockOwner | undefined };

function errnoOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

export class LockFile {
  readonly path: string;
  private readonly runtime: Runtime;
  private readonly me: LockOwner;
  private held = false;

  constructor(runtime: Runtime, path: string) {
    this.runtime = runtime;
    this.path = path;
    this.me = { pid: runtime.pid, startTime: runtime.processStartTime(runtime.pid) ?? 'unknown' };
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Who holds the lock now, as written in the file (undefined: nobody, or unreadable). */
  owner(): LockOwner | undefined {
    return readOwner(this.runtime, this.path);
  }

  tryAcquire(): AcquireResult {
    if (this.held) return { ok: true };
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.create(this.path)) {
        this.held = true;
        return { ok: true };
      }
      const owner = this.owner();
      if (owner && isAlive(this.runtime, owner)) return { ok: false, owner };
      // An unreadable lock may be one being written this very moment: only an old one is stale.
      if (!owner && Date.now() - (this.runtime.fs.lstatSync(this.path)?.mtimeMs ?? 0) < UNREADABLE_GRACE_MS) return { ok: false, owner };
      // Dead or reused-pid owner (or a half-written file): break it, then try once more.
      if (!this.breakStale(owner)) return { ok: false, owner };
    }
    return { ok: false, owner: this.owner() };
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    const owner = this.owner();
    if (owner && owner.pid === this.me.pid && owner.startTime === this.me.startTime) {
      try {
        this.runtime.fs.files.unlink(this.path);
      } catch {
        // already gone
      }
    }
  }

  private create(file: string): boolean {
    const files = this.runtime.fs.files;
    let fd: number;
    try {
      fd = files.open(file, 'wx', 0o600);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      files.write(fd, new TextEncoder().encode(`${this.me.pid} ${this.me.startTime}\n`), 0);
      files.sync(fd);
    } finally {
      files.close(fd);
    }
    return true;
  }

  /** Removes a stale lock under the guard; false when another breaker holds the guard. */
  private breakStale(seen: LockOwner | undefined): boolean {
    const guard = `${this.path}.guard`;
    if (!this.create(guard)) {
      const guardOwner = readOwner(this.runtime, guard);
      // A breaker that died holding the guard must not block everyone forever.
      if (guardOwner && !isAlive(this.runtime, guardOwner)) removeQuietly(this.runtime, guard);
      return false;
    }
    try {
      const now = this.owner();
      const same = (now === undefined && seen === undefined) || (now && seen && now.pid === seen.pid && now.startTime === seen.startTime);
      if (same && !(now && isAlive(this.runtime, now))) removeQuietly(this.runtime, this.path);
      return true;
    } finally {
      removeQuietly(this.runtime, guard);
    }
  }
}

function removeQuietly(runtime: Runtime, file: string): void {
  try {
    runtime.fs.files.unlink(file);
  } catch {
    // gone already
  }
}

function readOwner(runtime: Runtime, file: string): LockOwner | undefined {
  let text: string;
  try {
    text = runtime.fs.readTextFileSync(file);
  } catch {
    return undefined;
  }
  const m = /^(\d+) (\S+)\n$/.exec(text);
  if (!m) return undefined;
  return { pid: Number(m[1]), startTime: m[2]! };
}

/** Alive and the same process that wrote the lock (not a later process that got the pid). */
export function isAlive(runtime: Runtime, owner: LockOwner): boolean {
  const start = runtime.processStartTime(owner.pid);
  if (start === undefined) return false;
  return owner.startTime === 'unknown' || start === owner.startTime;
}
