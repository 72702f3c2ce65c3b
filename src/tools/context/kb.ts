// ctx_kb: the local knowledge base — index files, search everything indexed (files, command output),
// stats, purge, doctor.
// The declaration (what tools/list shows); the work is in kb-handler.ts, loaded on the first call.
import { z } from 'zod';
import { MAX_BODY_BYTES } from '../../net/body-limit.ts';
import { defineTool } from '../registry.ts';
import { loadHandler } from '../handler-chunk.ts';

const input = z.strictObject({
  action: z.enum(['index', 'search', 'fetch', 'stats', 'purge', 'doctor']),
  path: z.string().optional().describe('index'),
  query: z.string().min(1).max(500).optional().describe('search'),
  url: z.string().min(1).optional().describe('fetch'),
  urls: z.array(z.string().min(1)).min(1).max(10, 'at most 10 urls').optional().describe('fetch'),
  source: z.string().min(1).optional().describe('search: filter; fetch: group (default web)'),
  format: z.enum(['markdown', 'html', 'json']).optional().describe('fetch, default markdown'),
  force: z.boolean().optional().describe('fetch: skip cache'),
  maxBytes: z.number().int().min(1).max(MAX_BODY_BYTES).optional().describe('fetch: bytes returned (2048; all indexed)'),
  timeoutMs: z.number().int().min(1).max(600_000).optional().describe('fetch, default 150000'),
  ttl: z.number().int().min(0).optional().describe('fetch: cache ms (24 h; 0 = refetch)'),
  confirm: z.boolean().optional().describe('purge: true'),
  scope: z.enum(['project', 'session', 'team']).optional().describe('purge (team: a shared Postgres project, every checkout)'),
  sessionId: z.string().min(1).optional().describe('purge scope=session (default: this)'),
  dryRun: z.boolean().optional().describe('purge: count only'),
});

export type CtxKbArgs = z.output<typeof input>;

/** The module that does the work (imported on the first call, or in the background once the server is up). */
const handler = () => import('./kb-handler.ts');

export const ctxKb = defineTool({
  name: 'ctx_kb',
  title: 'Knowledge base',
  description:
    'Local full-text knowledge base (big outputs land here): index, search (best chunks), fetch (public pages → markdown), stats, purge, doctor.',
  input,
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true, idempotentHint: false },
  handler,
  run: async (args, ctx) => (await loadHandler(handler)).runCtxKb(args, ctx),
});
