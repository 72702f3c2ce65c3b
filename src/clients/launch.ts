// How a client starts *this* copy of ctxgate: from a clone (absolute paths to the bundle or to
// src/main.ts) or from an installed package (its name, through npx).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

export type RuntimeChoice = 'node' | 'deno';

/** A command and its arguments, as MCP client configs and hook settings want them. */
export interface Launch {
  command: string;
  args: string[];
}

export interface Installation {
  /** A clone (package.json, src/ and dist/ side by side) or an installed package (dist/ only). */
  kind: 'clone' | 'package';
  /** The clone's or the package's folder. */
  root: string;
  /** Installed by npx into its cache: only `npx ctxgate` reaches it again. */
  npxCache: boolean;
}

/** Where the running ctxgate lives, from the script the process started (dist/ctxgate.mjs or src/main.ts). */
export function findInstallation(fs: Runtime['fs'], mainScript: string): Installation {
  if (!mainScript) {
    throw new AppError(ErrorCode.Unavailable, 'cannot tell where this ctxgate is installed (no script path)', {
      hint: 'run ctxgate init through its command (npx ctxgate init, node dist/ctxgate.mjs init or deno task ctxgate init)',
    });
  }
  const root = path.dirname(path.dirname(mainScript));
  const clone = fs.statSync(path.join(root, 'src', 'main.ts'))?.isFile === true && fs.statSync(path.join(root, 'package.json'))?.isFile === true;
  const npxCache = mainScript.split(path.sep).includes('_npx');
  return { kind: clone ? 'clone' : 'package', root, npxCache };
}

/** The deno executable: this process when it is Deno, else one on PATH, else the clone's npm `deno`. */
function denoExecutable(runtime: Runtime, installation: Installation): string | undefined {
  if (runtime.name === 'deno') return runtime.execPath;
  const onPath = runtime.which('deno');
  if (onPath) return onPath;
  const fromNpm = path.join(installation.root, 'node_modules', 'deno', 'deno');
  return runtime.fs.statSync(fromNpm)?.isFile ? fromNpm : undefined;
}

function nodeExecutable(runtime: Runtime): string | undefined {
  return runtime.name === 'node' ? runtime.execPath : runtime.which('node');
}

/**
 * The stdio server launch for an MCP client config. `portable` (MCP configs) prefers the package
 * name for an installed copy; hooks, which run on every tool call, want the direct path instead.
 */
export function serverLaunch(runtime: Runtime, installation: Installation, choice: RuntimeChoice, options: { portable: boolean }): Launch {
  if (installation.kind === 'package' && (options.portable || installation.npxCache)) {
    if (choice === 'deno') {
      const deno = denoExecutable(runtime, installation);
      if (!deno) throw missing('deno', 'install Deno (https://deno.com), or pass --runtime node');
      return { command: deno, args: ['run', '-A', 'npm:ctxgate'] };
    }
    return { command: 'npx', args: ['-y', 'ctxgate'] };
  }
  if (choice === 'deno') {
    const deno = denoExecutable(runtime, installation);
    if (!deno) throw missing('deno', 'install Deno (https://deno.com), or pass --runtime node');
    const main = installation.kind === 'clone' ? path.join(installation.root, 'src', 'main.ts') : path.join(installation.root, 'dist', 'ctxgate.mjs');
    return { command: deno, args: ['run', '-A', main] };
  }
  const node = nodeExecutable(runtime);
  if (!node) throw missing('node', 'install Node 22 or 24, or pass --runtime deno');
  const bundle = path.join(installation.root, 'dist', 'ctxgate.mjs');
  if (!runtime.fs.statSync(bundle)?.isFile) {
    throw new AppError(ErrorCode.Unavailable, `${bundle} does not exist yet`, { hint: 'build it first: npm run build (or pass --runtime deno)' });
  }
  return { command: node, args: [bundle] };
}

function missing(what: string, hint: string): AppError {
  return new AppError(ErrorCode.Unavailable, `no ${what} executable found for the client to start ctxgate with`, { hint });
}
