// The Hono middleware in front of every route: Host/Origin checks (DNS rebinding). The bearer token
// of /mcp: http-auth.ts.
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logging/logger.ts';
import { checkHost, checkOrigin } from './http-guard.ts';
import { rpcError } from './http-responses.ts';

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
