// search: the sanctioned grep — keyword or regex, ranked, gated and token-budgeted.
import { z } from 'zod';
import { runGated } from '../../retrieval/pipeline.ts';
import { fitToBudget } from '../../retrieval/ranking.ts';
import type { ResultItem } from '../../retrieval/types.ts';
import { defineTool, READ_ONLY } from '../registry.ts';
import { skippedNote } from '../skipped-note.ts';
import { hitListBytes, passedGate, refineReply, reportIndexProgress, reportTextIndexProgress, resolveExcludes, resolveScope, tokenBudget } from './common.ts';

const input = z.strictObject({
  pattern: z.string().min(1).max(500),
  regex: z.boolean().optional(),
  scope: z.string().optional().describe('folder'),
  exclude: z.array(z.string().min(1)).max(50).optional().describe('folders'),
  max_hits: z.number().int().min(1).max(2000, 'must be at most 2000').optional(),
  max_tokens: z.number().int().min(100).optional(),
  force: z.boolean().optional(),
});

/** Hits grouped by file, files in the order of their best hit. */
export function groupByFile(items: ResultItem[]): { file: string; hits: ResultItem[] }[] {
  const groups = new Map<string, ResultItem[]>();
  for (const i of items) groups.set(i.file, [...(groups.get(i.file) ?? []), i]);
  return [...groups.entries()].map(([file, hits]) => ({ file, hits: hits.sort((a, b) => a.line - b.line) }));
}

export const search = defineTool({
  name: 'search',
  title: 'Search code',
  description: 'Use instead of grep: ranked hits within a token budget (regex:true for a regex). Too broad: a refine envelope (counts per folder, suggestions); force:true bypasses.',
  input,
  annotations: READ_ONLY,
  async run(args, ctx) {
    await reportIndexProgress(ctx);
    await reportTextIndexProgress(ctx);
    const scope = resolveScope(ctx, args.scope);
    const exclude = resolveExcludes(ctx, scope, args.exclude);
    const { dispatched, items, decision } = await runGated(ctx.app, ctx.session.refusals, {
      tool: 'search',
      query: args.pattern,
      regex: args.regex ?? false,
      wholeWord: false,
      scope,
      exclude,
      force: args.force ?? false,
      maxHits: args.max_hits,
      signal: ctx.signal,
    });
    if (!decision.pass) return refineReply(decision.envelope, dispatched.capped && !dispatched.counts);
    const budget = tokenBudget(ctx, args.max_tokens);
    const cpt = ctx.app.config.estimation.charsPerToken;
    const { kept, cut, tokens } = fitToBudget(items.slice(0, args.max_hits ?? items.length), budget, cpt);
    const groups = groupByFile(kept);
    const lines = [
      `${kept.length} of ${items.length}${dispatched.capped ? '+' : ''} ${dispatched.strategy === 'graph_blocks' ? 'definitions' : 'hits'} in ${groups.length} files (~${tokens} tokens)${decision.forced ? ', forced past the gate' : ''}${decision.openedAfterRefusals ? ', gate opened after repeated refusals' : ''}`,
    ];
    for (const g of groups) {
      lines.push(g.file);
      for (const h of g.hits) lines.push(`  ${h.line}${h.def && h.def.end > h.line ? `-${h.def.end}` : ''}: ${h.text.trim()}`);
    }
    if (cut) lines.push(`(${cut} more hits cut to fit ${budget} tokens; narrow with scope or raise max_tokens)`);
    if (dispatched.skipped?.length) lines.push(skippedNote(dispatched.skipped));
    const text = lines.join('\n');
    const trimmed = kept.length < items.length;
    return {
      text,
      ...passedGate(decision),
      ...(trimmed ? { saving: { rawBytes: hitListBytes(items), basis: 'hits trimmed to budget' as const } } : {}),
      structured: { status: 'ok', totalFound: items.length, returned: kept.length, cut, results: kept.map((h) => ({ file: h.file, line: h.line, kind: h.kind, score: h.score, text: h.text })) },
    };
  },
});
