// Keeps what a command starts with the command (issue 11, item 8). Every child gets a marker variable,
// CTXGATE_RUN_ID=<server session>:<n>, that its descendants inherit even when they leave its process
// group (setsid, a double fork); when the command ends, every live process carrying the marker ends
// too. While commands run, a registry file in the data dir (runs/<pid>-<start time>-<session>.json,
// one per server, so servers sharing a data dir never race on it) names the session and the groups,
// and the next server on the project ends what a server that died without cleaning up left behind
// (on the same boot of the same machine: the registry names both).
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { ProcessInfo, Runtime } from '../runtime/types.ts';
import { bootedAt, kernelBoot } from '../storage/lock-host.ts';
import { isAlive, type LockOwner } from '../storage/lock-owner.ts';
import { endProcesses, type ProcessScan } from './terminate.ts';

export const RUN_MARKER = 'CTXGATE_RUN_ID';

export interface ProcessTracker {
  /** A fresh marker for a command about to start, and the command's environment with it added. */
  begin(env: Record<string, string>): { marker: string; env: Record<string, string> };
  /** The command's leader started: its group is recorded for the next server. */
  started(marker: string, pid: number | undefined): void;
  /** The command is over: whatever still carries its marker ends (TERM, then KILL), its record goes. */
  finish(marker: string): Promise<void>;
  /** A folder of this server's (job logs) that the next server removes if this one dies first. */
  ownFolder(dir: string): void;
  /** Ends, in the background, what dead servers left running on this data dir. */
  sweepDeadServers(): void;
  /** Waits for a running sweep and removes this server's registry file (after everything ended). */
  close(): Promise<void>;
}

export interface TrackerOptions {
  /** Names this server's markers; a fresh UUID when not given. */
  sessionId?: string;
  /** The data dir; without one nothing is recorded and there is nothing to sweep. */
  dataDir?: string;
  logger?: Logger;
}

interface GroupRecord {
  pgid: number;
  startTime: string;
}

/** The registry file's content. */
interface Registry {
  session: string;
  groups: GroupRecord[];
  /** Relative to the data dir. */
  folders: string[];
  /** The machine and boot the server ran in (pids and start times mean something only there). */
  host?: string;
  boot?: string;
}

/** `<pid>-<start time>-<session>.json`: the owner's identity, and unique even for two trackers in one process. */
const REGISTRY_NAME = /^(\d+)-(\d+)-[\w-]+\.json(\.tmp)?$/;

export function createProcessTracker(runtime: Runtime, options: TrackerOptions = {}): ProcessTracker {
  const session = options.sessionId ?? crypto.randomUUID();
  const me = { pid: runtime.pid, startTime: runtime.processStartTime(runtime.pid) };
  // Without /proc there is no identity to check a dead server by, and nothing to find: record nothing.
  const runsDir = options.dataDir && me.startTime !== undefined ? path.join(options.dataDir, 'runs') : undefined;
  const file = runsDir && path.join(runsDir, `${me.pid}-${me.startTime}-${session}.json`);
  const groups = new Map<string, GroupRecord>();
  /** When each running command began, in clock ticks since boot. */
  const begun = new Map<string, number>();
  const folders = new Set<string>();
  let seq = 0;
  // One look at the process table serves every command of this server that ends meanwhile: 50 commands
  // ending together each reading every process's environment (again every 5 ms while one is caught
  // mid-exec) kept the event loop busy for seconds.
  const scan = sharedScan(() => runtime.listProcesses({ name: RUN_MARKER, value: `${session}:`, prefix: true }));
  let written = false;
  let writeFailed = false;
  let sweeping: Promise<void> | undefined;
  // A heartbeat: the registry is written again now and then, so a live server on another machine of
  // the same host name is never taken for one of an earlier boot of this one (see earlierBoot).
  let beat: ReturnType<typeof setInterval> | undefined;

  function save(): void {
    if (!file || !runsDir || writeFailed || !options.dataDir) return;
    const registry: Registry = { session, groups: [...groups.values()], folders: [...folders].map((f) => path.relative(options.dataDir!, f)), ...runtime.bootIdentity() };
    try {
      if (!written) runtime.fs.mkdirSync(runsDir, { recursive: true, mode: 0o700 });
      // Temp file + rename, no fsync: the file must outlive this process, not the machine.
      runtime.fs.writeFileSync(`${file}.tmp`, JSON.stringify(registry), 0o600);
      runtime.fs.renameSync(`${file}.tmp`, file);
      if (!written) {
        beat = setInterval(save, REGISTRY_BEAT_MS);
        (beat as { unref?: () => void }).unref?.();
      }
      written = true;
    } catch (error) {
      writeFailed = true;
      options.logger?.log('run_registry_error', { file, error: String(error) });
    }
  }

  return {
    begin(env) {
      const marker = `${session}:${++seq}`;
      // One tick of slack: uptime and start times are both rounded down.
      const now = runtime.ticksSinceBoot();
      if (now !== undefined) begun.set(marker, now - 1);
      // Written before the first child starts: a child of a server killed right after spawning is
      // still found by the session's marker.
      if (!written) save();
      return { marker, env: { ...env, [RUN_MARKER]: marker } };
    },
    started(marker, pid) {
      const startTime = pid === undefined ? undefined : runtime.processStartTime(pid);
      if (pid === undefined || startTime === undefined) return;
      groups.set(marker, { pgid: pid, startTime });
      save();
    },
    async finish(marker) {
      // A descendant in the middle of an exec has no environment to read for a moment: wait for the
      // young ones that may be the command's to finish their exec before judging them.
      const since = begun.get(marker);
      begun.delete(marker);
      const unsure = since === undefined ? undefined : mayBeMidExecOf(marker, since);
      await endProcesses(runtime, scan, (list) => list.filter((p) => p.markerValue === marker), { unsure });
      if (groups.delete(marker)) save();
    },
    ownFolder(dir) {
      folders.add(dir);
      save();
    },
    sweepDeadServers() {
      if (!runsDir || !options.dataDir) return;
      sweeping ??= sweep(runtime, runsDir, options.dataDir, options.logger).catch((error) => options.logger?.log('orphan_sweep_error', { error: String(error) }));
    },
    async close() {
      if (beat) clearInterval(beat);
      await sweeping;
      if (written && file) runtime.fs.removeSync(file);
    },
  };
}

/**
 * Whether a process may be the command's but cannot be judged yet: started since the command began,
 * caught in the middle of an exec (no environment to read for a moment), and with a parent it can have
 * the marker from — one of the command's processes, one in the middle of an exec itself (judged by its
 * own parent), or none known: gone, init (which adopts a double fork's orphan), or this server (whose
 * own entry the look leaves out). A process whose parent's environment reads without the marker is
 * not the command's: it was forked with that environment. On a busy machine some process is always in
 * the middle of an exec; waiting for every young one kept each command's end looking again every few
 * ms for up to SETTLE_MS. Not waited for: an orphan adopted, during its exec, by a subreaper other than
 * init (its parent then reads as that subreaper).
 */
export function mayBeMidExecOf(marker: string, since: number): (p: ProcessInfo, byPid: ReadonlyMap<number, ProcessInfo>) => boolean {
  return (p, byPid) => {
    if (!p.envEmpty || Number(p.startTime) < since) return false;
    let parent = byPid.get(p.ppid);
    for (let hops = 0; hops < 64; hops++) {
      if (!parent || parent.pid === 1) return true;
      if (parent.markerValue === marker) return true;
      if (!parent.envEmpty) return false;
      parent = byPid.get(parent.ppid);
    }
    return true;
  };
}

/**
 * A look at the process table shared by everyone who asks before it is taken: it is taken on the next
 * timer turn after the first ask, so it is never older than any asker's question.
 */
function sharedScan(take: () => ProcessInfo[]): ProcessScan {
  let next: Promise<ProcessInfo[]> | undefined;
  return () =>
    (next ??= new Promise<ProcessInfo[]>((resolve, reject) => {
      setTimeout(() => {
        next = undefined;
        try {
          resolve(take());
        } catch (error) {
          reject(error);
        }
      }, 0);
    }));
}

/** Ends what every dead server's registry names, then removes its registry and folders. */
async function sweep(runtime: Runtime, runsDir: string, dataDir: string, logger: Logger | undefined): Promise<void> {
  let names: string[];
  try {
    names = runtime.fs.readDirSync(runsDir).map((e) => e.name);
  } catch {
    return;
  }
  const here = runtime.bootIdentity();
  const dead = names.flatMap((name) => {
    const m = REGISTRY_NAME.exec(name);
    const owner: LockOwner | undefined = m ? { pid: Number(m[1]), startTime: m[2]!, conn: 0 } : undefined;
    return owner && !isAlive(runtime, owner) ? [{ file: path.join(runsDir, name), owner, temp: Boolean(m?.[3]) }] : [];
  });
  await Promise.all(
    dead.map(async ({ file, owner, temp }) => {
      const registry = temp ? undefined : readRegistry(runtime, file);
      // A server of another machine sharing this data dir (a network home), or of another pid
      // namespace on this kernel (a container), is not ours to judge: its pid means nothing here. One
      // of an earlier boot of this machine left nothing running, and the pids and start times it
      // names may now belong to other processes: nothing is signalled, its folders are removed.
      const otherBoot = registry?.boot !== undefined && here !== undefined ? registry.boot : undefined;
      const elsewhere = otherBoot !== undefined && otherBoot !== here!.boot;
      if (elsewhere && !earlierBoot(runtime, file, registry?.host, otherBoot, here!)) return;
      if (registry) {
        const ended = elsewhere ? 0 : await endLeftovers(runtime, registry);
        for (const folder of registry.folders) {
          const abs = path.resolve(dataDir, folder);
          const rel = path.relative(dataDir, abs);
          if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) runtime.fs.removeSync(abs, { recursive: true });
        }
        logger?.log('orphans_ended', { server_pid: owner.pid, processes: ended });
      }
      runtime.fs.removeSync(file);
    }),
  );
}

/** How often a live server writes its registry again (its heartbeat, for other machines). */
const REGISTRY_BEAT_MS = 10 * 60_000;

/**
 * A registry naming this host name and another boot is of an earlier boot of this machine only when
 * the kernel's boot id differs (a container on this kernel differs by its pid namespace alone, and is
 * alive), it was written before this machine booted, and its server has not written it for three
 * heartbeats (another machine may share the host name: its live servers keep writing theirs).
 */
function earlierBoot(runtime: Runtime, file: string, host: string | undefined, boot: string, here: { host: string; boot: string }): boolean {
  if (host !== here.host || kernelBoot(boot) === kernelBoot(here.boot)) return false;
  const now = Date.now();
  const booted = bootedAt(runtime, now);
  const written = runtime.fs.statSync(file)?.mtimeMs;
  // One second of slack: uptime is counted in ticks.
  return booted !== undefined && written !== undefined && written < booted - 1000 && written < now - 3 * REGISTRY_BEAT_MS;
}

function readRegistry(runtime: Runtime, file: string): Registry | undefined {
  try {
    const r = JSON.parse(runtime.fs.readTextFileSync(file)) as Partial<Registry>;
    if (typeof r.session !== 'string' || !r.session) return undefined;
    const groups = Array.isArray(r.groups) ? r.groups.filter((g) => Number.isInteger(g?.pgid) && g.pgid > 1 && typeof g.startTime === 'string') : [];
    const folders = Array.isArray(r.folders) ? r.folders.filter((f): f is string => typeof f === 'string') : [];
    const machine = typeof r.host === 'string' && typeof r.boot === 'string' ? { host: r.host, boot: r.boot } : {};
    return { session: r.session, groups, folders, ...machine };
  } catch {
    return undefined;
  }
}

/**
 * A dead server's leftovers: every process carrying one of its markers, and every member of a recorded
 * group that is still that server's group — its leader is the same process (pid and start time), or a
 * marked process is in it (a group id is not reused while the group has members). The second catches a
 * member that cleared its environment but stayed in the group.
 */
function endLeftovers(runtime: Runtime, registry: Registry): Promise<number> {
  let ours: Set<number> | undefined;
  const pick = (list: ProcessInfo[]) => {
    ours ??= new Set(
      registry.groups.filter((g) => isAlive(runtime, { pid: g.pgid, startTime: g.startTime, conn: 0 }) || list.some((p) => p.marked && p.pgid === g.pgid)).map((g) => g.pgid),
    );
    const groups = ours;
    return list.filter((p) => p.marked || groups.has(p.pgid));
  };
  return endProcesses(runtime, () => runtime.listProcesses({ name: RUN_MARKER, value: `${registry.session}:`, prefix: true }), pick);
}
