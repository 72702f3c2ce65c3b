// Where things are: the project root (primary workdir), the other workdirs, and the data folder.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

/** --project-root → CODE_CONTEXT_GATE_ROOT → CTXGATE_ROOT → cwd (the gate spec's order). */
/** Whether the user named a project root (flag or environment), rather than leaving it to the cwd. */
export function projectRootNamed(runtime: Runtime, flag: string | undefined): boolean {
  return (flag ?? runtime.env.get('CODE_CONTEXT_GATE_ROOT') ?? runtime.env.get('CTXGATE_ROOT')) !== undefined;
}

export function resolveProjectRoot(runtime: Runtime, flag: string | undefined): string {
  const given = flag ?? runtime.env.get('CODE_CONTEXT_GATE_ROOT') ?? runtime.env.get('CTXGATE_ROOT');
  const root = path.resolve(runtime.cwd(), given ?? '.');
  return realDirectory(runtime, root, 'project root');
}

/**
 * The workdirs: the project root first (primary), then the config's `workdirs`, each resolved
 * against the config file's folder, made real (symlinks resolved) and deduplicated.
 */
export function resolveWorkdirs(runtime: Runtime, projectRoot: string, configured: readonly string[], configFile: string | undefined): string[] {
  const base = configFile ? path.dirname(configFile) : projectRoot;
  const out = [projectRoot];
  for (const entry of configured) {
    const expanded = entry.startsWith('~/') ? path.join(runtime.homeDir(), entry.slice(2)) : entry;
    const dir = realDirectory(runtime, path.resolve(base, expanded), `workdir '${entry}'`);
    if (!out.includes(dir)) out.push(dir);
  }
  return out;
}

function realDirectory(runtime: Runtime, dir: string, what: string): string {
  const st = runtime.fs.statSync(dir);
  if (!st) throw new AppError(ErrorCode.Config, `${what} ${dir} does not exist`, { hint: 'pass an existing directory' });
  if (!st.isDirectory) throw new AppError(ErrorCode.Config, `${what} ${dir} is not a directory`, { hint: 'pass a directory' });
  return runtime.fs.realpathSync(dir);
}

/** Root of all ctxgate data: CTXGATE_DATA_DIR → $XDG_DATA_HOME/ctxgate → ~/.local/share/ctxgate. */
export function dataRoot(runtime: Runtime): string {
  const explicit = runtime.env.get('CTXGATE_DATA_DIR');
  if (explicit) {
    const dir = path.resolve(runtime.cwd(), explicit);
    // Kernel pseudo-filesystems hold no files of ours (and creating folders there can loop forever).
    if (/^\/(proc|sys)(\/|$)/.test(dir)) {
      throw new AppError(ErrorCode.Config, `CTXGATE_DATA_DIR=${explicit} points into /${dir.split('/')[1]}, a kernel pseudo-filesystem`, { hint: 'set CTXGATE_DATA_DIR to a writable folder on disk' });
    }
    return dir;
  }
  const xdg = runtime.env.get('XDG_DATA_HOME');
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(runtime.homeDir(), '.local', 'share'), 'ctxgate');
}

/**
 * The per-project data folder: `<first 8 bytes of sha256(abs primary workdir) as hex>-<basename>`,
 * so two projects never share a knowledge base, and a person can tell the folders apart.
 */
export function projectDataDir(runtime: Runtime, primaryWorkdir: string): string {
  const hash = runtime.sha256Hex(primaryWorkdir).slice(0, 16);
  const base = path.basename(primaryWorkdir) || 'root';
  return path.join(dataRoot(runtime), `${hash}-${base}`);
}

/** Creates the data folder 0700 (and fixes looser modes on an existing one). */
export function ensurePrivateDir(runtime: Runtime, dir: string): void {
  runtime.fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  runtime.fs.chmodSync(dir, 0o700);
}
