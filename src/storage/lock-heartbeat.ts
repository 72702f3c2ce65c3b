// A connection's user marker (`u.<pid>.<start>.<conn>` in the lock folder, format in lock-judge.ts)
// and its heartbeat. Beats are written on the file system's clock, not the machine's: each time the
// marker is written, the new link's modification time says how far this machine's clock is from the
// file system's (a local disk: the same clock; a network share: its server's). Machines whose clocks
// disagree — a laptop hours off after a dual boot — then still agree on how old a beat is, and a
// judge that is ahead never breaks a lock that is beating.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { errnoOf, removeQuietly } from './lock-file.ts';
import { HEARTBEAT_MS, identityOf } from './lock-host.ts';
import { formatUser, userMarkerName } from './lock-judge.ts';
import type { LockOwner } from './lock-owner.ts';

export class Heartbeat {
  private readonly runtime: Runtime;
  private readonly clock: () => number;
  private readonly file: string;
  /** A new marker is written here and renamed over the old one, so the marker is never missing. */
  private readonly temp: string;
  private readonly openedAt: number;
  private lastBeat = 0;
  /** The file system's clock minus this machine's. */
  private offset = 0;

  constructor(runtime: Runtime, dir: string, me: LockOwner, clock: () => number) {
    this.runtime = runtime;
    this.clock = clock;
    this.file = path.join(dir, userMarkerName(me));
    this.temp = path.join(dir, `t.${me.pid}.${me.startTime}.${me.conn}`);
    this.openedAt = clock();
  }

  /** Now, on the clock beats are written on. */
  now(): number {
    return this.clock() + this.offset;
  }

  /** Milliseconds since the last beat, on this machine's clock. */
  get sinceMs(): number {
    return this.clock() - this.lastBeat;
  }

  /** A beat is due, and means something (without an identity this connection is judged by pid). */
  get due(): boolean {
    return this.sinceMs >= HEARTBEAT_MS && identityOf(this.runtime) !== undefined;
  }

  /** Places the marker when the connection opens (before it takes any lock). */
  place(): void {
    const made = this.clock();
    try {
      this.runtime.fs.files.symlink(this.target(made), this.file);
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw error; // ours already (a marker name is unique to a connection)
      return;
    }
    this.lastBeat = made;
    // The first beat was written before the offset was known: write it again when the clocks differ.
    if (this.calibrate(this.file, made) && Math.abs(this.offset) > 1000) this.beat();
  }

  beat(): void {
    const made = this.clock();
    this.lastBeat = made;
    try {
      removeQuietly(this.runtime, this.temp);
      this.runtime.fs.files.symlink(this.target(made), this.temp);
      this.calibrate(this.temp, made);
      this.runtime.fs.renameSync(this.temp, this.file);
    } catch {
      // The folder is gone or unwritable: the next beat tries again.
      removeQuietly(this.runtime, this.temp);
    }
  }

  remove(): void {
    removeQuietly(this.runtime, this.file);
  }

  private target(made: number): string {
    const identity = identityOf(this.runtime);
    return formatUser({ openedAt: this.openedAt, runtime: this.runtime.name, beatAt: made + this.offset, ...(identity ? { identity } : {}) });
  }

  /** Learns the offset from a link just made; false when it cannot be read. */
  private calibrate(file: string, made: number): boolean {
    const st = this.runtime.fs.lstatSync(file);
    if (!st || !Number.isFinite(st.mtimeMs) || st.mtimeMs <= 0) return false;
    this.offset = st.mtimeMs - made;
    return true;
  }
}
