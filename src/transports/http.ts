// MCP over Streamable HTTP as a Hono app on web-standard Request/Response: `/mcp` (sessions,
// `mcp-session-id`, DELETE ends one), `/healthz`, and the `/status` page. Every `/mcp` request needs
// the bearer token, `/status` the token (or a user's, on a team endpoint) or its sign-in cookie; every request passes the Host/Origin checks.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { messageOf } from '../errors.ts';
import type { AppContext } from '../app/context.ts';
import { collectStatus } from '../app/status.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';
import { allowedHostNames } from './http-guard.ts';
import { createMcpSessions, type McpSessionsOptions } from './http-mcp.ts';
import { requireBearer, type TeamAccess } from './http-auth.ts';
import { guardHostAndOrigin } from './http-middleware.ts';
import { rpcError } from './http-responses.ts';
import { mountStatus } from './status-routes.ts';
import type { UserUsage } from '../users/user-usage.ts';

export interface HttpAppOptions extends McpSessionsOptions {
  bindHost: string;
  /** The port clients reach; a getter because port 0 is only known after listening. */
  port: () => number;
  token: string;
  /** User tokens (a team endpoint on Postgres), beside the server's own token; `usage` feeds the status page. */
  team?: TeamAccess & { usage(): Promise<UserUsage[]> };
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  maxBodyBytes: number;
  /** Told each new one-time status sign-in path once the previous one was used. */
  onNewStatusLoginPath?(path: string): void;
}

export interface HttpApp {
  fetch(request: Request): Response | Promise<Response>;
  readonly sessionCount: number;
  /** The current one-time sign-in path of the status page. */
  statusLoginPath(): string;
  close(): Promise<void>;
}

async function parseJson(request: Request): Promise<{ body: unknown } | undefined> {
  try {
    return { body: JSON.parse(await request.text()) };
  } catch {
    return undefined;
  }
}

export function createHttpApp(app: AppContext, registry: ToolRegistry, options: HttpAppOptions): HttpApp {
  const sessions = createMcpSessions(app, registry, options);
  const sweeper = setInterval(() => sessions.evictStale(), Math.max(1000, Math.min(options.sessionIdleMs, options.sessionUnusedGraceMs, 60_000)));
  (sweeper as { unref?: () => void }).unref?.();

  const hono = new Hono();
  const hostNames = allowedHostNames(options.bindHost, options.allowedHosts);
  hono.use('*', guardHostAndOrigin({ hostNames, allowedOrigins: options.allowedOrigins, port: options.port, logger: app.logger }));
  hono.get('/healthz', (c) => c.json({ status: 'ok', name: 'ctxgate', version: VERSION, sessions: sessions.size }));
  const startedAt = Date.now();
  const status = mountStatus(hono, {
    token: options.token,
    ...(options.team ? { team: options.team } : {}),
    logger: app.logger,
    snapshot: () => collectStatus(app, { sessions: sessions.list(), startedAt, ...(options.team ? { team: options.team } : {}) }),
    onNewLoginPath: options.onNewStatusLoginPath,
  });

  hono.use('/mcp', requireBearer({ token: options.token, ...(options.team ? { team: options.team } : {}), logger: app.logger }));
  const limitBody = bodyLimit({
    maxSize: options.maxBodyBytes,
    onError: () => rpcError(413, -32000, `Payload too large: the request body limit is ${options.maxBodyBytes} bytes`),
  });
  hono.post('/mcp', limitBody, async (c) => {
    const parsed = await parseJson(c.req.raw);
    if (!parsed) return rpcError(400, -32700, 'Parse error: the request body is not valid JSON');
    return sessions.post(c.req.raw, parsed.body, c.get('sender'));
  });
  hono.get('/mcp', (c) => sessions.forward(c.req.raw, c.get('sender')));
  hono.delete('/mcp', (c) => sessions.forward(c.req.raw, c.get('sender')));
  hono.all('/mcp', () => rpcError(405, -32000, 'Method not allowed: use POST, GET or DELETE on /mcp'));
  hono.notFound(() => rpcError(404, -32000, 'Not found: the MCP endpoint is /mcp, the status page /status'));
  hono.onError((error) => {
    app.logger.log('http_error', { error: messageOf(error) });
    return rpcError(500, -32603, 'Internal error: the request could not be handled; the server log has details');
  });

  return {
    fetch: (request) => hono.fetch(request),
    get sessionCount() {
      return sessions.size;
    },
    statusLoginPath: () => status.loginPath(),
    async close() {
      clearInterval(sweeper);
      status.close();
      await sessions.close();
    },
  };
}
