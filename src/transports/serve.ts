// `ctxgate serve`: resolve the token, listen, say where, and close cleanly on shutdown.
import * as path from 'node:path';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { createHttpApp } from './http.ts';
import { generateToken, isLoopbackHost } from './http-guard.ts';

export interface ServeOptions {
  host: string;
  port: number;
  /** True when --host was given explicitly (required for a non-loopback address). */
  hostExplicit: boolean;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
}

export const TOKEN_FILE = 'http-token';

/** CTXGATE_TOKEN when set; otherwise a fresh token, written 0600 to the data dir and printed once. */
function resolveToken(app: AppContext): { token: string; file?: string } {
  const fromEnv = app.runtime.env.get('CTXGATE_TOKEN');
  if (fromEnv !== undefined) {
    if (fromEnv.length < 16) {
      throw new AppError(ErrorCode.Config, 'CTXGATE_TOKEN is shorter than 16 characters', { hint: 'use a long random value, e.g. from `openssl rand -hex 32`' });
    }
    return { token: fromEnv };
  }
  const token = generateToken();
  const file = path.join(app.dataDir, TOKEN_FILE);
  app.runtime.fs.writeFileAtomicSync(file, `${token}\n`, 0o600);
  return { token, file };
}

export async function serveHttp(app: AppContext, registry: ToolRegistry, options: ServeOptions): Promise<void> {
  const loopback = isLoopbackHost(options.host);
  if (!loopback && !options.hostExplicit) {
    throw new AppError(ErrorCode.Usage, `refusing to bind ${options.host} without an explicit --host`, { hint: 'pass --host to bind a non-loopback address' });
  }
  const { token, file } = resolveToken(app);
  let port = options.port;
  const http = createHttpApp(app, registry, {
    bindHost: options.host,
    port: () => port,
    token,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    maxBodyBytes: options.maxBodyBytes,
    maxSessions: 64,
    sessionIdleMs: 30 * 60_000,
    sessionUnusedGraceMs: 60_000,
  });
  let listener: Awaited<ReturnType<typeof app.runtime.listen>>;
  try {
    listener = await app.runtime.listen(http.fetch, { hostname: options.host, port: options.port });
  } catch (error) {
    throw new AppError(ErrorCode.Unavailable, `cannot listen on ${options.host}:${options.port}: ${messageOf(error)}`, {
      hint: 'pick another --port, or stop the process that holds it',
    });
  }
  port = listener.port;
  app.lifecycle.onShutdown(() => listener.close());
  app.lifecycle.onShutdown(() => http.close());

  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  const say = (line: string) => app.runtime.writeStderr(`ctxgate: ${line}\n`);
  if (!loopback) say(`WARNING: listening on non-loopback address ${options.host}; anyone who can reach it and holds the token can run commands as this user`);
  if (file) say(`token: ${token} (also in ${file}; set CTXGATE_TOKEN to choose your own)`);
  // Last, so that a supervisor waiting for this line has seen everything above it.
  say(`MCP endpoint http://${shown}:${port}/mcp (health: /healthz), project ${app.projectRoot}`);
  app.logger.log('server_start', { transport: 'http', host: options.host, port, projectRoot: app.projectRoot, tools: registry.names });
}
