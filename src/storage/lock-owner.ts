// Who holds a lock: a process (pid + kernel start time, so a reused pid is not mistaken for the
// holder) and one of its connections (a process may open a database more than once).
import type { Runtime } from '../runtime/types.ts';

export interface LockOwner {
  pid: number;
  /** /proc/<pid>/stat field 22, or 'unknown' where /proc cannot be read. */
  startTime: string;
  /** Which connection of the process (0 when it does not matter; a random 31-bit start, then counted up). */
  conn: number;
}

// Connection numbers start at a random point: a pid and a start time are only unique within one
// machine, and processes on two machines sharing a data folder must not name the same owner.
let connections = crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1;

/** This process as a lock owner; each call for a new connection gets a new `conn`. */
export function ownerForConnection(runtime: Runtime): LockOwner {
  return { pid: runtime.pid, startTime: runtime.processStartTime(runtime.pid) ?? 'unknown', conn: ++connections };
}

/** `pid start conn`: the text a lock symlink points to. */
export function formatOwner(owner: LockOwner): string {
  return `${owner.pid} ${owner.startTime} ${owner.conn}`;
}

export function parseOwner(text: string): LockOwner | undefined {
  const m = /^(\d+) (\d+|unknown)(?: (\d+))?\n?$/.exec(text);
  return m ? { pid: Number(m[1]), startTime: m[2]!, conn: Number(m[3] ?? 0) } : undefined;
}

export function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.startTime === b.startTime && a.conn === b.conn;
}

/** The process that took the lock is still running (not a later process that got its pid). */
export function isAlive(runtime: Runtime, owner: LockOwner): boolean {
  const start = runtime.processStartTime(owner.pid);
  if (start !== undefined) return owner.startTime === 'unknown' || start === owner.startTime;
  // No /proc entry: the process is gone, unless this system has no /proc at all (macOS).
  if (runtime.processStartTime(runtime.pid) !== undefined) return false;
  return runtime.processExists(owner.pid);
}
