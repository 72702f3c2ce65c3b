// MCP over stdio: what MCP clients launch. stdout carries protocol bytes only.
// A client starts a server per session and waits for its tool list, so the list is answered from the
// tools' declarations alone; the app (indexes, databases, workers) is built once the list is out, or
// by the first call that comes before.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createClientSession, type AppContext } from '../app/context.ts';
import { rootFolders } from '../app/roots.ts';
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { createMcpServer } from '../server/create-server.ts';
import type { ToolRegistry } from '../tools/registry.ts';

export interface StdioOptions {
  /**
   * No project root was named: when the client offers MCP roots, ask for them after initialisation
   * and hand them here (first call: before any tool runs; later calls: roots/list_changed).
   */
  onRoots?: (roots: string[], first: boolean) => void | Promise<void>;
}

/** What the stdio server needs before its app exists: the runtime, a log line for failures, this process's id. */
export interface StdioHost {
  runtime: Runtime;
  processSessionId: string;
  /** The app, built on first need; rejects (with what to do) while it cannot be built. */
  app: () => Promise<AppContext>;
  /** Logs through the app once it is built (nothing is logged before: the log lives in the app's data dir). */
  log: (event: string, fields: Record<string, unknown>) => void;
}

/** How long after the handshake the app is built when no tools/list or call has asked for it yet. */
const BUILD_AFTER_HANDSHAKE_MS = 300;
/** How long tool calls wait for the client to answer roots/list before ctxgate serves where it started. */
const ROOTS_TIMEOUT_MS = 10_000;

async function askRoots(host: StdioHost, server: Server): Promise<string[] | undefined> {
  if (!server.getClientCapabilities()?.roots) return undefined;
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    return rootFolders(host.runtime, roots.map((r) => r.uri));
  } catch (error) {
    host.log('roots_error', { error: messageOf(error) });
    return undefined;
  }
}

/** Connects the server to stdin/stdout; returns it (closing it is the caller's part of shutting down). */
export async function runStdio(host: StdioHost, registry: ToolRegistry, options: StdioOptions = {}): Promise<Server> {
  const { stdin, stdout } = host.runtime.stdio();
  const transport = new StdioServerTransport(stdin, stdout);
  let markReady: () => void = () => {};
  const ready = options.onRoots ? new Promise<void>((resolve) => (markReady = resolve)) : undefined;
  const server = createMcpServer(host.app, registry, createClientSession(`stdio-${host.processSessionId}`), {
    ...(ready ? { ready } : {}),
    onListed: () => void host.app().catch(() => {}),
  });
  const onRoots = options.onRoots;
  // A client that neither lists the tools nor calls one soon after the handshake still gets its app
  // built (it ends a crashed predecessor's processes, starts the warm start): after a pause that a
  // client's tools/list, sent right after the handshake, normally ends first.
  const buildSoon = () => {
    const timer = setTimeout(() => void host.app().catch(() => {}), BUILD_AFTER_HANDSHAKE_MS);
    (timer as { unref?: () => void }).unref?.();
  };
  server.oninitialized = buildSoon;
  if (onRoots) {
    server.oninitialized = () => {
      buildSoon();
      void askRoots(host, server)
        .then(async (roots) => {
          if (roots?.length) await onRoots(roots, true);
        })
        // The app could not be built: the builder said why on stderr, and every call answers with it.
        .catch((error) => host.log('roots_error', { error: messageOf(error) }))
        .finally(markReady);
    };
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      const roots = await askRoots(host, server);
      if (roots?.length) await onRoots(roots, false);
    });
  }
  await server.connect(transport);
  return server;
}
