// The tools' names and groups, without their declarations: what `--tools`, the config's `tools:` and a
// team user's grants are checked against, and what a stdio server lists before any tool's schema is
// built (tools/listing.ts). tools/index.ts holds the declarations in the same order.
import { AppError, ErrorCode } from '../errors.ts';

export const TOOL_NAMES = ['locate', 'read', 'search', 'explore', 'ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg'] as const;

/** Names `--tools` and the config's `tools:` accept besides tool names. */
export const TOOL_GROUPS: Record<string, readonly string[]> = {
  all: TOOL_NAMES,
  gate: ['locate', 'read', 'search', 'explore'],
  context: ['ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg'],
};

/** The names of the tools to offer, in the usual order: every name or group given (undefined: all). */
export function selectToolNames(wanted: readonly string[] | undefined, where: string): string[] {
  if (!wanted) return [...TOOL_NAMES];
  const names = new Set<string>();
  const known = new Set<string>(TOOL_NAMES);
  for (const entry of wanted.flatMap((w) => w.split(',')).map((w) => w.trim()).filter(Boolean)) {
    const group = TOOL_GROUPS[entry];
    if (group) for (const n of group) names.add(n);
    else if (known.has(entry)) names.add(entry);
    else {
      throw new AppError(ErrorCode.Config, `${where}: unknown tool '${entry}'`, {
        hint: `name tools (${TOOL_NAMES.join(', ')}) or groups (${Object.keys(TOOL_GROUPS).join(', ')})`,
      });
    }
  }
  return TOOL_NAMES.filter((n) => names.has(n));
}
