// Who sends a request to /mcp. The server's own token (http-token.ts) lets its one person in, as
// before; on a team endpoint (Postgres) a user token (`ctxg_…`, users/user-token.ts) is looked up by
// its hash on every request, so a revoked token fails at once: 401 for a token nobody holds or one
// revoked, 403 for a user without access to this server's project. The user's name travels with the
// request (c.get('sender')) into its MCP session and from there into every call record. The status
// page (status-routes.ts) lets a user token in by the same rules (checkUserTokenHash).
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../errors.ts';
import { refusalFor, type TeamUser, type UserStore } from '../users/user-store.ts';
import { hashUserToken, looksLikeUserToken } from '../users/user-token.ts';
import { sameSecret } from './http-guard.ts';
import { RETRY_AFTER_SECONDS, rpcError, unauthorized } from './http-responses.ts';

export interface TeamAccess {
  store: Pick<UserStore, 'findByTokenHash'>;
  /** The project this server serves: a user token must give access to it. */
  projectKey: string;
}

export interface BearerOptions {
  /** The server's own token. */
  token: string;
  /** User tokens, on a team endpoint. */
  team?: TeamAccess;
  logger: Logger;
}

/** Who a request came from: a user's name, or undefined for the server's own token. */
export type Sender = { user?: string; tools?: readonly string[] };

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by requireBearer on every request it lets through. */
    sender: Sender;
  }
}

function bearerOf(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/** What a user token is worth here: its user, or why not (401 unknown or revoked, 403 another project, 503 database down). */
export type UserCheck = { user: TeamUser } | { status: 401 | 403 | 503; reason: string };

/**
 * Looks a user token up by its hash (`hashUserToken`), with the rules of /mcp: the same for the
 * status page. The refusal's reason is fit to show the caller; database details go to the log only.
 */
export async function checkUserTokenHash(team: TeamAccess, tokenHash: string, logger: Pick<Logger, 'log'>, where: string): Promise<UserCheck> {
  let user: TeamUser | undefined;
  try {
    user = await team.store.findByTokenHash(tokenHash);
  } catch (error) {
    // The database is down or the connection was lost: the next request tries again. The detail
    // (host, port, user, database) goes to the log only — the caller is not authenticated yet.
    logger.log('http_refused', { reason: 'users could not be looked up', error: messageOf(error), status: 503, where });
    return { status: 503, reason: 'the team database is unreachable; try again shortly' };
  }
  const refusal = refusalFor(user, team.projectKey);
  if (!refusal) return { user: user! };
  logger.log('http_refused', { reason: refusal.reason, status: refusal.status, where, ...(user ? { user: user.name } : {}) });
  const reason =
    refusal.status === 403
      ? `${refusal.reason}; ask whoever runs this endpoint for access (ctxgate users grant ${user!.name} --project ${team.projectKey})`
      : `${refusal.reason}; ask whoever runs this endpoint for a new token (ctxgate users add)`;
  return { status: refusal.status, reason };
}

export function requireBearer(options: BearerOptions): MiddlewareHandler {
  return async function requireBearer(c, next) {
    const authorization = c.req.header('authorization');
    const token = bearerOf(authorization) ?? '';
    if (sameSecret(token, options.token)) {
      c.set('sender', {});
      return next();
    }
    if (!options.team || !looksLikeUserToken(token)) return unauthorized(authorization !== undefined);
    const check = await checkUserTokenHash(options.team, hashUserToken(token), options.logger, '/mcp');
    if ('status' in check) {
      if (check.status === 503) return rpcError(503, -32000, `Unavailable: ${check.reason}`, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      if (check.status === 403) return rpcError(403, -32003, `Forbidden: ${check.reason}`);
      return rpcError(401, -32001, `Unauthorized: ${check.reason}`, { 'www-authenticate': 'Bearer realm="ctxgate", error="invalid_token"' });
    }
    const { user } = check;
    c.set('sender', { user: user.name, ...(user.tools === 'all' ? {} : { tools: user.tools }) });
    return next();
  };
}
