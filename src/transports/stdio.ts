// MCP over stdio: what MCP clients launch. stdout carries protocol bytes only.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createClientSession, type AppContext } from '../app/context.ts';
import { rootFolders } from '../app/roots.ts';
import { messageOf } from '../errors.ts';
import { createMcpServer } from '../server/create-server.ts';
import type { ToolRegistry } from '../tools/registry.ts';

export interface StdioOptions {
  /**
   * No project root was named: when the client offers MCP roots, ask for them after initialisation
   * and hand them here (first call: before any tool runs; later calls: roots/list_changed).
   */
  onRoots?: (roots: string[], first: boolean) => void;
}

/** How long tool calls wait for the client to answer roots/list before ctxgate serves where it started. */
const ROOTS_TIMEOUT_MS = 10_000;

async function askRoots(app: AppContext, server: Server): Promise<string[] | undefined> {
  if (!server.getClientCapabilities()?.roots) return undefined;
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    return rootFolders(app.runtime, roots.map((r) => r.uri));
  } catch (error) {
    app.logger.log('roots_error', { error: messageOf(error) });
    return undefined;
  }
}

export async function runStdio(app: AppContext, registry: ToolRegistry, options: StdioOptions = {}): Promise<void> {
  const { stdin, stdout } = app.runtime.stdio();
  const transport = new StdioServerTransport(stdin, stdout);
  let markReady: () => void = () => {};
  const ready = options.onRoots ? new Promise<void>((resolve) => (markReady = resolve)) : undefined;
  const server = createMcpServer(app, registry, createClientSession(`stdio-${app.processSessionId}`), ready ? { ready } : {});
  const onRoots = options.onRoots;
  if (onRoots) {
    server.oninitialized = () => {
      void askRoots(app, server)
        .then((roots) => {
          if (roots?.length) onRoots(roots, true);
        })
        .catch((error) => {
          // e.g. a broken config file in the root: say so, and serve where ctxgate started.
          app.logger.log('roots_error', { error: messageOf(error) });
          app.runtime.writeStderr(`ctxgate: cannot serve the client's roots (${messageOf(error)}); serving ${app.projectRoot}\n`);
        })
        .finally(markReady);
    };
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      const roots = await askRoots(app, server);
      if (roots?.length) onRoots(roots, false);
    });
  }
  app.lifecycle.onShutdown(() => server.close());
  await server.connect(transport);
  app.logger.log('server_start', { transport: 'stdio', projectRoot: app.projectRoot, workdirs: app.workdirs.dirs, tools: registry.names });
}
