// Every tool the server offers. A new tool is a declaration (name, schema, hints; its `run` imports the
// handler module on the first call) and its entry here: the registry lists it, validates its arguments and
// calls it on every transport (the server's instructions and the README describe tools for people).
import { ctxBg } from './context/bg.ts';
import { ctxFs } from './context/fs.ts';
import { ctxGit } from './context/git.ts';
import { ctxKb } from './context/kb.ts';
import { ctxRun } from './context/run.ts';
import { explore } from './gate/explore.ts';
import { locate } from './gate/locate.ts';
import { read } from './gate/read.ts';
import { search } from './gate/search.ts';
import { AppError, ErrorCode } from '../errors.ts';
import type { ToolDefinition } from './registry.ts';

export const TOOLS: readonly ToolDefinition[] = [locate, read, search, explore, ctxRun, ctxFs, ctxGit, ctxKb, ctxBg];

/** Names `--tools` and the config's `tools:` accept besides tool names. */
export const TOOL_GROUPS: Record<string, readonly string[]> = {
  all: TOOLS.map((t) => t.name),
  gate: ['locate', 'read', 'search', 'explore'],
  context: ['ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg'],
};

/** The tools to offer, in the usual order: every name or group given (undefined: all). */
export function selectTools(wanted: readonly string[] | undefined, where: string): ToolDefinition[] {
  if (!wanted) return [...TOOLS];
  const names = new Set<string>();
  for (const entry of wanted.flatMap((w) => w.split(',')).map((w) => w.trim()).filter(Boolean)) {
    const group = TOOL_GROUPS[entry];
    if (group) for (const n of group) names.add(n);
    else if (TOOLS.some((t) => t.name === entry)) names.add(entry);
    else {
      throw new AppError(ErrorCode.Config, `${where}: unknown tool '${entry}'`, {
        hint: `name tools (${TOOLS.map((t) => t.name).join(', ')}) or groups (${Object.keys(TOOL_GROUPS).join(', ')})`,
      });
    }
  }
  return TOOLS.filter((t) => names.has(t.name));
}
