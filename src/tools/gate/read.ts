// read: the source of a symbol (`handle`, `OrderHandler.handle`), a range (`src/a.ts:40-80`) or a file,
// expanded to whole blocks and bounded by a token budget — never all of a big file.
// The declaration (what tools/list shows); the work is in read-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../registry.ts';

const input = z.strictObject({
  target: z.string().min(1).max(1000).describe('symbol, Class.method, file, file:start-end, or file:line:col-col (part of a long line)'),
  expand: z.boolean().optional(),
  max_tokens: z.number().int().min(50).optional(),
});

export type ReadArgs = z.output<typeof input>;

export const read = defineTool({
  name: 'read',
  title: 'Read code',
  description: 'Code of a target, expanded to its enclosing function/class (expand:false: exact range) within max_tokens; a big file: outline and first part.',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./read-handler.ts')).runRead(args, ctx),
});
