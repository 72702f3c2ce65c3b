// A SQLite data folder is for the processes of one machine. Lock links are atomic on a local disk;
// on a network home or a volume two machines mount they are not always, and a second machine could
// take a live writer's lock. So a database whose lock folder shows a connection on another machine
// (another kernel boot, judged by the heartbeat in its user marker: lock-judge.ts) is refused at
// open, naming that machine. Containers of this machine (same kernel, another pid namespace) share
// one disk and one lock protocol, and go on sharing. A machine that stopped beating longer than the
// expiry ago is gone: its locks are taken over as before.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { listLockDir, parseMarker } from './database-lock.ts';
import { errnoOf, removeQuietly } from './lock-file.ts';
import { beatRecently, FOREIGN_EXPIRY_MS, identityOf, kernelBoot, whereabouts } from './lock-host.ts';
import { readUser } from './lock-judge.ts';

export interface MachineElsewhere {
  host: string;
  pid: number;
  /** How long since its last heartbeat (ms). */
  silentMs: number;
  /** How long until its lock counts as gone if it stops beating now (ms). */
  expiresInMs: number;
}

/**
 * The first live connection on another machine found in the lock folder `dir`, if any. Without an
 * identity of its own (no /proc) this process cannot tell machines apart, and refuses nothing.
 */
export function connectionElsewhere(runtime: Runtime, dir: string): MachineElsewhere | undefined {
  const mine = identityOf(runtime);
  if (!mine) return undefined;
  let now: number | undefined;
  for (const name of listLockDir(runtime, dir)) {
    const marker = parseMarker(name);
    if (marker?.kind !== 'u') continue;
    const user = readUser(runtime, dir, marker.owner);
    if (!user?.identity || user.beatAt === undefined) continue;
    if (kernelBoot(user.identity.boot) === kernelBoot(mine.boot)) continue; // this machine
    now ??= fileSystemNow(runtime, dir);
    // 'earlier-boot': this host name, last seen before this machine booted.
    if (whereabouts(runtime, user.identity, user.beatAt, now) !== 'foreign' || !beatRecently(user.beatAt, now)) continue;
    const silentMs = Math.max(0, now - user.beatAt);
    return { host: user.identity.host, pid: marker.owner.pid, silentMs, expiresInMs: Math.max(0, FOREIGN_EXPIRY_MS - silentMs) };
  }
  return undefined;
}

/**
 * Now on the lock folder's file system clock, where heartbeats are written (lock-heartbeat.ts): the
 * modification time of a link made for the purpose. This machine's clock when the folder cannot be
 * written.
 */
export function fileSystemNow(runtime: Runtime, dir: string): number {
  const probe = path.join(dir, `c.${runtime.pid}.${crypto.getRandomValues(new Uint32Array(1))[0]}`);
  const before = Date.now();
  try {
    runtime.fs.files.symlink('.', probe);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') return before;
  }
  const st = runtime.fs.lstatSync(probe);
  removeQuietly(runtime, probe);
  return st && Number.isFinite(st.mtimeMs) && st.mtimeMs > 0 ? st.mtimeMs + (Date.now() - before) / 2 : before;
}
