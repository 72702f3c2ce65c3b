// Whether the owner a lock names still holds it. Lock links keep the format older ctxgates read
// (`pid start conn`), so that a mixed pair on one host still excludes each other; where the owner
// runs is said by its connection's user marker `u.<pid>.<start>.<conn>` in the same lock folder,
// placed before the connection takes any lock:
//   `<opened-at> <runtime> <beat-at> <host> <boot id> <pid namespace>`
// (an older ctxgate writes the first two fields only and is judged by pid, as before). `beat-at` is
// refreshed while the connection is open (database-lock.ts), and is what an owner from another
// machine or pid namespace is judged by.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { beatRecently, type HostIdentity, type Whereabouts, whereabouts } from './lock-host.ts';
import { isAlive, type LockOwner } from './lock-owner.ts';

export interface UserRecord {
  /** When the connection opened the database (ms since the epoch). */
  openedAt: number;
  runtime: string;
  /** Its latest heartbeat; only connections that name their host have one. */
  beatAt?: number;
  identity?: HostIdentity;
}

export interface Verdict {
  alive: boolean;
  where: Whereabouts;
  /** For an owner elsewhere: its host, and how long since it last gave a sign of life. */
  host?: string;
  silentMs?: number;
}

export function userMarkerName(owner: LockOwner): string {
  return `u.${owner.pid}.${owner.startTime}.${owner.conn}`;
}

/** The identity comes from identityOf (lock-host.ts), whose host name holds no space. */
export function formatUser(record: UserRecord): string {
  const head = `${record.openedAt} ${record.runtime}`;
  if (!record.identity) return head;
  return `${head} ${record.beatAt ?? record.openedAt} ${record.identity.host} ${record.identity.boot}`;
}

export function parseUser(text: string): UserRecord {
  const [opened, rt, beat, host, ...boot] = text.split(' ');
  const record: UserRecord = { openedAt: Number(opened) || 0, runtime: rt || '?' };
  const beatAt = Number(beat);
  if (host && boot.length && Number.isFinite(beatAt)) {
    record.beatAt = beatAt;
    record.identity = { host, boot: boot.join(' ') };
  }
  return record;
}

export function readUser(runtime: Runtime, dir: string, owner: LockOwner): UserRecord | undefined {
  try {
    return parseUser(runtime.fs.readlinkSync(path.join(dir, userMarkerName(owner))));
  } catch {
    return undefined;
  }
}

/**
 * Judges the owner of an entry in the lock folder `dir`: by pid and start time when it runs here (or
 * does not say where it runs), as gone when it ran in an earlier boot of this machine, and by its
 * heartbeat when it runs on another machine or in another pid namespace.
 */
export function judgeOwner(runtime: Runtime, dir: string, owner: LockOwner, now = Date.now()): Verdict {
  const user = readUser(runtime, dir, owner);
  const lastSeen = user?.beatAt ?? 0;
  const where = whereabouts(runtime, user?.identity, lastSeen, now);
  if (where === 'here' || !user?.identity) return { alive: isAlive(runtime, owner), where: 'here' };
  const away = { where, host: user.identity.host, silentMs: Math.max(0, now - lastSeen) };
  return { alive: where === 'foreign' && beatRecently(lastSeen, now), ...away };
}
