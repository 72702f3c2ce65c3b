// `ctxgate serve`: resolve the token, listen, say where, and close cleanly on shutdown.
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { selfCommand } from '../clients/launch.ts';
import { pasteLines } from '../clients/paste-line.ts';
import { openTeam } from '../app/team.ts';
import { usageByUser } from '../users/user-usage.ts';
import { createHttpApp } from './http.ts';
import { isLoopbackHost, isWildcardHost } from './http-guard.ts';
import { type ResolvedToken, resolveToken } from './http-token.ts';

export interface ServeOptions {
  host: string;
  port: number;
  /** True when --host was given explicitly (required for a non-loopback address). */
  hostExplicit: boolean;
  allowedHosts: string[];
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** Replace the saved token with a new one before serving. */
  rotateToken: boolean;
}

/** The stderr line that tells the local user the token (nothing when they chose it via CTXGATE_TOKEN). */
function tokenLine(t: ResolvedToken): string | undefined {
  if (t.source === 'env') return undefined;
  if (t.source === 'saved') return `token: ${t.token} (reused from ${t.file}; ctxgate serve --rotate-token makes a new one)`;
  if (t.source === 'rotated') return `token: ${t.token} (rotated, saved in ${t.file}; clients still sending the old one get 401)`;
  return `token: ${t.token} (new, saved in ${t.file}; reused at every start until ctxgate serve --rotate-token; CTXGATE_TOKEN chooses your own)`;
}

export async function serveHttp(app: AppContext, registry: ToolRegistry, options: ServeOptions): Promise<void> {
  const loopback = isLoopbackHost(options.host);
  if (!loopback && !options.hostExplicit) {
    throw new AppError(ErrorCode.Usage, `refusing to bind ${options.host} without an explicit --host`, { hint: 'pass --host to bind a non-loopback address' });
  }
  const resolved = resolveToken({ fs: app.runtime.fs, env: (name) => app.runtime.env.get(name), dataDir: app.dataDir, rotate: options.rotateToken });
  let port = options.port;
  // The address printed for people to open: a wildcard bind (0.0.0.0, ::) is reached through loopback
  // here, and 0.0.0.0 is no Host the endpoint accepts.
  const reach = isWildcardHost(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host;
  const shown = reach.includes(':') ? `[${reach}]` : reach;
  const origin = () => `http://${shown}:${port}`;
  const say = (line: string) => app.runtime.writeStderr(`ctxgate: ${line}\n`);
  const team = await openTeam(app, 'serve');
  if (team) app.lifecycle.onShutdown(() => team.close());
  const http = createHttpApp(app, registry, {
    bindHost: options.host,
    port: () => port,
    token: resolved.token,
    ...(team ? { team: { store: team.users, projectKey: team.projectKey, usage: () => usageByUser(team.db, team.projectKey) } } : {}),
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    maxBodyBytes: options.maxBodyBytes,
    maxSessions: 64,
    sessionIdleMs: 30 * 60_000,
    sessionUnusedGraceMs: 60_000,
    sessionGoneGraceMs: 60_000,
    onNewStatusLoginPath: (path) => say(`next one-time status sign-in link: ${origin()}${path}`),
  });
  // A team endpoint without its database would only fail call after call: it does not start, and says why.
  if (app.kb.backend === 'postgres') await app.kb.get();
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


  if (!loopback) say(`WARNING: listening on non-loopback address ${options.host}; anyone who can reach it and holds the token can run commands as this user`);
  if (resolved.untrusted) say(`made a new token: ${resolved.untrusted}`);
  const line = tokenLine(resolved);
  if (line) say(line);
  for (const paste of pasteLines(`${origin()}/mcp`, resolved.source === 'env' ? undefined : resolved.token, selfCommand(app.runtime))) say(paste);
  if (team) say(`team endpoint: project ${team.projectKey} in ${team.db.where}; users' tokens are accepted too (ctxgate users add NAME)`);
  say(`status page: ${origin()}${http.statusLoginPath()} (a one-time sign-in link; or send the token)`);
  // Last, so that a supervisor waiting for this line has seen everything above it.
  say(`MCP endpoint ${origin()}/mcp (health: /healthz), project ${app.projectRoot}`);
  app.logger.log('server_start', { transport: 'http', host: options.host, port, projectRoot: app.projectRoot, tools: registry.names });
}
