// locate: where something lives — paths and line ranges, no bodies. Use before read.
// The declaration (what tools/list shows); the work is in locate-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../registry.ts';

const input = z.strictObject({
  query: z.string().min(1).max(300).describe('symbol or concept'),
  kind: z.enum(['definition', 'reference', 'any']).optional().describe('default any'),
  scope: z.string().optional().describe('folder'),
  max_results: z.number().int().min(1).max(200, 'must be at most 200').optional().describe('default 10'),
});

export type LocateArgs = z.output<typeof input>;

export const locate = defineTool({
  name: 'locate',
  title: 'Locate code',
  description: 'Where a symbol or concept is defined or used: ranked file:line ranges, no bodies. Use first, then read.',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./locate-handler.ts')).runLocate(args, ctx),
});
