// ctx_fs glob: linear-time glob patterns (text/glob.ts) over a gitignore-aware walk that skips .git,
// node_modules, vendor.
import type { RuntimeFs } from '../runtime/types.ts';
import type { SafePath } from '../security/resolve-safe.ts';
import { compileGlob } from '../text/glob.ts';
import { UNENTERED_DIRS } from './list.ts';
import { walk } from './walk.ts';

export interface GlobResult {
  pattern: string;
  base: string;
  matches: string[];
  truncated: boolean;
}

export async function globFiles(
  fs: RuntimeFs,
  base: SafePath,
  pattern: string,
  options: { limit: number; respectGitignore: boolean; signal?: AbortSignal },
): Promise<GlobResult> {
  // A pattern without a slash matches at any depth, as in .gitignore and most tools' globs.
  const effective = pattern.includes('/') ? pattern.replace(/^\.\//, '') : `**/${pattern}`;
  // Hidden files match only a glob that names a dot segment (picomatch's convention).
  const isMatch = compileGlob(effective, { dot: false });
  const matches: string[] = [];
  let truncated = false;
  for await (const e of walk(fs, {
    root: base.workdir,
    base: base.real,
    includeHidden: true,
    respectGitignore: options.respectGitignore,
    listOnlyDirs: UNENTERED_DIRS,
    excludeDirs: UNENTERED_DIRS,
    signal: options.signal,
  })) {
    if (e.type === 'dir' || !isMatch(e.rel)) continue;
    if (matches.length >= options.limit) {
      truncated = true;
      break;
    }
    matches.push(e.rel);
  }
  return { pattern, base: base.relative || '.', matches, truncated };
}
