// Pieces the four gate tools share: scope and exclude resolution, the refine reply, symbol lookups.
import * as path from 'node:path';
import { type Dispatched, dispatch } from '../../retrieval/dispatcher.ts';
import { readLines } from '../../retrieval/fileio.ts';
import type { RefineEnvelope } from '../../retrieval/gatekeeper.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import type { ToolCallContext, ToolReply } from '../registry.ts';
import { resolveFolder } from '../workdir-folder.ts';
import { formatRefine } from './refine-printer.ts';
import { textIndexProgressNote } from './text-index-printer.ts';

export function resolveScope(ctx: ToolCallContext, scope: string | undefined): SafePath {
  const target = resolveFolder(ctx, scope, 'scope', 'pass a folder of the project, e.g. "src/"');
  const secret = judgeSecret(ctx.app.workdirs, { relative: target.relative, real: target.real, folder: true });
  if (secret) throw secretRefusal(target.relative, secret, 'searched');
  return target;
}

/** Exclusions as folders relative to the scope's workdir. */
export function resolveExcludes(ctx: ToolCallContext, scope: SafePath, exclude: readonly string[] | undefined): string[] {
  return (exclude ?? []).map((e) => {
    const clean = e.replace(/^\.\/+|\/+$/g, '');
    // An exclude is given relative to the scope when it does not exist from the root.
    const fromScope = scope.relative ? `${scope.relative}/${clean}` : clean;
    const fs = ctx.app.runtime.fs;
    if (scope.relative && fs.statSync(`${scope.workdir}/${fromScope}`) && !fs.statSync(`${scope.workdir}/${clean}`)) return fromScope;
    return clean;
  });
}

export function refineReply(envelope: RefineEnvelope, capped: boolean): ToolReply {
  return { text: formatRefine(envelope, capped), structured: { ...envelope }, gate: { refused: envelope.reason } };
}

/** The usage record's view of a gated answer: whether it came right after a refusal. */
export function passedGate(decision: { afterRefusal: boolean }): Pick<ToolReply, 'gate'> {
  return decision.afterRefusal ? { gate: { followed: true } } : {};
}

export function tokenBudget(ctx: ToolCallContext, requested: number | undefined): number {
  return Math.min(requested ?? ctx.app.config.gates.maxTokens, ctx.app.config.limits.absoluteMaxTokens);
}

/** Every whole-word match of a symbol across the project (definitions and uses, classified). */
export function findSymbol(ctx: ToolCallContext, symbol: string): Promise<Dispatched> {
  return dispatch(ctx.app, ctx.app.graph, {
    query: symbol,
    regex: false,
    wholeWord: true,
    ignoreCase: false,
    scope: resolveScope(ctx, undefined),
    exclude: [],
    signal: ctx.signal,
  });
}

/** Reads files (relative to `workdir`) as lines, each once per call; an unreadable file has none. */
export function lineReader(ctx: ToolCallContext, workdir: string): (file: string) => Promise<string[]> {
  const cache = new Map<string, string[]>();
  return async (file) => {
    const known = cache.get(file);
    if (known) return known;
    const lines = await readLines(ctx.app.runtime.fs, ctx.app.workdirs, path.join(workdir, file)).catch(() => []);
    cache.set(file, lines);
    return lines;
  };
}

/** A path relative to the project root as the code index knows it, or undefined for other workdirs. */
export function indexedPath(ctx: ToolCallContext, file: SafePath): string | undefined {
  return file.workdir === ctx.app.code.root ? file.relative : undefined;
}

/**
 * While the code index is being built, tells a client that asked for progress how far it is (the
 * answer itself comes from a file scan meanwhile).
 */
export async function reportIndexProgress(ctx: ToolCallContext): Promise<void> {
  if (ctx.app.graph.name === 'none') return;
  const s = ctx.app.code.status();
  if (s.state === 'building' && s.total > 0) await ctx.progress(s.done, s.total, `building the code index: ${s.done} of ${s.total} files (answering from a file scan meanwhile)`);
}

/**
 * While the text index is being built, the search about to scan says how far it is: to the client
 * when it asked for progress, and in the log.
 */
export async function reportTextIndexProgress(ctx: ToolCallContext): Promise<void> {
  const index = ctx.app.textIndex;
  if (!index || (index.state?.() ?? index.status().state) !== 'building') return;
  const s = index.status();
  ctx.app.logger.log('text_index_progress', { indexed: s.indexed, total: s.total, bytes: s.bytes });
  if (s.total > 0) await ctx.progress(s.indexed, s.total, textIndexProgressNote(s));
}
