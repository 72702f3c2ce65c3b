// ctx_run: run commands and code (12 languages), files through code, batches with queries over their
// output, and structured build/test tasks — returning only what is needed, indexing the rest.
// The declaration (what tools/list shows); the work is in run-handler.ts, loaded on the first call.
import { z } from 'zod';
import { LANGUAGES } from '../../exec/languages.ts';
import { TASK_KINDS } from '../../exec/task-kinds.ts';
import { defineTool } from '../registry.ts';
import { loadHandler } from '../handler-chunk.ts';

const HOUR = 3_600_000;

const input = z.strictObject({
  action: z.enum(['execute', 'execute_file', 'batch', 'run_task']),
  command: z.string().min(1).optional().describe('execute: shell command, or code in language'),
  language: z.enum(LANGUAGES).optional().describe('default shell'),
  code: z.string().min(1).optional().describe('execute_file: code; FILE_CONTENT holds the file'),
  argv: z.array(z.string()).min(1).optional().describe('execute: no shell (preferred)'),
  path: z.string().optional().describe('execute_file: file ≤10 MB'),
  env: z.record(z.string(), z.string()).optional().describe('extra (PATH, HOME, LD_* refused)'),
  stdin: z.string().optional().describe('≤1 MB'),
  timeout: z.number().int().min(1).max(HOUR, 'must be at most 3600000 (1 h)').optional().describe('ms (execute 120000, batch 30000)'),
  cwd: z.string().optional().describe('folder'),
  intent: z.string().min(1).optional().describe('what you look for (output >5 KB: best sections)'),
  background: z.boolean().optional().describe('execute: as a ctx_bg job'),
  commands: z
    .array(z.strictObject({ label: z.string().min(1), command: z.string().min(1) }))
    .min(1)
    .max(50, 'at most 50 commands')
    .optional()
    .describe('batch: [{label, command}]'),
  queries: z.array(z.string().min(1)).max(20, 'at most 20 queries').optional().describe('batch: searches after'),
  concurrency: z.number().int().min(1, 'must be 1–8').max(8, 'must be 1–8').optional().describe('batch, default 1'),
  query_scope: z.enum(['batch', 'global']).optional().describe('batch, default batch'),
  kind: z.enum(TASK_KINDS).optional().describe('run_task'),
  target: z.string().min(1).optional().describe('run_task: package/test/make target'),
  args: z.array(z.string()).optional().describe('run_task (custom: args[0] = program)'),
  timeout_ms: z.number().int().min(1).max(HOUR, 'must be at most 3600000 (1 h)').optional().describe('run_task, default 300000'),
});

export type CtxRunArgs = z.output<typeof input>;

/** The module that does the work (imported on the first call, or in the background once the server is up). */
const handler = () => import('./run-handler.ts');

export const ctxRun = defineTool({
  name: 'ctx_run',
  title: 'Run commands and code',
  description:
    'Run commands and code without flooding the context (not a sandbox). Output >100 KB (>5 KB with intent) is indexed; the reply has exit code, tail and the ctx_kb search.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true, idempotentHint: false },
  handler,
  run: async (args, ctx) => (await loadHandler(handler)).runCtxRun(args, ctx),
});
