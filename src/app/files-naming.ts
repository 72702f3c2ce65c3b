// The scan behind on-demand parsing (issue 21): the files whose text names a word, as the gate's
// search sees the project (ripgrep when installed, the built-in engine otherwise; .gitignore, skipped
// folders and secret files as there). Before the code index's first build is done, the files an
// answer about a name rests on are these, parsed on demand.
import { resolveSafe, type Workdirs } from '../security/resolve-safe.ts';
import { declarationPatternSource } from '../retrieval/kinds.ts';
import { regularFiles } from '../workspace/grep/filelist.ts';
import type { FilesNaming } from '../code/index-api.ts';
import { countMatches, type GrepDeps } from '../workspace/grep/index.ts';

export interface FilesNamingDeps extends GrepDeps {
  workdirs: Workdirs;
  /** The folder indexed: paths come back relative to it. */
  root: string;
  excludeDirs: readonly string[];
}

/**
 * Up to this much text naming the word (and `parseable` files), a definition lookup parses every file
 * naming it: any may declare it (a field, a parameter, a local), as the built index would say. A parse
 * worker takes about a megabyte a second of `effect`'s TypeScript.
 */
const ALL_NAMING_BYTES = 2 << 20;

/**
 * `defining`: past ALL_NAMING_BYTES or `parseable` files (default: none), only the files holding a line
 * that may declare the word (declarationPatternSource), when there are such — a definition lookup then
 * parses a few files, not every file that mentions a common name (`pipe` is named in hundreds of
 * `effect`'s files, defined in one).
 */
export function createFilesNaming(deps: FilesNamingDeps): (word: string, options?: { defining?: boolean; parseable?: number }) => Promise<FilesNaming> {
  return async (word, options = {}) => {
    const target = resolveSafe(deps.runtime.fs, deps.workdirs, deps.root);
    const query = { literal: true, wordBoundary: true, ignoreCase: false, context: 0, limit: Number.MAX_SAFE_INTEGER, excludeDirs: deps.excludeDirs, sorted: false };
    const naming = [...(await countMatches(deps, target, { ...query, pattern: word })).keys()];
    const all = { files: naming, narrowed: false };
    if (!options.defining || naming.length <= 1) return all;
    const files = regularFiles(deps.runtime.fs, target.workdir, naming);
    if (naming.length <= (options.parseable ?? 0) && files.reduce((n, f) => n + (f.size ?? 0), 0) <= ALL_NAMING_BYTES) return all;
    // A narrowing, never a reason to answer nothing: any trouble with it leaves every file naming the word.
    const defining = await countMatches(deps, target, { ...query, pattern: declarationPatternSource(word), literal: false, wordBoundary: false }, { files }).catch(() => new Map<string, number>());
    if (!defining.size) return all;
    return { files: [...defining.keys()], narrowed: defining.size < naming.length };
  };
}
