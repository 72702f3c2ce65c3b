// Entry point on both runtimes: load the runtime shim, run the command line, exit with its code.
// `ctxgate hook …` (run by Claude Code on every matching tool call) takes a short path that loads
// nothing else.
import { compileCacheDir } from './app/compile-cache.ts';
import { loadRuntime } from './runtime/index.ts';

const runtime = await loadRuntime();
// Every MCP session and every hook call is a new process: on Node, the code it compiles is kept for
// the next one (in the data folder, private), which then starts without compiling it again.
runtime.cacheCompiledCode(() => compileCacheDir(runtime));
if (runtime.args[0] === 'hook') runtime.exit(await (await import('./cli/hook.ts')).runHook(runtime));
const { runCli } = await import('./cli/command.ts');
runtime.exit(await runCli(runtime));
