// Picks the shim for the runtime we are on. Each implementation is loaded by dynamic import so
// neither runtime loads the other's code.
import type { Runtime } from './types.ts';

export function isDeno(): boolean {
  return typeof (globalThis as { Deno?: unknown }).Deno !== 'undefined';
}

export async function loadRuntime(): Promise<Runtime> {
  if (isDeno()) return (await import('./deno.ts')).createDenoRuntime();
  return (await import('./node.ts')).createNodeRuntime();
}

export type * from './types.ts';
