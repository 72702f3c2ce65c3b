// MCP over Streamable HTTP as a Hono app on web-standard Request/Response: `/mcp` (sessions,
// `mcp-session-id`, DELETE ends one) and `/healthz`. Every `/mcp` request needs the bearer token;
// every request passes the Host/Origin checks.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { messageOf } from '../errors.ts';
import { createClientSession, type AppContext } from '../app/context.ts';
import { createMcpServer } from '../server/create-server.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';
import { allowedHostNames, checkHost, checkOrigin, tokenMatches } from './http-guard.ts';

export interface HttpAppOptions {
  bindHost: string;
  /** The port clients reach; a getter because port 0 is only known after listening. */
  port: () => number;
  token: string;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxBodyBytes: number;
  maxSessions: number;
  sessionIdleMs: number;
}

interface OpenSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface HttpApp {
  fetch(request: Request): Response | Promise<Response>;
  readonly sessionCount: number;
  close(): Promise<void>;
}

/** A JSON-RPC error body: clients get the protocol's shape, never a stack trace. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function createHttpApp(app: AppContext, registry: ToolRegistry, options: HttpAppOptions): HttpApp {
  const sessions = new Map<string, OpenSession>();
  const hostNames = allowedHostNames(options.bindHost, options.allowedHosts);
  const hono = new Hono();

  async function drop(id: string): Promise<void> {
    const open = sessions.get(id);
    if (!open) return;
    sessions.delete(id);
    app.logger.log('http_session_end', { session: id });
    await open.server.close().catch(() => undefined);
  }

  function evictIdle(now: number): void {
    for (const [id, open] of sessions) if (now - open.lastSeen > options.sessionIdleMs) void drop(id);
  }

  const sweeper = setInterval(() => evictIdle(Date.now()), Math.min(options.sessionIdleMs, 60_000));
  (sweeper as { unref?: () => void }).unref?.();

  hono.use('*', async function guardHostAndOrigin(c, next) {
    const hostProblem = checkHost(c.req.header('host'), hostNames, options.port());
    const problem = hostProblem ?? checkOrigin(c.req.header('origin'), hostNames, options.allowedOrigins);
    if (problem) {
      app.logger.log('http_refused', { reason: problem });
      return rpcError(403, -32000, `Forbidden: ${problem}`);
    }
    await next();
  });

  hono.get('/healthz', (c) => c.json({ status: 'ok', name: 'ctxgate', version: VERSION, sessions: sessions.size }));

  hono.use('/mcp', async function requireToken(c, next) {
    if (!tokenMatches(c.req.header('authorization'), options.token)) {
      return rpcError(401, -32001, 'Unauthorized: send the server token as "Authorization: Bearer <token>" (CTXGATE_TOKEN, or the token file in the data dir)', {
        'www-authenticate': 'Bearer realm="ctxgate"',
      });
    }
    await next();
  });

  hono.post(
    '/mcp',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: () => rpcError(413, -32000, `Payload too large: the request body limit is ${options.maxBodyBytes} bytes`),
    }),
    async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return rpcError(400, -32700, 'Parse error: the request body is not valid JSON');
      }
      const sessionId = c.req.header('mcp-session-id');
      if (sessionId) {
        const open = sessions.get(sessionId);
        if (!open) return rpcError(404, -32001, `Session not found: '${sessionId}' ended or never existed; start a new one with an initialize request`);
        open.lastSeen = Date.now();
        return open.transport.handleRequest(c.req.raw, { parsedBody: body });
      }
      const initializes = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
      if (!initializes) {
        return rpcError(400, -32000, 'Bad Request: no mcp-session-id header; start a session with an initialize request first');
      }
      if (sessions.size >= options.maxSessions) evictIdle(Date.now());
      if (sessions.size >= options.maxSessions) {
        return rpcError(503, -32000, `Too many open sessions (${options.maxSessions}); end unused ones with DELETE /mcp`);
      }
      return startSession(c.req.raw, body);
    },
  );

  async function startSession(request: Request, body: unknown): Promise<Response> {
    const id = crypto.randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => void app.logger.log('http_session_start', { session: id }),
      onsessionclosed: () => drop(id),
    });
    const server = createMcpServer(app, registry, createClientSession(id));
    transport.onclose = () => void drop(id);
    sessions.set(id, { transport, server, lastSeen: Date.now() });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // An initialize that failed (bad params) leaves no session behind.
    if (response.status >= 400) await drop(id);
    return response;
  }

  async function existingSession(request: Request, sessionId: string | undefined): Promise<Response> {
    if (!sessionId) return rpcError(400, -32000, 'Bad Request: the mcp-session-id header is required');
    const open = sessions.get(sessionId);
    if (!open) return rpcError(404, -32001, `Session not found: '${sessionId}' ended or never existed`);
    open.lastSeen = Date.now();
    return open.transport.handleRequest(request);
  }

  hono.get('/mcp', (c) => existingSession(c.req.raw, c.req.header('mcp-session-id')));
  hono.delete('/mcp', (c) => existingSession(c.req.raw, c.req.header('mcp-session-id')));
  hono.all('/mcp', () => rpcError(405, -32000, 'Method not allowed: use POST, GET or DELETE on /mcp'));
  hono.notFound(() => rpcError(404, -32000, 'Not found: the MCP endpoint is /mcp'));
  hono.onError((error) => {
    app.logger.log('http_error', { error: messageOf(error) });
    return rpcError(500, -32603, 'Internal error: the request could not be handled; the server log has details');
  });

  return {
    fetch: (request) => hono.fetch(request),
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map((id) => drop(id)));
    },
  };
}
