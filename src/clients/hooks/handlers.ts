// `ctxgate hook <name>`: what Claude Code runs at a hook point. Each handler takes the JSON Claude
// Code writes to stdin and returns what to print (JSON on stdout, exit 0); it never fails the tool call.
import { type SteerDeps, steer, type ToolCall } from './steer.ts';
import { callText } from './suggestion.ts';

export const HOOK_NAMES = ['pre-tool-use', 'session-start'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export interface HookOptions {
  /** Turn every block into a nudge. */
  nudgeOnly: boolean;
}

function parseInput(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** PreToolUse: pass silently, add context (a nudge), or deny with the replacement call. */
export async function preToolUse(text: string, deps: SteerDeps, options: HookOptions): Promise<string> {
  const decision = await steer(parseInput(text) as ToolCall, deps);
  if (decision.kind === 'pass') return '';
  if (decision.kind === 'block' && !options.nudgeOnly) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: decision.text } });
  }
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: decision.text } });
}

/** The gate spec's session reminder (SessionStart: startup, resume, clear, compact). */
export const SESSION_REMINDER = [
  'This project routes code discovery and big outputs through the ctxgate MCP server.',
  `Probe it once now: ${callText('locate', { query: 'main', max_results: 1 })}.`,
  'If it answers: find code with locate, read blocks with read, search text with search, map structure with explore; run tests, builds and other long-output commands with ctx_run (intent says what you look for) and fetch pages with ctx_kb fetch.',
  'If the ctxgate tools are missing or fail: tell the user that ctxgate is not running (they can run `ctxgate init` and approve the server), and meanwhile keep outputs small by hand: rg -n with a folder and -m, sed -n ranges instead of cat, head on command output.',
].join('\n');

export function sessionStart(text: string): string {
  const input = parseInput(text);
  if (input.agent_id !== undefined) return '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: SESSION_REMINDER } });
}

export async function runHookHandler(name: HookName, text: string, deps: SteerDeps, options: HookOptions): Promise<string> {
  return name === 'pre-tool-use' ? preToolUse(text, deps, options) : sessionStart(text);
}
