// search: the sanctioned grep — keyword or regex, ranked, gated and token-budgeted.
import { z } from 'zod';
import { runGated } from '../../retrieval/pipeline.ts';
import { defineTool, READ_ONLY } from '../registry.ts';
import { searchReply } from './search-reply.ts';
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
    const { text, kept, cut } = searchReply({
      items: items.slice(0, args.max_hits ?? items.length),
      total: items.length,
      capped: dispatched.capped,
      definitions: dispatched.strategy === 'graph_blocks',
      budget,
      charsPerToken: ctx.app.config.estimation.charsPerToken,
      forced: decision.forced,
      openedAfterRefusals: decision.openedAfterRefusals,
      skipped: dispatched.skipped,
    });
    const trimmed = kept.length < items.length;
    return {
      text,
      ...passedGate(decision),
      ...(trimmed ? { saving: { rawBytes: hitListBytes(items), basis: 'hits trimmed to budget' as const } } : {}),
      structured: { status: 'ok', totalFound: items.length, returned: kept.length, cut, results: kept.map((h) => ({ file: h.file, line: h.line, kind: h.kind, score: h.score, text: h.text })) },
    };
  },
});
