// Who uses a database right now, read from its lock folder: every open connection leaves a marker
// `u.<pid>.<start>.<conn>` pointing at `<opened-at ms> <runtime>`, and the writer holds `reserved`.
// Markers of processes that died are removed on the way (for `ctxgate doctor` and busy messages).
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { listLockDir, lockDirOf, parseMarker, pruneDeadMarkers } from './database-lock.ts';
import { readLock } from './lock-file.ts';
import { isAlive } from './lock-owner.ts';

export interface DatabaseUser {
  pid: number;
  /** When the connection opened the database (ms since the epoch). */
  since: number;
  runtime: string;
}

export interface DatabaseUse {
  users: DatabaseUser[];
  /** The process writing at this moment, and since when. */
  writer?: { pid: number; since: number };
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
    let target = '';
    try {
      target = runtime.fs.readlinkSync(file);
    } catch {
      continue; // closed in between
    }
    const [since, rt] = target.split(' ');
    use.users.push({ pid: marker.owner.pid, since: Number(since) || 0, runtime: rt ?? '?' });
  }
  use.users.sort((a, b) => a.since - b.since || a.pid - b.pid);
  const writer = writerOf(runtime, dbPath);
  if (writer) use.writer = writer;
  return use;
}

function writerOf(runtime: Runtime, dbPath: string): { pid: number; since: number } | undefined {
  const file = path.join(lockDirOf(dbPath), 'reserved');
  const owner = readLock(runtime, file);
  if (!owner || !isAlive(runtime, owner)) return undefined;
  return { pid: owner.pid, since: runtime.fs.lstatSync(file)?.mtimeMs ?? Date.now() };
}

/** "pid 123 (writing for 4.2 s)" for busy messages, when another process is writing. */
export function describeWriter(runtime: Runtime, dbPath: string): string | undefined {
  const writer = writerOf(runtime, dbPath);
  if (!writer || writer.pid === runtime.pid) return undefined;
  return `pid ${writer.pid} (writing for ${((Date.now() - writer.since) / 1000).toFixed(1)} s)`;
}
