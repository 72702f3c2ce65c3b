// Who uses a database right now, read from its lock folder: every open connection leaves a marker
// `u.<pid>.<start>.<conn>` pointing at `<opened-at ms> <runtime> [<beat-at> <host> <boot>]`, and the
// writer holds `reserved`. Markers of processes that died are removed on the way (for
// `ctxgate doctor` and busy messages); a connection on another machine is named with its host.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { listLockDir, lockDirOf, parseMarker, pruneDeadMarkers } from './database-lock.ts';
import { readLock } from './lock-file.ts';
import { judgeOwner, parseUser } from './lock-judge.ts';

export interface DatabaseUser {
  pid: number;
  /** When the connection opened the database (ms since the epoch). */
  since: number;
  runtime: string;
  /** The machine (or container) it runs on, when that is not this one: its pid means nothing here. */
  host?: string;
  /** For a connection elsewhere: its last heartbeat (ms since the epoch). */
  lastSeen?: number;
}

export interface DatabaseUse {
  users: DatabaseUser[];
  /** The process writing at this moment, and since when. */
  writer?: { pid: number; since: number; host?: string };
  readers: number;
}

export function databaseUse(runtime: Runtime, dbPath: string): DatabaseUse {
  const dir = lockDirOf(dbPath);
  const use: DatabaseUse = { users: [], readers: 0 };
  pruneDeadMarkers(runtime, dir);
  for (const name of listLockDir(runtime, dir)) {
    const marker = parseMarker(name);
    if (!marker) continue;
    const file = path.join(dir, name);
    if (marker.kind === 's') {
      use.readers++;
      continue;
    }
    if (marker.kind !== 'u') continue;
    let target = '';
    try {
      target = runtime.fs.readlinkSync(file);
    } catch {
      continue; // closed in between
    }
    const record = parseUser(target);
    const user: DatabaseUser = { pid: marker.owner.pid, since: record.openedAt, runtime: record.runtime };
    const verdict = judgeOwner(runtime, dir, marker.owner);
    if (verdict.where === 'foreign' && record.identity) Object.assign(user, { host: record.identity.host, lastSeen: record.beatAt });
    use.users.push(user);
  }
  use.users.sort((a, b) => a.since - b.since || a.pid - b.pid);
  const writer = writerOf(runtime, dbPath);
  if (writer) use.writer = writer;
  return use;
}

function writerOf(runtime: Runtime, dbPath: string): { pid: number; since: number; host?: string } | undefined {
  const dir = lockDirOf(dbPath);
  const file = path.join(dir, 'reserved');
  const owner = readLock(runtime, file);
  if (!owner) return undefined;
  const verdict = judgeOwner(runtime, dir, owner);
  if (!verdict.alive) return undefined;
  const since = runtime.fs.lstatSync(file)?.mtimeMs ?? Date.now();
  return verdict.where === 'foreign' && verdict.host !== undefined ? { pid: owner.pid, since, host: verdict.host } : { pid: owner.pid, since };
}

/** "pid 123 (writing for 4.2 s)" for busy messages, when another process is writing. */
export function describeWriter(runtime: Runtime, dbPath: string): string | undefined {
  const writer = writerOf(runtime, dbPath);
  if (!writer || (writer.pid === runtime.pid && writer.host === undefined)) return undefined;
  const where = writer.host === undefined ? '' : ` on ${writer.host}`;
  return `pid ${writer.pid}${where} (writing for ${((Date.now() - writer.since) / 1000).toFixed(1)} s)`;
}
