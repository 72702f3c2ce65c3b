// Process spawning over `node:child_process`, identical on Node and Deno (-A): `detached: true` makes
// the child lead a new process group, and `process.kill(-pid)` signals the whole group.
import { spawn as spawnChild } from 'node:child_process';
import process from 'node:process';
import type { ChildExit, ChildHandle, SpawnOptions } from './types.ts';

export function spawn(command: string, args: readonly string[], options: SpawnOptions): ChildHandle {
  const child = spawnChild(command, [...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let settled = false;
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      resolve({ code: null, signal: null, spawnError: error.code ?? error.message });
    });
    // 'exit', not 'close': a grandchild holding the pipes open must not keep us waiting.
    child.once('exit', (code, signal) => {
      if (settled) return;
      settled = true;
      resolve({ code, signal });
    });
  });
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  // EPIPE when the child does not read its stdin is not our failure.
  child.stdin?.on('error', () => undefined);
  if (options.stdin?.length) child.stdin?.end(options.stdin);
  else child.stdin?.end();
  return {
    pid: child.pid,
    onStdout: (listener) => void child.stdout?.on('data', listener),
    onStderr: (listener) => void child.stderr?.on('data', listener),
    exited,
    closed,
    killGroup(signal) {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch {
        return false;
      }
    },
  };
}
