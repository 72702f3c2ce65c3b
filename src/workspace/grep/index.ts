// ctx_fs rg: ripgrep when it is installed, the built-in engine otherwise; the reply names the engine.
import { AppError, ErrorCode } from '../../errors.ts';
import type { AppContext } from '../../app/context.ts';
import { childEnv } from '../../exec/env.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { grepBuiltin } from './builtin.ts';
import { countRg, grepRg } from './rg.ts';
import type { GrepQuery, GrepResult } from './types.ts';

export type GrepEngine = 'auto' | 'rg' | 'builtin';

const RG_TIMEOUT_MS = 60_000;

export async function grep(app: AppContext, target: SafePath, query: GrepQuery, options: { engine?: GrepEngine; signal?: AbortSignal } = {}): Promise<GrepResult> {
  const engine = options.engine ?? 'auto';
  const rgPath = engine === 'builtin' ? undefined : app.runtime.which('rg');
  if (engine === 'rg' && !rgPath) throw new AppError(ErrorCode.Unavailable, 'rg (ripgrep) is not on PATH', { hint: 'install ripgrep' });
  if (rgPath) {
    return grepRg(target, query, { rgPath, exec: app.exec, env: childEnv(app.runtime), timeoutMs: RG_TIMEOUT_MS, signal: options.signal });
  }
  return grepBuiltin(app.runtime.fs, target, query, options.signal);
}

/** Matches per file over the whole search, when ripgrep can count them cheaply; else undefined. */
export async function countMatches(app: AppContext, target: SafePath, query: GrepQuery, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
  const rgPath = app.runtime.which('rg');
  if (!rgPath) return undefined;
  return countRg(target, query, { rgPath, exec: app.exec, env: childEnv(app.runtime), timeoutMs: RG_TIMEOUT_MS, signal });
}

export function formatGrep(result: GrepResult, query: GrepQuery): string {
  const head = `${result.matches} match${result.matches === 1 ? '' : 'es'} in ${result.files.length} file${result.files.length === 1 ? '' : 's'} (${result.engine})`;
  const body: string[] = [];
  for (const f of result.files) {
    body.push(f.path);
    let last = 0;
    for (const l of f.lines) {
      if (last && l.line > last + 1) body.push('  --');
      body.push(`  ${l.line}${l.match ? ':' : '-'} ${l.text}`);
      last = l.line;
    }
  }
  if (result.truncated) body.push(`(more matches exist: stopped at limit ${query.limit}; narrow path/glob or raise limit (max 500))`);
  return [head, ...body].join('\n');
}
