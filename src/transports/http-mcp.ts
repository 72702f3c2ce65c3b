// The `/mcp` endpoint's sessions: an initialize POST opens one (an SDK transport and an MCP server of
// its own), later requests name it with `mcp-session-id`, DELETE ends it. The session table decides
// which sessions may go; this module keeps each one busy while its request or stream is open.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createClientSession, type AppContext } from '../app/context.ts';
import type { SessionView } from '../app/status.ts';
import { createMcpServer } from '../server/create-server.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { Sender } from './http-auth.ts';
import { rpcError, sessionNotFound, tooManySessions } from './http-responses.ts';
import { createSessionTable, type ReleaseHow } from './http-sessions.ts';

export interface McpSessionsOptions {
  maxSessions: number;
  sessionIdleMs: number;
  /** How long a session may stay open without any request after its initialize. */
  sessionUnusedGraceMs: number;
  /** How long a session whose client hung up on its stream waits for the client to come back. */
  sessionGoneGraceMs?: number;
  now?: () => number;
}

export interface McpSessions {
  readonly size: number;
  /** The open sessions as the status page shows them, the oldest first. */
  list(): SessionView[];
  /** POST /mcp, its body already parsed, from `sender` (http-auth.ts). */
  post(request: Request, body: unknown, sender: Sender): Promise<Response>;
  /** GET /mcp (the SSE stream) and DELETE /mcp. */
  forward(request: Request, sender: Sender): Promise<Response>;
  evictStale(): void;
  close(): Promise<void>;
}

interface OpenSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** The user whose token opened it; only that sender may use it (none: the server's own token). */
  user: string | undefined;
}

/** Calls `done` once the response body has been read to its end, or cancelled: the client hung up (at once when it has none). */
function whenBodyEnds(response: Response, done: (how?: ReleaseHow) => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done('hung up');
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function createMcpSessions(app: AppContext, registry: ToolRegistry, options: McpSessionsOptions): McpSessions {
  const table = createSessionTable<OpenSession>({
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    unusedGraceMs: options.sessionUnusedGraceMs,
    ...(options.sessionGoneGraceMs !== undefined ? { goneGraceMs: options.sessionGoneGraceMs } : {}),
    now: options.now,
    close: (open) => open.server.close(),
    onEnd: (id, reason) => app.logger.log('http_session_end', { session: id, reason }),
  });

  async function start(request: Request, body: unknown, sender: Sender): Promise<Response> {
    const id = crypto.randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void app.logger.log('http_session_start', { session: id }),
      onsessionclosed: () => table.delete(id, 'deleted'),
    });
    // A user whose token may use some tools only gets a session that lists and answers just those.
    const server = createMcpServer(app, sender.tools ? registry.only(sender.tools) : registry, createClientSession(id, sender.user));
    transport.onclose = () => void table.delete(id, 'closed');
    const { release } = table.create(id, { transport, server, user: sender.user });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body });
      // An initialize that failed (bad params) leaves no session behind.
      if (response.status >= 400) await table.delete(id, 'closed');
      return whenBodyEnds(response, release);
    } catch (error) {
      release();
      await table.delete(id, 'closed');
      throw error;
    }
  }

  async function inSession(request: Request, sender: Sender, handle: (open: OpenSession) => Promise<Response>): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (!id) return rpcError(400, -32000, 'Bad Request: the mcp-session-id header is required; start a session with an initialize request first');
    const used = table.touch(id);
    if (!used) return sessionNotFound(id);
    if (used.value.user !== sender.user) {
      used.release();
      app.logger.log('http_refused', { reason: 'a session used with another sender\'s token', session: id.slice(0, 8) });
      return rpcError(403, -32003, 'Forbidden: this session was opened with another token; start a session of your own with an initialize request');
    }
    try {
      return whenBodyEnds(await handle(used.value), used.release);
    } catch (error) {
      used.release();
      throw error;
    }
  }

  return {
    get size() {
      return table.size;
    },
    list: () =>
      table.list().map((s) => {
        const client = s.value.server.getClientVersion();
        return {
          id: s.id.slice(0, 8),
          client: client ? `${client.name} ${client.version}` : '',
          openedAt: s.createdAt,
          lastSeenAt: s.lastSeen,
          state: s.state,
          open: s.busy,
          ...(s.endsAt !== undefined ? { endsAt: s.endsAt } : {}),
        };
      }),
    post(request, body, sender) {
      if (request.headers.get('mcp-session-id')) {
        return inSession(request, sender, (open) => open.transport.handleRequest(request, { parsedBody: body }));
      }
      const initializes = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
      if (!initializes) {
        return Promise.resolve(rpcError(400, -32000, 'Bad Request: no mcp-session-id header; start a session with an initialize request first'));
      }
      if (!table.makeRoom()) {
        app.logger.log('http_refused', { reason: 'every session is busy', sessions: table.size });
        return Promise.resolve(tooManySessions(options.maxSessions));
      }
      return start(request, body, sender);
    },
    forward: (request, sender) => inSession(request, sender, (open) => open.transport.handleRequest(request)),
    evictStale: () => table.evictStale(),
    close: () => table.closeAll(),
  };
}
