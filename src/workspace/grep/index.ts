// ctx_fs rg: ripgrep when it is installed, the built-in engine otherwise; the reply names the engine.
import * as path from 'node:path';
import { Buffer } from 'node:buffer';
import { AppError, ErrorCode } from '../../errors.ts';
import { childEnv } from '../../exec/env.ts';
import type { Executor } from '../../exec/executor.ts';
import type { Runtime } from '../../runtime/types.ts';
import type { SafePath, Workdirs } from '../../security/resolve-safe.ts';
import { type Admission, createAdmission } from './admission.ts';
import { countBuiltin, grepBuiltin, type ListScan, scanListBuiltin } from './builtin.ts';
import type { GrepPool } from './grep-pool.ts';
import type { ListedFile } from './filelist.ts';
import { CONTENT_NEEDLES } from '../../security/secret-content.ts';
import { checkGrepPattern } from './pattern.ts';
import { countRg, filesHolding, grepRg } from './rg.ts';
import { type GrepQuery, type GrepResult, MAX_SEARCH_FILE_BYTES, type SkippedFile } from './types.ts';

export type GrepEngine = 'auto' | 'rg' | 'builtin';

/** What a search needs: the runtime (files, PATH), the executor that runs ripgrep, the workdirs (to judge where a symlink leads). */
export interface GrepDeps {
  runtime: Runtime;
  exec: Executor;
  workdirs: Workdirs;
  /** The built-in engine's workers; without them it matches in this thread. */
  grepPool?: GrepPool;
}

const RG_TIMEOUT_MS = 60_000;

/**
 * Which files the search may see (admission.ts): the one given (a caller that admitted a list with
 * it), else one made for this target and query.
 */
function admissionOf(deps: GrepDeps, target: SafePath, query: GrepQuery, given: Admission | undefined): Promise<Admission> {
  return given ? Promise.resolve(given) : createAdmission({ fs: deps.runtime.fs, workdirs: deps.workdirs }, target, query);
}

export interface GrepOptions {
  engine?: GrepEngine;
  signal?: AbortSignal;
  /**
   * Search only these files (admitted by admitFiles: the walk's rules already applied), not the
   * whole target: the same answer as the full search when they hold every file that can match.
   */
  files?: readonly ListedFile[];
  /** The admission the caller made for this target and query (one per request); made here when absent. */
  admission?: Admission;
  /** A file the built-in engine could not search (its match ran over the time limit). */
  onSkipped?(file: SkippedFile): void;
}

/** Up to this much text over a file list, the built-in engine answers before ripgrep would have started. */
const LIST_BUILTIN_MAX_BYTES = 2 * 1024 * 1024;

/** Which engine searches: ripgrep (its path) or the built-in one (undefined). */
function pickEngine(deps: GrepDeps, engine: GrepEngine, files: readonly ListedFile[] | undefined): string | undefined {
  const rgPath = engine === 'builtin' ? undefined : deps.runtime.which('rg');
  if (engine === 'rg' && !rgPath) throw new AppError(ErrorCode.Unavailable, 'rg (ripgrep) is not on PATH', { hint: 'install ripgrep' });
  if (!files || engine === 'rg') return rgPath;
  let bytes = 0;
  for (const f of files) bytes += f.size ?? 0;
  return bytes <= LIST_BUILTIN_MAX_BYTES ? undefined : rgPath;
}

/**
 * ripgrep searches a file it is given by name even when it is binary (it may not even say so):
 * these are the named files with a NUL byte, which the walk's search skips.
 */
async function binaryAmong(deps: GrepDeps, target: SafePath, files: Iterable<string>): Promise<Set<string>> {
  const out = new Set<string>();
  let read = 0;
  for (const f of files) {
    const bytes = deps.runtime.fs.readRegularFileSync(path.join(target.workdir, f), MAX_SEARCH_FILE_BYTES);
    if (!bytes || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(0) >= 0) out.add(f);
    read += bytes?.length ?? 0;
    // Other calls get a turn between reads of a few megabytes.
    if (read > 4 << 20) {
      read = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return out;
}

export async function grep(deps: GrepDeps, target: SafePath, query: GrepQuery, options: GrepOptions = {}): Promise<GrepResult> {
  checkGrepPattern(query.pattern, { literal: query.literal });
  const rgPath = pickEngine(deps, options.engine ?? 'auto', options.files);
  const admission = await admissionOf(deps, target, query, options.admission);
  if (!admission.open) return { engine: rgPath ? 'rg' : 'builtin', matches: 0, truncated: false, files: [] };
  const rgOptions = { exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal: options.signal };
  // Over a list, ripgrep's end-of-file message says which named files were binary (grepRg drops them).
  const result = rgPath
    ? await grepRg(admission, query, { rgPath, ...rgOptions }, options.files?.map((f) => f.relRoot))
    : await grepBuiltin(deps.runtime.fs, admission, query, options.signal, options.files, { pool: deps.grepPool, onSkipped: options.onSkipped });
  // grepRg has judged and checked every file it keeps against the file as opened (admission.ts).
  return rgPath ? result : withoutFiles(result, (file) => !admission.shown(file));
}

function withoutFiles(result: GrepResult, drop: (file: string) => boolean): GrepResult {
  const files = result.files.filter((f) => !drop(f.path));
  if (files.length === result.files.length) return result;
  return { ...result, files, matches: files.reduce((n, f) => n + f.lines.filter((l) => l.match).length, 0) };
}

/**
 * Matching lines per file over the whole search (no line content, nothing formatted): ripgrep's
 * counts when it is installed, else the built-in engine's byte search.
 */
export async function countMatches(deps: GrepDeps, target: SafePath, query: GrepQuery, options: GrepOptions = {}): Promise<Map<string, number>> {
  checkGrepPattern(query.pattern, { literal: query.literal });
  const rgPath = pickEngine(deps, options.engine ?? 'auto', options.files);
  const admission = await admissionOf(deps, target, query, options.admission);
  if (!admission.open) return new Map();
  const rgOptions = rgPath ? { rgPath, exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal: options.signal } : undefined;
  const counts = rgOptions
    ? await countRg(admission, query, rgOptions, options.files?.map((f) => f.relRoot))
    : await countBuiltin(deps.runtime.fs, admission, query, options.signal, options.files, { pool: deps.grepPool, onSkipped: options.onSkipped });
  if (rgOptions && options.files) for (const f of await binaryAmong(deps, target, counts.keys())) counts.delete(f);
  if (rgOptions) await admission.dropSecretCounts(counts, (files) => filesHolding(admission, CONTENT_NEEDLES, files, rgOptions));
  // ripgrep's counts were judged as they were read (readCounts keeps only what the admission shows).
  else for (const file of counts.keys()) if (!admission.shown(file)) counts.delete(file);
  return counts;
}

/**
 * Counts and lines in one pass over named files (a text index's candidates, admitted by the walk's
 * rules): matching lines per file for all of them, the lines of the first files in path order up to
 * `query.limit` matches. The built-in engine reads each candidate once, in process.
 */
export async function scanList(deps: GrepDeps, target: SafePath, query: GrepQuery, list: readonly string[], signal?: AbortSignal, given?: Admission): Promise<ListScan> {
  checkGrepPattern(query.pattern, { literal: query.literal });
  const admission = await admissionOf(deps, target, query, given);
  if (!admission.open) return { counts: new Map(), result: { engine: 'builtin', matches: 0, truncated: false, files: [] } };
  const { counts, result } = await scanListBuiltin(deps.runtime.fs, admission, query, list, signal, { pool: deps.grepPool });
  for (const file of counts.keys()) if (!admission.shown(file)) counts.delete(file);
  return { counts, result: withoutFiles(result, (file) => !admission.shown(file)) };
}
