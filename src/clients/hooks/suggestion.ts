// What the PreToolUse hook offers instead of a command: a ctxgate call, written as Claude Code names it.
import * as path from 'node:path';
import { SERVER_NAME } from '../catalog.ts';

export interface Suggestion {
  /** The replacement call does what the command does. */
  exact: boolean;
  text: string;
}

export function callText(tool: string, args: Record<string, unknown>): string {
  return `mcp__${SERVER_NAME}__${tool} ${JSON.stringify(args)}`;
}

/** A path relative to the session folder, or undefined when it lies outside (ctxgate cannot serve it). */
export function inside(cwd: string, abs: string): string | undefined {
  const rel = path.relative(cwd, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}
