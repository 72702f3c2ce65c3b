// ctx_bg: supervise the background jobs started by ctx_run execute background:true.
// The declaration (what tools/list shows); the work is in bg-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool } from '../registry.ts';

const HOUR = 3_600_000;

const input = z.strictObject({
  action: z.enum(['list', 'kill', 'log', 'wait']),
  id: z.string().min(1).optional().describe('job id'),
  pid: z.number().int().positive().optional().describe('or its pid'),
  tail_lines: z.number().int().min(1).max(10_000, 'must be at most 10000').optional().describe('log, default 100'),
  tail_bytes: z.number().int().min(1).max(4 * 1024 * 1024, 'must be at most 4194304 (4 MB)').optional().describe('log, default 65536'),
  timeout_ms: z.number().int().min(0).max(HOUR, 'must be at most 3600000 (1 h)').optional().describe('wait, default 60000'),
});

export type CtxBgArgs = z.output<typeof input>;

export const ctxBg = defineTool({
  name: 'ctx_bg',
  title: 'Background jobs',
  description:
    'Jobs from ctx_run background:true: list, kill (identity-checked), log, wait (never kills). ≤16 run; all end with the server.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, idempotentHint: false },
  run: async (args, ctx) => (await import('./bg-handler.ts')).runCtxBg(args, ctx),
});
