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
import { selectToolNames } from './names.ts';
import type { ToolDefinition } from './registry.ts';

/** In TOOL_NAMES' order (tools/names.ts; a test checks it). */
export const TOOLS: readonly ToolDefinition[] = [locate, read, search, explore, ctxRun, ctxFs, ctxGit, ctxKb, ctxBg];

/** The tools to offer, in the usual order: every name or group given (undefined: all). */
export function selectTools(wanted: readonly string[] | undefined, where: string): ToolDefinition[] {
  const names = new Set(selectToolNames(wanted, where));
  return TOOLS.filter((t) => names.has(t.name));
}
