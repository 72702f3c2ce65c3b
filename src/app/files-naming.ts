// The scan behind on-demand parsing (issue 21): the files whose text names a word, as the gate's
// search sees the project (ripgrep when installed, the built-in engine otherwise; .gitignore, skipped
// folders and secret files as there). Before the code index's first build is done, the files an
// answer about a name rests on are these, parsed on demand.
import { resolveSafe, type Workdirs } from '../security/resolve-safe.ts';
import { countMatches, type GrepDeps } from '../workspace/grep/index.ts';

export interface FilesNamingDeps extends GrepDeps {
  workdirs: Workdirs;
  /** The folder indexed: paths come back relative to it. */
  root: string;
  excludeDirs: readonly string[];
}

export function createFilesNaming(deps: FilesNamingDeps): (word: string) => Promise<string[]> {
  return async (word) => {
    const target = resolveSafe(deps.runtime.fs, deps.workdirs, deps.root);
    const counts = await countMatches(deps, target, { pattern: word, literal: true, wordBoundary: true, ignoreCase: false, context: 0, limit: Number.MAX_SAFE_INTEGER, excludeDirs: deps.excludeDirs, sorted: false });
    return [...counts.keys()];
  };
}
