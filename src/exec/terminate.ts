// Ends a set of processes picked from the process list: TERM, a grace period, then KILL. The set is
// picked afresh on every look, so a process forked meanwhile is caught, and a pid that was reused by
// an unrelated process drops out (the picker decides by marker or group, not by pid alone).
import type { ChildHandle, ProcessInfo, Runtime } from '../runtime/types.ts';
import { settlesWithin, sleep } from '../time/within.ts';

export const KILL_GRACE_MS = 2000;
const POLL_MS = 25;

export type ProcessPicker = (processes: ProcessInfo[]) => ProcessInfo[];
/** A fresh look at the process table (taken after the call). */
export type ProcessScan = () => ProcessInfo[] | Promise<ProcessInfo[]>;


/**
 * Ends a child's process group: TERM, then KILL once the leader has exited or the grace is over
 * (grandchildren may linger after the leader); resolves when the leader is gone. False when the group
 * was already gone.
 */
export async function terminateGroup(child: ChildHandle, exited: Promise<unknown>, graceMs = KILL_GRACE_MS): Promise<boolean> {
  if (!child.killGroup('SIGTERM')) return false;
  const gone = await settlesWithin(exited, graceMs);
  child.killGroup('SIGKILL');
  if (!gone) await exited;
  return true;
}

/** How long the first look waits for processes it cannot judge yet (see `unsure`). */
export const SETTLE_MS = 500;

export interface EndOptions {
  graceMs?: number;
  /**
   * A process the picker cannot judge yet: one caught in the middle of an exec reads an empty
   * environment for a moment, so a marked process would be missed. While any process is unsure, the
   * first look is taken again (every few ms, at most SETTLE_MS). `byPid` is the same look by pid.
   */
  unsure?: (p: ProcessInfo, byPid: ReadonlyMap<number, ProcessInfo>) => boolean;
}

/** Returns how many processes there were to end. */
export async function endProcesses(runtime: Runtime, scan: ProcessScan, pick: ProcessPicker, options: EndOptions = {}): Promise<number> {
  const graceMs = options.graceMs ?? KILL_GRACE_MS;
  const look = async () => pick(await scan());
  let all = await scan();
  const { unsure } = options;
  if (unsure) {
    const settleBy = Date.now() + SETTLE_MS;
    const anyUnsure = (list: ProcessInfo[]) => {
      if (!list.some((p) => p.envEmpty)) return false;
      const byPid = new Map(list.map((p) => [p.pid, p]));
      return list.some((p) => unsure(p, byPid));
    };
    while (anyUnsure(all) && Date.now() < settleBy) {
      await sleep(POLL_MS / 5);
      all = await scan();
    }
  }
  const first = pick(all);
  if (first.length === 0) return 0;
  for (const p of first) runtime.signalProcess(p.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let left = await look();
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(POLL_MS);
    left = await look();
  }
  // KILL again until they are gone (a process that keeps forking), within a second grace period.
  const killDeadline = Date.now() + graceMs;
  while (left.length > 0) {
    for (const p of left) runtime.signalProcess(p.pid, 'SIGKILL');
    if (Date.now() >= killDeadline) break;
    await sleep(POLL_MS);
    left = await look();
  }
  return first.length;
}
