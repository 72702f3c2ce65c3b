// Process checks for tests that must prove a process is gone.
import { readdirSync, readFileSync } from 'node:fs';

/** Alive and not a zombie (in a container nobody may reap an orphan's corpse). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A `sleep` argument no other process on the machine has: `1000.<random digits>`. */
export function uniqueSleepArg(): string {
  return `1000.${String(Math.random()).slice(2, 11)}`;
}

/** Live processes that have `arg` as one whole command-line argument. */
export function pidsWithArg(arg: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(arg);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(alive);
}

/** Polls until `check` holds; false if it still does not after `ms` (a generous bound, not a timing claim). */
export async function eventually(check: () => boolean, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
