// `ctxgate ARGS` run in the test's own process (kept apart from server.ts, so the files that only start
// processes do not load the command line's modules): for checks of what a command prints, writes and
// returns, where the process boundary is not the point. Each file that uses it still starts real
// processes for what only a process shows (exit on a closed pipe, a second process on the database,
// the bundle's own start).
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../src/cli/command.ts';
import type { Runtime } from '../../src/runtime/types.ts';
import { onDeno, repoRoot, runtime, withEnv } from './env.ts';
import type { CliResult } from './server.ts';

/**
 * runCli of src/cli/command.ts (what main.ts runs after loading the runtime) on this runtime, as a
 * process started the way server.ts's runCli starts one has it: its environment with `env` over it,
 * its home folder from `HOME` when `env` gives one (as `os.homedir()` takes it), the script it started
 * from (the bundle under Node, src/main.ts under Deno), the repository as its folder; what it writes
 * to stdout and stderr kept, and the exit code it returns as the status.
 */
export async function cliHere(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const here = withEnv(runtime, { NO_COLOR: '1', ...env });
  let stdout = '';
  let stderr = '';
  const home = env.HOME;
  const cli: Runtime = {
    ...here,
    args,
    cwd: () => repoRoot,
    homeDir: () => home ?? runtime.homeDir(),
    mainScript: realpathSync(path.join(repoRoot, onDeno ? 'src/main.ts' : 'dist/ctxgate.mjs')),
    writeStdout: async (text) => {
      stdout += text;
    },
    writeStderr: (text) => {
      stderr += text;
    },
  };
  const status = await runCli(cli);
  return { status, stdout, stderr };
}
