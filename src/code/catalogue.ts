// The file catalogue's walk: every file of the project the way the gate scans it (.gitignore rules,
// scan.excludeDirs, hidden entries and secret-like files skipped), with size and mtime, streamed.
import * as path from 'node:path';
import type { RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import { isSecretPath } from '../security/secret-files.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { walk } from '../workspace/walk.ts';

/** Files larger than this are catalogued but never parsed (generated code, data). */
export const MAX_PARSE_BYTES = 1_000_000;

export interface CatalogueEntry {
  /** Relative to the root, `/`-separated. */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

export interface CatalogueOptions {
  root: string;
  excludeDirs: readonly string[];
  respectGitignore: boolean;
  signal?: AbortSignal;
}

export async function* catalogue(fs: RuntimeFs, _workdirs: Workdirs, options: CatalogueOptions): AsyncGenerator<CatalogueEntry> {
  const skip = new Set([...UNENTERED_DIRS, ...options.excludeDirs]);
  for await (const e of walk(fs, { root: options.root, base: options.root, includeHidden: false, respectGitignore: options.respectGitignore, listOnlyDirs: skip, excludeDirs: skip, signal: options.signal })) {
    if (e.type !== 'file' || isSecretPath(e.relRoot)) continue;
    const st = await fs.stat(e.path);
    if (!st?.isFile) continue;
    yield { path: e.relRoot, abs: path.join(options.root, e.relRoot), size: st.size, mtimeMs: st.mtimeMs };
  }
}
