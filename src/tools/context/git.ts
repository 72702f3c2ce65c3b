// ctx_git: read-only git (status, diff, log) on a workdir repository. Nothing here writes.
// The declaration (what tools/list shows); the work is in git-handler.ts, loaded on the first call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../registry.ts';

const input = z.strictObject({
  action: z.enum(['status', 'diff', 'log']),
  cwd: z.string().optional().describe('default: primary workdir'),
  path: z.string().optional().describe('diff/log'),
  stat: z.boolean().optional().describe('diff: per-file summary'),
  staged: z.boolean().optional().describe('diff'),
  unified: z.number().int().min(0).max(1000, 'must be 0–1000').optional().describe('diff: context lines'),
  n: z.number().int().min(1).max(100, 'must be at most 100').optional().describe('log, default 20'),
  oneline: z.boolean().optional().describe('log, default true'),
});

export type CtxGitArgs = z.output<typeof input>;

export const ctxGit = defineTool({
  name: 'ctx_git',
  title: 'Git (read-only)',
  description:
    'Read-only git: status (porcelain v1), diff (worktree or staged; secret-like files left out; cut at 2000 lines/200 KB), log.',
  input,
  annotations: READ_ONLY,
  run: async (args, ctx) => (await import('./git-handler.ts')).runCtxGit(args, ctx),
});
