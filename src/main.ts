// Entry point on both runtimes: load the runtime shim, run the command line, exit with its code.
import { runCli } from './cli/command.ts';
import { loadRuntime } from './runtime/index.ts';

const runtime = await loadRuntime();
runtime.exit(await runCli(runtime));
