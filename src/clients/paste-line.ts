// What `ctxgate serve` prints for people to paste: the client command that connects to this endpoint.
import { quote } from 'shell-quote';
import { SERVER_NAME, TOKEN_VARIABLE } from './catalog.ts';

/**
 * A Claude Code command line for the endpoint, and the init line for every other client. `token` is
 * the value when serve has just printed it; otherwise the line reads it from $CTXGATE_TOKEN. `self`: the
 * command that runs this ctxgate (a Deno-only user has no `ctxgate` on PATH).
 */
export function pasteLines(url: string, token: string | undefined, self: readonly string[] = ['ctxgate']): string[] {
  const header = token === undefined ? `"Authorization: Bearer \${${TOKEN_VARIABLE}}"` : quote([`Authorization: Bearer ${token}`]);
  return [
    `connect Claude Code: claude mcp add --transport http ${SERVER_NAME} ${url} --header ${header}`,
    `other clients: ${TOKEN_VARIABLE}=… ${quote([...self])} init --http ${url} --client cursor (or vscode, codex, gemini, all)`,
  ];
}
