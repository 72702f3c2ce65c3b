// What the PreToolUse hook offers instead of a command: a ctxgate call, written as Claude Code names it.
import { SERVER_NAME } from '../catalog.ts';

export interface Suggestion {
  /** The replacement call does what the command does. */
  exact: boolean;
  text: string;
}

export function callText(tool: string, args: Record<string, unknown>): string {
  return `mcp__${SERVER_NAME}__${tool} ${JSON.stringify(args)}`;
}
