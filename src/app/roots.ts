// MCP roots: a client that starts ctxgate outside the project (a GUI app launches it in its own folder)
// can say which folders it works on. When neither --project-root nor CODE_CONTEXT_GATE_ROOT /
// CTXGATE_ROOT names one, the first root becomes the project root (config, data dir, knowledge base)
// and every root a workdir.
import { resolveWorkdirs } from '../config/paths.ts';
import type { Runtime } from '../runtime/types.ts';
import type { CommonOptions } from './settings.ts';
import type { AppContext } from './context.ts';

/** The folder a root's `file://` URI names, or undefined (another scheme, or not a URI). */
export function rootPath(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return undefined;
  const decoded = decodeURIComponent(url.pathname);
  // file:///C:/work → C:/work
  return /^\/[A-Za-z]:\//.test(decoded) ? decoded.slice(1) : decoded;
}

/** The existing folders among the client's roots, real paths, in the client's order, without repeats. */
export function rootFolders(runtime: Runtime, uris: readonly string[]): string[] {
  const out: string[] = [];
  for (const uri of uris) {
    const p = rootPath(uri);
    if (!p || !runtime.fs.statSync(p)?.isDirectory) continue;
    const real = runtime.fs.realpathSync(p);
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

/**
 * Points an app that has served no tool call yet at the client's roots: a fresh context for the first
 * root (its config file, data dir, knowledge base, jobs, log) takes the place of the old one's parts,
 * the other roots join the workdirs, and the fresh parts close with the app.
 */
export async function followRoots(app: AppContext, options: CommonOptions, roots: readonly string[]): Promise<void> {
  const [primary, ...others] = roots;
  if (!primary) return;
  // Imported here: the stdio server lists its tools (this module among its imports) before the app exists.
  const { createAppContext } = await import('./bootstrap.ts');
  const fresh = createAppContext(app.runtime, { ...options, projectRoot: primary });
  const { lifecycle, ...parts } = fresh;
  parts.workdirs = { dirs: [...fresh.workdirs.dirs, ...others.filter((r) => !fresh.workdirs.dirs.includes(r))] };
  app.logger.log('roots_followed', { roots, projectRoot: primary });
  Object.assign(app, parts);
  app.lifecycle.onShutdown(() => lifecycle.shutdown('server stopping'));
}

/** A later roots/list_changed: the workdirs follow; the project root (and its data) stays. */
export function updateRootWorkdirs(app: AppContext, roots: readonly string[]): void {
  const dirs = resolveWorkdirs(app.runtime, app.projectRoot, app.config.workdirs, app.configFile);
  for (const root of roots) if (!dirs.includes(root)) dirs.push(root);
  app.workdirs = { dirs };
  app.logger.log('roots_changed', { roots, projectRoot: app.projectRoot, kept: roots.includes(app.projectRoot) });
}
