// explore: structure and relationships. Without a graph backend it answers from a file scan — the
// anchor's definition, who refers to it (and from which function), what its body calls, what its
// file imports, or an overview of the project's folders — and says what a graph would add.
// The declaration (what tools/list shows); the work is in explore-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../registry.ts';

const input = z.strictObject({
  question: z.string().min(1).max(500).optional().describe('your question (not needed with anchor and relation)'),
  anchor: z.string().min(1).max(200).optional().describe('symbol; for overview a folder or file'),
  relation: z.enum(['callers', 'callees', 'dependencies', 'impact', 'overview', 'auto']).optional().describe('default auto'),
});

export type ExploreArgs = z.output<typeof input>;

export const explore = defineTool({
  name: 'explore',
  title: 'Explore structure',
  description: 'Structure around an anchor symbol (callers, callees, dependencies, impact) or a project overview.',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./explore-handler.ts')).runExplore(args, ctx),
});
