// Node's compile cache (runtime.cacheCompiledCode): the code a process compiled, kept in the data root
// for the next process. Node never removes an entry: each upgrade of ctxgate (new bundle files) and of
// Node (a folder per version) adds more. A stdio server looks at its size once it has answered its
// tool list, and empties it past a bound — a cache, rebuilt by the next starts.
import * as path from 'node:path';
import { dataRoot, ensurePrivateDir } from '../config/paths.ts';
import type { Runtime, RuntimeFs } from '../runtime/types.ts';

/** Past this, the folder is emptied (a release's bundle compiles to ~1–4 MB). */
export const COMPILE_CACHE_MAX_BYTES = 64 << 20;

/** Where it is (the data root's `compile-cache/`). */
export function compileCachePath(runtime: Runtime): string {
  return path.join(dataRoot(runtime), 'compile-cache');
}

/** The folder, made private (0700) if need be; throws when it cannot be made. */
export function compileCacheDir(runtime: Runtime): string {
  const dir = compileCachePath(runtime);
  ensurePrivateDir(runtime, dir);
  return dir;
}

/** Empties `dir` when its files (one level of folders deep, as Node lays them out) hold more than `maxBytes`; whether it did. */
export async function trimCompileCache(fs: RuntimeFs, dir: string, maxBytes = COMPILE_CACHE_MAX_BYTES): Promise<boolean> {
  let bytes = 0;
  let folders: string[];
  try {
    folders = (await fs.readDir(dir)).filter((e) => e.isDirectory && !e.isSymbolicLink).map((e) => path.join(dir, e.name));
    for (const folder of folders) {
      for (const entry of await fs.readDir(folder)) {
        if (entry.isFile) bytes += (await fs.lstat(path.join(folder, entry.name)))?.size ?? 0;
      }
    }
  } catch {
    return false; // no cache (yet), or unreadable: nothing to do
  }
  if (bytes <= maxBytes) return false;
  for (const folder of folders) {
    try {
      fs.removeSync(folder, { recursive: true });
    } catch {
      // another process's removal, or a file in use: the next look tries again
    }
  }
  return true;
}
