// The scan behind on-demand parsing (issue 21): the files whose text names a word, as the gate's
// search sees the project (ripgrep when installed, the built-in engine otherwise; .gitignore, skipped
// folders and secret files as there). Before the code index's first build is done, the files an
// answer about a name rests on are these, parsed on demand.
import { resolveSafe, type Workdirs } from '../security/resolve-safe.ts';
import { definitionPatternSource } from '../retrieval/kinds.ts';
import { regularFiles } from '../workspace/grep/filelist.ts';
import { countMatches, type GrepDeps } from '../workspace/grep/index.ts';

export interface FilesNamingDeps extends GrepDeps {
  workdirs: Workdirs;
  /** The folder indexed: paths come back relative to it. */
  root: string;
  excludeDirs: readonly string[];
}

/**
 * `defining`: only the files holding a line that may define the word (the line heuristics' pattern),
 * when there are such: a definition lookup then parses a few files, not every file that mentions a
 * common name (`pipe` is named in hundreds of `effect`'s files, defined in one).
 */
export function createFilesNaming(deps: FilesNamingDeps): (word: string, options?: { defining?: boolean }) => Promise<string[]> {
  return async (word, options = {}) => {
    const target = resolveSafe(deps.runtime.fs, deps.workdirs, deps.root);
    const query = { literal: true, wordBoundary: true, ignoreCase: false, context: 0, limit: Number.MAX_SAFE_INTEGER, excludeDirs: deps.excludeDirs, sorted: false };
    const naming = [...(await countMatches(deps, target, { ...query, pattern: word })).keys()];
    if (!options.defining || naming.length <= 1) return naming;
    const files = regularFiles(deps.runtime.fs, target.workdir, naming);
    // A narrowing, never a reason to answer nothing: any trouble with it leaves every file naming the word.
    const defining = await countMatches(deps, target, { ...query, pattern: definitionPatternSource(word), literal: false, wordBoundary: false }, { files }).catch(() => new Map<string, number>());
    return defining.size ? [...defining.keys()] : naming;
  };
}
