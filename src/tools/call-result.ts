// What a tool call answers (MCP's CallToolResult as ctxgate fills it), and the answer of a call that
// failed: kept apart from the registry so a server can answer a failure before any tool is loaded.
import { isAppError, messageOf, ErrorCode } from '../errors.ts';

export interface CallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A call's error as the client sees it: the code, what was wrong and, on a line of its own, what to do. */
export function failureResult(error: unknown): CallResult {
  const app = isAppError(error);
  const code = app ? error.code : ErrorCode.Internal;
  const hint = app ? error.hint : 'this is a bug in ctxgate; the log file has details';
  return { content: [{ type: 'text', text: `error ${code}: ${messageOf(error)}${hint ? `\nhint: ${hint}` : ''}` }], isError: true };
}
