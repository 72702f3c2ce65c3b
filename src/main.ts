// Entry point on both runtimes: load the runtime shim, run the command line, exit with its code.
// `ctxgate hook …` (run by Claude Code on every matching tool call) takes a short path that loads
// nothing else.
import { loadRuntime } from './runtime/index.ts';

const runtime = await loadRuntime();
if (runtime.args[0] === 'hook') runtime.exit(await (await import('./cli/hook.ts')).runHook(runtime));
const { runCli } = await import('./cli/command.ts');
runtime.exit(await runCli(runtime));
