// search: the sanctioned grep. A pattern is a literal first, as `rg -F` takes it (issue 20): the
// lines holding the text as typed are the answer, each a row of its own — then, only when there are
// none, the lines holding it in another case. Words only when the text is nowhere, or the query is
// plainly a question: then the natural-language ranker locate uses. regex:true takes a regex.
// Ranked, gated (only an exact text too broad is refused) and token-budgeted.
// The declaration (what tools/list shows); the work is in search-handler.ts, loaded on the first call.
import { z } from 'zod';
import { SEARCH_PATTERN_MAX } from '../../workspace/grep/pattern-limit.ts';
import { defineTool, READ_ONLY } from '../registry.ts';

const input = z.strictObject({
  pattern: z.string().max(SEARCH_PATTERN_MAX, `must be at most ${SEARCH_PATTERN_MAX} characters; search for a distinctive part of the text`),
  regex: z.boolean().optional(),
  scope: z.string().optional().describe('folder'),
  exclude: z.array(z.string().min(1)).max(50).optional().describe('folders'),
  max_hits: z.number().int().min(1).max(2000, 'must be at most 2000').optional(),
  max_tokens: z.number().int().min(100).optional(),
  force: z.boolean().optional(),
});

export type SearchArgs = z.output<typeof input>;

export const search = defineTool({
  name: 'search',
  title: 'Search code',
  description: 'Use instead of grep: the exact text first (as rg -F), words when nothing matches or for a question; ranked, within a token budget. regex:true for a regex. Too broad: a refine envelope (counts per folder, suggestions); force:true bypasses.',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./search-handler.ts')).runSearch(args, ctx),
});
