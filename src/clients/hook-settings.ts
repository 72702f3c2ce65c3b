// Claude Code hook settings (`hooks` in .claude/settings.local.json): ctxgate's PreToolUse steering
// hook and the gate spec's SessionStart reminder. Ours are recognised by their command
// (`…ctxgate(.mjs) hook pre-tool-use`, `…/main.ts hook session-start`), replaced in place on a second
// run, and every other hook is kept. (The folder need not say "ctxgate": a clone may live in any folder.)

/** Claude Code's built-in tools the steering hook looks at (edits are never matched). */
export const PRE_TOOL_USE_MATCHER = 'Bash|Grep|Read';
/** The gate spec's four SessionStart sources, as one matcher. */
export const SESSION_START_MATCHER = 'startup|resume|clear|compact';

interface HookCommand {
  type: string;
  command?: string;
  timeout?: number;
}
interface HookGroup {
  matcher?: string;
  hooks?: HookCommand[];
}

/** `… ctxgate hook …`, `…/dist/ctxgate.mjs hook …`, `…/src/main.ts hook …` (quoted or not); another program's `hook pre-tool-use` is not ours. */
const OURS = /(?:^|[\s/:'"])(?:ctxgate|ctxgate\.mjs|main\.ts)['"]?\s+hook (pre-tool-use|session-start)(\s+--nudge)?$/;

function isOurs(hook: HookCommand): boolean {
  return typeof hook.command === 'string' && OURS.test(hook.command);
}

/** The event's hook groups with ours replaced (or added) by `group`. */
export function withOurGroup(existing: unknown, group: HookGroup): HookGroup[] {
  const groups = Array.isArray(existing) ? (existing as HookGroup[]) : [];
  const kept: HookGroup[] = [];
  let at = -1;
  for (const g of groups) {
    const hooks = Array.isArray(g?.hooks) ? g.hooks : [];
    const others = hooks.filter((h) => !isOurs(h));
    if (others.length === hooks.length) {
      kept.push(g);
      continue;
    }
    if (at < 0) at = kept.length;
    if (others.length) kept.push({ ...g, hooks: others });
  }
  kept.splice(at < 0 ? kept.length : at, 0, group);
  return kept;
}

export function preToolUseGroup(command: string): HookGroup {
  return { matcher: PRE_TOOL_USE_MATCHER, hooks: [{ type: 'command', command: `${command} hook pre-tool-use`, timeout: 10 }] };
}

export function sessionStartGroup(command: string): HookGroup {
  return { matcher: SESSION_START_MATCHER, hooks: [{ type: 'command', command: `${command} hook session-start`, timeout: 10 }] };
}
