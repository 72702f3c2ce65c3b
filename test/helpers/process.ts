// Process checks for tests that must prove a process is gone.
import { readFileSync } from 'node:fs';

/** Alive and not a zombie (in a container nobody may reap an orphan's corpse). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
