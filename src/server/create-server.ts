// createMcpServer(): one MCP server per client session, fed by the shared tool registry. The same
// function serves stdio, every HTTP session, and `ctxgate call`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';
import type { AppContext, ClientSession } from '../app/context.ts';

const INSTRUCTIONS = [
  'ctxgate keeps your context small.',
  'Code: locate (where) → read (exact block) → search (ranked grep) → explore (structure).',
  'Commands/tests: ctx_run; big output is indexed, query it with ctx_kb search.',
  'Files: ctx_fs; history: ctx_git; background jobs: ctx_bg.',
].join(' ');

export function createMcpServer(app: AppContext, registry: ToolRegistry, session: ClientSession): Server {
  const server = new Server({ name: 'ctxgate', version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.list() }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    return registry.call(request.params.name, request.params.arguments, {
      app,
      session,
      signal: extra.signal,
      async progress(progress, total, message) {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) },
        });
      },
    });
  });

  return server;
}
