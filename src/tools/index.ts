// Every tool the server offers. A new tool is one module here; nothing else changes.
import { ctxBg } from './context/bg.ts';
import { ctxFs } from './context/fs.ts';
import { ctxGit } from './context/git.ts';
import { ctxKb } from './context/kb.ts';
import { ctxRun } from './context/run.ts';
import { explore } from './gate/explore.ts';
import { locate } from './gate/locate.ts';
import { read } from './gate/read.ts';
import { search } from './gate/search.ts';
import type { ToolDefinition } from './registry.ts';

export const TOOLS: readonly ToolDefinition[] = [locate, read, search, explore, ctxRun, ctxFs, ctxGit, ctxKb, ctxBg];
