// How a client starts *this* copy of ctxgate: from a clone, absolute paths to the bundle (Node) or to
// src/main.ts (Deno); from an installed package (global or local), its installed bin by absolute path;
// `npx -y ctxgate` only when asked for (--launcher npx: the package published on npm).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

export type RuntimeChoice = 'node' | 'deno';

/** `path`: this copy, by absolute path. `npx`: the package published on npm, fetched by npx. */
export type LauncherChoice = 'path' | 'npx';

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
  /** Installed by npx into its cache, which npm clears when it likes: no path into it lasts. */
  npxCache: boolean;
}

/** Where the running ctxgate lives, from the script the process started (dist/ctxgate.mjs or src/main.ts). */
export function findInstallation(fs: Runtime['fs'], mainScript: string): Installation {
  if (!mainScript) {
    throw new AppError(ErrorCode.Unavailable, 'cannot tell where this ctxgate is installed (no script path)', {
      hint: 'run ctxgate init through its command (ctxgate init, node dist/ctxgate.mjs init or deno task ctxgate init)',
    });
  }
  const root = path.dirname(path.dirname(mainScript));
  const clone = fs.statSync(path.join(root, 'src', 'main.ts'))?.isFile === true && fs.statSync(path.join(root, 'package.json'))?.isFile === true;
  const npxCache = mainScript.split(path.sep).includes('_npx');
  return { kind: clone ? 'clone' : 'package', root, npxCache };
}

/**
 * The executable named `name` as the user reaches it: the PATH entry when it is the running binary
 * (so /opt/homebrew/bin/node, not the versioned folder it links to, which an upgrade removes), else
 * the running binary itself.
 */
function userExecutable(runtime: Runtime, name: RuntimeChoice): string | undefined {
  const onPath = runtime.which(name);
  if (runtime.name !== name) return onPath;
  if (onPath && runtime.fs.realpathSync(onPath) === runtime.fs.realpathSync(runtime.execPath)) return onPath;
  return runtime.execPath;
}

/**
 * The package's `ctxgate` bin link, when npm made one that leads to this package: `<dir>/node_modules/.bin/ctxgate`
 * for a local install, `<prefix>/bin/ctxgate` for a global one (`<prefix>/lib/node_modules/ctxgate`).
 */
function installedBin(runtime: Runtime, root: string): string | undefined {
  const modules = path.dirname(root);
  if (path.basename(modules) !== 'node_modules') return undefined;
  const bundle = runtime.fs.realpathSync(path.join(root, 'dist', 'ctxgate.mjs'));
  const candidates = [path.join(modules, '.bin', 'ctxgate')];
  if (path.basename(path.dirname(modules)) === 'lib') candidates.push(path.join(path.dirname(path.dirname(modules)), 'bin', 'ctxgate'));
  return candidates.find((bin) => runtime.fs.statSync(bin)?.isFile && runtime.fs.realpathSync(bin) === bundle);
}

const NO_DENO = 'install Deno (https://deno.com), or pass --runtime node';

/** The stdio server launch for MCP client configs and hooks. */
export function serverLaunch(runtime: Runtime, installation: Installation, choice: RuntimeChoice, launcher: LauncherChoice = 'path'): Launch {
  if (launcher === 'npx') {
    if (choice === 'deno') return { command: userExecutable(runtime, 'deno') ?? missing('deno', NO_DENO), args: ['run', '-A', 'npm:ctxgate'] };
    return { command: 'npx', args: ['-y', 'ctxgate'] };
  }
  if (installation.npxCache) {
    throw new AppError(ErrorCode.Unavailable, `this ctxgate runs from npx's cache (${installation.root}), which npm clears when it likes: a config naming it would stop working`, {
      hint: 'install ctxgate (npm install -g ctxgate, or npm install ctxgate in a folder of yours) and run its init, or pass --launcher npx to start the package published on npm through npx',
    });
  }
  if (choice === 'deno') {
    const deno = userExecutable(runtime, 'deno') ?? missing('deno', NO_DENO);
    const main = installation.kind === 'clone' ? path.join(installation.root, 'src', 'main.ts') : path.join(installation.root, 'dist', 'ctxgate.mjs');
    return { command: deno, args: ['run', '-A', main] };
  }
  const bundle = path.join(installation.root, 'dist', 'ctxgate.mjs');
  if (!runtime.fs.statSync(bundle)?.isFile) {
    throw new AppError(ErrorCode.Unavailable, `${bundle} does not exist yet`, { hint: 'build it first: npm run build (or pass --runtime deno)' });
  }
  const bin = installation.kind === 'package' ? installedBin(runtime, installation.root) : undefined;
  if (bin) return { command: bin, args: [] };
  return { command: userExecutable(runtime, 'node') ?? missing('node', 'install Node 22 or 24, or pass --runtime deno'), args: [bundle] };
}

function missing(what: string, hint: string): never {
  throw new AppError(ErrorCode.Unavailable, `no ${what} executable found for the client to start ctxgate with`, { hint });
}

/**
 * The command line that runs this ctxgate as the user would type it (`ctxgate`, `node /abs/dist/ctxgate.mjs`,
 * `deno run -A /abs/src/main.ts`), for lines that tell people what to run next; `ctxgate` when it cannot tell.
 */
export function selfCommand(runtime: Runtime): string[] {
  try {
    const launch = serverLaunch(runtime, findInstallation(runtime.fs, runtime.mainScript), runtime.name);
    return [launch.command, ...launch.args];
  } catch {
    return ['ctxgate'];
  }
}
