// What Linux's /proc says about processes: identity (start time), group, and whether a process
// carries a marker variable in its environment. /proc/<pid>/environ is the environment the process
// was started (exec'd) with, which every descendant inherits unless it clears it. Identical on Node
// and Deno (-A); elsewhere there is no /proc and every answer is "unknown" / empty.
import * as fs from 'node:fs';
import * as os from 'node:os';
import process from 'node:process';
import type { EnvMarker, ProcessInfo } from './types.ts';

interface Stat {
  state: string;
  ppid: number;
  pgid: number;
  startTime: string;
}

function readStat(pid: number | string): Stat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[19];
  if (fields[0] === undefined || startTime === undefined) return undefined;
  return { state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), startTime };
}

/** A zombie (Z) or dead (X) process has exited; only its entry is left until someone reaps it. */
function exited(stat: Stat): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}

export function processStartTime(pid: number): string | undefined {
  const stat = readStat(pid);
  return stat && !exited(stat) ? stat.startTime : undefined;
}

/** True when `env` (NUL-separated NAME=value entries) holds `NAME=value` (or `NAME=value…` for a prefix). */
export function environHas(env: Uint8Array, marker: EnvMarker): boolean {
  const needle = Buffer.from(`${marker.name}=${marker.value}`);
  const hay = Buffer.from(env.buffer, env.byteOffset, env.byteLength);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (at > 0 && hay[at - 1] !== 0) continue;
    const end = at + needle.length;
    if (marker.prefix || end === hay.length || hay[end] === 0) return true;
  }
  return false;
}

/** The value of the first `NAME=` entry in `env` (NUL-separated entries), or undefined. */
export function environValue(env: Uint8Array, name: string): string | undefined {
  const needle = Buffer.from(`${name}=`);
  const hay = Buffer.from(env.buffer, env.byteOffset, env.byteLength);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (at > 0 && hay[at - 1] !== 0) continue;
    const start = at + needle.length;
    const end = hay.indexOf(0, start);
    return hay.toString('utf8', start, end < 0 ? hay.length : end);
  }
  return undefined;
}

/**
 * Now, on the clock that start times are counted on: clock ticks since boot (USER_HZ, 100 on Linux;
 * /proc/uptime has the same resolution). Rounded down; undefined without /proc.
 */
export function ticksSinceBoot(): number | undefined {
  try {
    const seconds = Number.parseFloat(fs.readFileSync('/proc/uptime', 'utf8'));
    return Number.isFinite(seconds) ? Math.floor(seconds * USER_HZ) : undefined;
  } catch {
    return undefined;
  }
}

const USER_HZ = 100;

/**
 * This boot of this machine: the host's name, and Linux's boot id (new at every boot) with the pid
 * namespace (a container's pids are not the host's); undefined without /proc.
 */
export function bootIdentity(): { host: string; boot: string } | undefined {
  let boot: string;
  try {
    boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!boot) return undefined;
  try {
    boot += ` ${fs.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    // Namespaces hidden: the boot alone.
  }
  return { host: os.hostname(), boot };
}

export function listProcesses(marker?: EnvMarker): ProcessInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcessInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const stat = readStat(name);
    if (!stat || exited(stat)) continue;
    let marked = false;
    let envEmpty = false;
    let markerValue: string | undefined;
    if (marker) {
      try {
        const env = fs.readFileSync(`/proc/${name}/environ`);
        marked = environHas(env, marker);
        if (marked) markerValue = environValue(env, marker.name);
        envEmpty = env.byteLength === 0;
      } catch {
        // Another user's process, or gone meanwhile: not ours either way.
      }
    }
    out.push({ pid: Number(name), ppid: stat.ppid, pgid: stat.pgid, startTime: stat.startTime, marked, ...(markerValue !== undefined ? { markerValue } : {}), ...(envEmpty ? { envEmpty } : {}) });
  }
  return out;
}

export function signalProcess(pid: number, signal: 'SIGTERM' | 'SIGKILL'): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}
