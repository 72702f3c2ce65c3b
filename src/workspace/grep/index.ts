// ctx_fs rg: ripgrep when it is installed, the built-in engine otherwise; the reply names the engine.
import { AppError, ErrorCode } from '../../errors.ts';
import { childEnv } from '../../exec/env.ts';
import type { Executor } from '../../exec/executor.ts';
import type { Runtime } from '../../runtime/types.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { grepBuiltin } from './builtin.ts';
import { countRg, grepRg } from './rg.ts';
import type { GrepQuery, GrepResult } from './types.ts';

export type GrepEngine = 'auto' | 'rg' | 'builtin';

/** What a search needs: the runtime (files, PATH) and the executor that runs ripgrep. */
export interface GrepDeps {
  runtime: Runtime;
  exec: Executor;
}

const RG_TIMEOUT_MS = 60_000;

export async function grep(deps: GrepDeps, target: SafePath, query: GrepQuery, options: { engine?: GrepEngine; signal?: AbortSignal } = {}): Promise<GrepResult> {
  const engine = options.engine ?? 'auto';
  const rgPath = engine === 'builtin' ? undefined : deps.runtime.which('rg');
  if (engine === 'rg' && !rgPath) throw new AppError(ErrorCode.Unavailable, 'rg (ripgrep) is not on PATH', { hint: 'install ripgrep' });
  if (rgPath) {
    return grepRg(target, query, { rgPath, exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal: options.signal });
  }
  return grepBuiltin(deps.runtime.fs, target, query, options.signal);
}

/** Matches per file over the whole search, when ripgrep can count them cheaply; else undefined. */
export async function countMatches(deps: GrepDeps, target: SafePath, query: GrepQuery, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
  const rgPath = deps.runtime.which('rg');
  if (!rgPath) return undefined;
  return countRg(target, query, { rgPath, exec: deps.exec, env: childEnv(deps.runtime), timeoutMs: RG_TIMEOUT_MS, signal });
}
