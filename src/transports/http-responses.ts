// What the HTTP endpoint answers when it refuses: the JSON-RPC error shape (clients show its message),
// never a stack trace.

/** A JSON-RPC error body with an HTTP status. */
export function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * 401 with `WWW-Authenticate: Bearer`: without that header MCP clients (Claude Code) take a 401 for
 * an OAuth server, go looking for its metadata and show that lookup's 404 instead of this message.
 * RFC 6750 §3: `error="invalid_token"` only when a token was presented.
 */
export function unauthorized(presented: boolean): Response {
  const problem = presented ? 'the bearer token does not match this server\'s token' : 'no bearer token was sent';
  return rpcError(
    401,
    -32001,
    `Unauthorized: ${problem}. Send "Authorization: Bearer <token>" with the token \`ctxgate serve\` prints at start ` +
      '(CTXGATE_TOKEN when set, else the http-token file in its data dir; `ctxgate serve --rotate-token` makes a new one)',
    { 'www-authenticate': presented ? 'Bearer realm="ctxgate", error="invalid_token"' : 'Bearer realm="ctxgate"' },
  );
}

export const RETRY_AFTER_SECONDS = 5;

export function tooManySessions(maxSessions: number): Response {
  return rpcError(
    503,
    -32000,
    `Too many busy sessions: all ${maxSessions} have a request in flight or a stream open; retry in a few seconds, or end unused sessions with DELETE /mcp`,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}

export function sessionNotFound(id: string): Response {
  return rpcError(404, -32001, `Session not found: '${id}' ended or never existed; start a new one with an initialize request`);
}
