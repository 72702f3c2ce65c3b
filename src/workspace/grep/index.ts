// ctx_fs rg: ripgrep when it is installed, the built-in engine otherwise; the reply names the engine.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../../errors.ts';
import { childEnv } from '../../exec/env.ts';
import type { Executor } from '../../exec/executor.ts';
import type { Runtime } from '../../runtime/types.ts';
import type { SafePath, Workdirs } from '../../security/resolve-safe.ts';
import { judgeSecret, judgeSecretPath } from '../../security/secret-files.ts';
import { grepBuiltin } from './builtin.ts';
import { countRg, grepRg } from './rg.ts';
import type { GrepQuery, GrepResult } from './types.ts';

export type GrepEngine = 'auto' | 'rg' | 'builtin';

/** What a search needs: the runtime (files, PATH), the executor that runs ripgrep, the workdirs (to judge where a symlink leads). */
export interface GrepDeps {
  runtime: Runtime;
  exec: Executor;
  workdirs: Workdirs;
}

const RG_TIMEOUT_MS = 60_000;

/** True when the search target itself is secret, by its name or by where its symlinks lead. */
function secretTarget(deps: GrepDeps, target: SafePath): boolean {
  const folder = deps.runtime.fs.statSync(target.real)?.isDirectory === true;
  return judgeSecret(deps.workdirs, { relative: target.relative, real: target.real, folder }) !== undefined;
}

/**
 * Both engines skip secret files by name and never follow a symlink inside the tree they walk, so
 * every path they report is real — unless the target itself was reached through a symlink (ripgrep
 * follows a link it is given). Then each file is judged again by where it really is.
 */
function reachedThroughLink(deps: GrepDeps, target: SafePath): (file: string) => boolean {
  if (target.path === target.real) return () => false;
  return (file) => judgeSecretPath(deps.runtime.fs, deps.workdirs, file, path.join(target.workdir, file)) !== undefined;
}

export async function grep(deps: GrepDeps, target: SafePath, query: GrepQuery, options: { engine?: GrepEngine; signal?: AbortSignal } = {}): Promise<GrepResult> {
  const engine = options.engine ?? 'auto';
  const rgPath = engine === 'builtin' ? undefined : deps.runtime.which('rg');
  if (engine === 'rg' && !rgPath) throw new AppError(ErrorCode.Unavailable, 'rg (ripgrep) is not on PATH', { hint: 'install ripgrep' });
  if (secretTarget(deps, target)) return { engine: rgPath ? 'rg' : 'builtin', matches: 0, truncated: false, files: [] };
  const result = rgPath
    ? await grepRg(target, query, { rgPath, exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal: options.signal })
    : await grepBuiltin(deps.runtime.fs, target, query, options.signal);
  const secret = reachedThroughLink(deps, target);
  const files = result.files.filter((f) => !secret(f.path));
  if (files.length === result.files.length) return result;
  return { ...result, files, matches: files.reduce((n, f) => n + f.lines.filter((l) => l.match).length, 0) };
}

/** Matches per file over the whole search, when ripgrep can count them cheaply; else undefined. */
export async function countMatches(deps: GrepDeps, target: SafePath, query: GrepQuery, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
  const rgPath = deps.runtime.which('rg');
  if (!rgPath) return undefined;
  if (secretTarget(deps, target)) return new Map();
  const counts = await countRg(target, query, { rgPath, exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal });
  const secret = reachedThroughLink(deps, target);
  for (const file of counts.keys()) if (secret(file)) counts.delete(file);
  return counts;
}
