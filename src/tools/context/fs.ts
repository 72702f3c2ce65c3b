// ctx_fs: the workspace file system (ls, glob, stat, rg), every path limited to the workdirs.
// The declaration (what tools/list shows); the work is in fs-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../registry.ts';

export const LIST_LIMIT = { default: 200, max: 2000 };
export const RG_LIMIT = { default: 50, max: 500 };

const input = z.strictObject({
  action: z.enum(['ls', 'glob', 'stat', 'rg']),
  path: z.string().optional().describe('default: primary workdir'),
  depth: z.number().int().min(1).max(5, 'must be 1–5').optional().describe('ls, default 1'),
  include_hidden: z.boolean().optional().describe('ls'),
  limit: z.number().int().min(1).max(LIST_LIMIT.max, `must be at most ${LIST_LIMIT.max} (rg: ${RG_LIMIT.max})`).optional().describe('default 200 (rg: 50, ≤500)'),
  pattern: z.string().min(1).optional().describe('glob: src/**/*.ts; rg: regex'),
  glob: z.string().min(1).optional().describe('rg: *.go, !*.min.js'),
  ignore_case: z.boolean().optional(),
  context: z.number().int().min(0).max(5, 'must be 0–5').optional().describe('rg'),
  literal: z.union([z.boolean(), z.string().min(1)]).optional().describe('rg: true = plain pattern, or the text'),
});

export type CtxFsArgs = z.output<typeof input>;

export const ctxFs = defineTool({
  name: 'ctx_fs',
  title: 'Workspace files',
  description:
    'Files in the workdirs: ls, glob (gitignore-aware), stat, rg (sorted by path; secret files never searched).',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./fs-handler.ts')).runCtxFs(args, ctx),
});
