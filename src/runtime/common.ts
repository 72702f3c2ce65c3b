// Pieces of the shim that behave identically on Node and Deno (both implement these `node:` APIs).
import type * as Crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

let crypto: typeof Crypto | undefined;

export function sha256Hex(text: string): string {
  // Fetched on first use: node:crypto takes Deno tens of milliseconds to set up, and a new stdio server
  // answers its tool list before it hashes anything (the data dir's name is the first hash).
  crypto ??= process.getBuiltinModule('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** PATH lookup without spawning anything. */
export function which(command: string, pathVar: string | undefined): string | undefined {
  if (command.includes('/')) return isExecutable(command) ? path.resolve(command) : undefined;
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    const s = fs.statSync(file);
    if (!s.isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as { code?: string }).code === 'EPERM';
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
}

/** The real path of the script a process started from, or '' (e.g. code given with -e). */
export function realScriptPath(script: string | undefined): string {
  if (!script) return '';
  try {
    return fs.realpathSync(script.startsWith('file:') ? fileURLToPath(script) : script);
  } catch {
    return '';
  }
}
