// Where a lock owner runs. A pid and a start time mean something only within one boot of one machine
// and one pid namespace (what runtime.bootIdentity() names, as the run registries of exec/tracker.ts
// do), and a data folder may be shared beyond that: a network home, a volume two containers mount.
// An owner from elsewhere cannot be checked through this machine's /proc, so it is judged by its
// heartbeat instead; one from an earlier boot of this machine cannot exist any more.
import type { Runtime } from '../runtime/types.ts';

export interface HostIdentity {
  host: string;
  /** Linux's boot id, then the pid namespace (`<boot id> pid:[n]`), as bootIdentity() gives it. */
  boot: string;
}

/** How often a connection that holds a lock refreshes its heartbeat. */
export const HEARTBEAT_MS = 10_000;

/**
 * How long the lock of an owner on another machine or in another pid namespace is honoured without
 * a heartbeat: 30 missed beats. It has to outlast anything a live holder survives (a thread blocked
 * in a long statement, heavy swapping, clocks of two machines that disagree by a minute); what it
 * costs is that a machine which crashed while holding a lock keeps the others waiting this long —
 * busy errors, never two writers.
 */
export const FOREIGN_EXPIRY_MS = 5 * 60_000;

/** `here`: judge by pid; `earlier-boot`: gone; `foreign`: judge by heartbeat. */
export type Whereabouts = 'here' | 'earlier-boot' | 'foreign';

const identities = new WeakMap<Runtime, HostIdentity | null>();

/** This process's identity (read once: it does not change while the process runs). */
export function identityOf(runtime: Runtime): HostIdentity | undefined {
  let known = identities.get(runtime);
  if (known === undefined) {
    const found = runtime.bootIdentity();
    // Fields are separated by spaces where they are written down; a host name never holds one.
    known = found ? { host: found.host.replace(/\s/g, '_') || '-', boot: found.boot } : null;
    identities.set(runtime, known);
  }
  return known ?? undefined;
}

/** The kernel's boot id alone (containers on one kernel share it; their pid namespaces differ). */
export function kernelBoot(boot: string): string {
  return boot.split(' ')[0] ?? boot;
}

/** When this machine booted (ms since the epoch); undefined without /proc. */
export function bootedAt(runtime: Runtime, now: number): number | undefined {
  const ticks = runtime.ticksSinceBoot();
  // Clock ticks are USER_HZ, 100 per second on Linux.
  return ticks === undefined ? undefined : now - ticks * 10;
}

/**
 * Where an owner that names `owner` as its identity runs, seen from this process. `lastSeen` is its
 * latest heartbeat: an owner naming this host and another boot counts as an earlier boot only when
 * it was last seen before this machine booted — two machines may share a host name, and a live one
 * keeps beating after this boot began. An owner without an identity (an older ctxgate) is judged
 * here, as before.
 */
export function whereabouts(runtime: Runtime, owner: HostIdentity | undefined, lastSeen: number, now: number): Whereabouts {
  if (!owner) return 'here';
  const mine = identityOf(runtime);
  if (!mine) return 'foreign';
  if (owner.host === mine.host && owner.boot === mine.boot) return 'here';
  if (owner.host === mine.host && kernelBoot(owner.boot) !== kernelBoot(mine.boot)) {
    const booted = bootedAt(runtime, now);
    // One second of slack: uptime is rounded down to a tick, and the beat to a millisecond.
    if (booted !== undefined && lastSeen < booted - 1000) return 'earlier-boot';
  }
  return 'foreign';
}

/** A foreign owner's lock still counts: it beat within the expiry (a beat from the future counts too). */
export function beatRecently(lastSeen: number, now: number): boolean {
  return now - lastSeen < FOREIGN_EXPIRY_MS;
}
