// The pure-TypeScript search engine: the same answers as ripgrep for the flags ctx_fs offers
// (gitignore-aware walk, hidden files skipped, binaries and huge files skipped, sorted by path).
// The main thread walks and judges the files; a pool of grep workers reads and matches them in
// batches (src/workspace/grep/grep-pool.ts), and the main thread takes their answers in path order.
// Small searches, and searches without a pool, match in this thread (scan-run.ts).
import type { RuntimeFs } from '../../runtime/types.ts';
import { walk } from '../walk.ts';
import type { Admission } from './admission.ts';
import type { ListedFile } from './filelist.ts';
import type { GrepPool } from './grep-pool.ts';
import { checkPattern } from './matcher.ts';
import { runScan } from './scan-run.ts';
import type { FileOutcome, ScanFile } from './scan-files.ts';
import { type GrepFile, type GrepQuery, type GrepResult, keepMatches, type SkippedFile } from './types.ts';

/** How a built-in search runs: on a pool of grep workers when given one; files it could not search are reported. */
export interface BuiltinRun {
  pool?: GrepPool;
  /** A file not searched (its match ran over the time limit): counts cannot say so themselves. */
  onSkipped?(file: SkippedFile): void;
}

/**
 * The files a search looks at, in path order as the walk of the admission's target finds them (so
 * that matching starts before the walk ends, and a search that has its matches stops walking), or
 * the files of a list the admission let through.
 */
async function* candidatesOf(fs: RuntimeFs, admission: Admission, signal: AbortSignal | undefined, listed: readonly ListedFile[] | undefined): AsyncGenerator<ScanFile> {
  if (listed) {
    for (const l of listed) yield { abs: l.abs, relRoot: l.relRoot, size: l.size };
    return;
  }
  const target = admission.target;
  if (!(await fs.stat(target.real))?.isDirectory) {
    if (admission.targetFile()) yield { abs: target.real, relRoot: target.relative };
    return;
  }
  for await (const e of walk(fs, { ...admission.walk, signal })) {
    if (e.type === 'file' && admission.walked(e.relRoot, e.ignored === true)) yield { abs: e.path, relRoot: e.relRoot };
  }
}

/** Lines of the first files up to the query's limit; `truncated` once a match past it is seen. */
function lineCollector(query: GrepQuery) {
  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;
  return {
    /** Takes a file's outcome; true when the search has its answer. */
    add(relRoot: string, outcome: Exclude<FileOutcome, null | 'stopped'>): boolean {
      // One match past the limit is enough to know the answer was cut.
      if (matches >= query.limit) {
        truncated = true;
        return true;
      }
      const { lines, kept } = keepMatches(outcome.lines ?? [], query.limit - matches, query.context);
      matches += kept;
      files.push({ path: relRoot, lines });
      if (kept < outcome.n) truncated = true;
      return truncated;
    },
    full: () => matches >= query.limit,
    result: (): GrepResult => ({ engine: 'builtin', matches, truncated, files }),
  };
}

/**
 * `listed`: search these files (admitted by the admission) instead of walking the target — the same
 * answer as the walk when the list holds every file that can match.
 */
export async function grepBuiltin(fs: RuntimeFs, admission: Admission, query: GrepQuery, signal?: AbortSignal, listed?: readonly ListedFile[], run: BuiltinRun = {}): Promise<GrepResult> {
  // An invalid pattern fails here, before any file is walked or read.
  checkPattern(query);
  const files = candidatesOf(fs, admission, signal, listed);
  const lines = lineCollector(query);
  const skipped: SkippedFile[] = [];
  await runScan({ fs, pool: run.pool, mode: 'lines', workdir: admission.target.workdir, query, files, signal, secrets: admission.secrets }, {
    take(file, outcome) {
      if (!outcome) return 'more';
      if (lines.add(file.relRoot, outcome)) return 'done';
      // Past the limit, a file is only asked whether it has a match.
      return lines.full() ? 'counts' : 'more';
    },
    skip: (file) => skipped.push(file),
  });
  return withSkipped(lines.result(), skipped, run);
}

function withSkipped(result: GrepResult, skipped: SkippedFile[], run: BuiltinRun): GrepResult {
  for (const s of skipped) run.onSkipped?.(s);
  return skipped.length ? { ...result, skipped } : result;
}

export interface ListScan {
  /** Matching lines per file, for every file (files without any left out). */
  counts: Map<string, number>;
  /** The lines of the first files in path order, up to `query.limit` matches (truncated past it). */
  result: GrepResult;
}

/**
 * One pass over named files (relative to the workdir, admitted by the walk's rules; symlinks, files
 * that are not regular and files past the size limit are skipped as they are read): each is read
 * once, counted on its raw bytes, and only those whose lines are returned are decoded and split.
 */
export async function scanListBuiltin(fs: RuntimeFs, admission: Admission, query: GrepQuery, list: readonly string[], signal?: AbortSignal, run: BuiltinRun = {}): Promise<ListScan> {
  checkPattern(query);
  const files: ScanFile[] = [...list].sort().map((relRoot) => ({ abs: '', relRoot }));
  const counts = new Map<string, number>();
  const lines = lineCollector(query);
  let truncated = false;
  const skipped: SkippedFile[] = [];
  await runScan({ fs, pool: run.pool, mode: 'list', workdir: admission.target.workdir, query, files, signal, secrets: admission.secrets }, {
    take(file, outcome) {
      if (!outcome) return 'more';
      const relRoot = file.relRoot;
      counts.set(relRoot, outcome.n);
      // Past the lines returned: a count is all that is wanted.
      if (truncated || lines.full()) truncated = true;
      else lines.add(relRoot, outcome);
      return lines.full() ? 'counts' : 'more';
    },
    skip: (file) => skipped.push(file),
  });
  const result = lines.result();
  return { counts, result: withSkipped({ ...result, truncated: result.truncated || truncated }, skipped, run) };
}

/**
 * Matching lines per file (files without any left out), the built-in engine's way but without
 * building a line: a literal is found in the raw bytes, a regex runs only on the lines that hold the
 * text it requires, and a file without that text is skipped unread by the regex.
 */
export async function countBuiltin(fs: RuntimeFs, admission: Admission, query: GrepQuery, signal?: AbortSignal, listed?: readonly ListedFile[], run: BuiltinRun = {}): Promise<Map<string, number>> {
  checkPattern(query);
  const files = candidatesOf(fs, admission, signal, listed);
  const counts = new Map<string, number>();
  const skipped: SkippedFile[] = [];
  await runScan({ fs, pool: run.pool, mode: 'count', workdir: admission.target.workdir, query, files, signal, secrets: admission.secrets }, {
    take(file, outcome) {
      if (outcome) counts.set(file.relRoot, outcome.n);
      return 'more';
    },
    skip: (file) => skipped.push(file),
  });
  withSkipped({ engine: 'builtin', matches: 0, truncated: false, files: [] }, skipped, run);
  return counts;
}
