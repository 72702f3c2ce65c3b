// The Hono middleware in front of every route: Host/Origin checks (DNS rebinding) and the bearer token.
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logging/logger.ts';
import { checkHost, checkOrigin, tokenMatches } from './http-guard.ts';
import { rpcError, unauthorized } from './http-responses.ts';

export interface HostGuardOptions {
  hostNames: Set<string>;
  allowedOrigins: readonly string[];
  /** The port clients reach; a getter because port 0 is only known after listening. */
  port: () => number;
  logger: Logger;
}

export function guardHostAndOrigin(options: HostGuardOptions): MiddlewareHandler {
  return async function guardHostAndOrigin(c, next) {
    const hostProblem = checkHost(c.req.header('host'), options.hostNames, options.port());
    const problem = hostProblem ?? checkOrigin(c.req.header('origin'), options.hostNames, options.allowedOrigins, options.port());
    if (problem) {
      options.logger.log('http_refused', { reason: problem });
      return rpcError(403, -32000, `Forbidden: ${problem}`);
    }
    await next();
  };
}

export function requireToken(token: string): MiddlewareHandler {
  return async function requireToken(c, next) {
    const authorization = c.req.header('authorization');
    if (!tokenMatches(authorization, token)) return unauthorized(authorization !== undefined);
    await next();
  };
}
