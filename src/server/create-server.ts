// createMcpServer(): one MCP server per client session, fed by the shared tool registry. The same
// function serves stdio, every HTTP session, and `ctxgate call`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { failureResult } from '../tools/call-result.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';
import type { AppContext, ClientSession } from '../app/context.ts';

const INSTRUCTIONS = [
  'ctxgate keeps your context small.',
  'Code: locate (where) → read (exact block) → search (ranked grep) → explore (structure).',
  'Commands/tests: ctx_run; big output is indexed, query it with ctx_kb search.',
  'Files: ctx_fs; history: ctx_git; background jobs: ctx_bg.',
].join(' ');

export interface McpServerOptions {
  /** Settles when the app is ready for tool calls (stdio waits for the client's roots). */
  ready?: Promise<void>;
  /** Called after each tools/list is answered (stdio builds its app then, off the client's critical path). */
  onListed?: () => void;
}

/** The app, or how to get it when it is built on first need (stdio: after the tool list). */
export type AppSource = AppContext | (() => Promise<AppContext>);

export function createMcpServer(app: AppSource, registry: ToolRegistry, session: ClientSession, options: McpServerOptions = {}): Server {
  const server = new Server({ name: 'ctxgate', version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => {
    // A timer, so the work it starts runs after this answer is written.
    if (options.onListed) setTimeout(options.onListed, 0);
    return { tools: registry.list() };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    if (options.ready) await options.ready;
    let built: AppContext;
    try {
      built = typeof app === 'function' ? await app() : app;
    } catch (error) {
      // The app could not be built: the call answers with why and what to do, as any failed call does.
      return failureResult(error);
    }
    return registry.call(request.params.name, request.params.arguments, {
      app: built,
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
