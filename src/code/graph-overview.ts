// The project at a glance, or one folder or file of it: modules (folders), their most-called
// definitions (counted per definition, not per name), who imports whom.
import { callCountsOf } from './graph-call-counts.ts';
import type { CodeIndex } from './index.ts';

export interface KeyDefinition {
  name: string;
  container: string | undefined;
  file: string;
  line: number;
  calls: number;
}

export interface Overview {
  /** The folder or file the overview covers; '' for the whole project. */
  scope: string;
  modules: { dir: string; files: number; languages: string[]; key: KeyDefinition[] }[];
  dependencies: { from: string; to: string; imports: number }[];
}

/** A file's module: up to two folders below `base` (the scope's folder, '' for the project). */
function moduleOf(file: string, base: string): string {
  const rel = base && file.startsWith(`${base}/`) ? file.slice(base.length + 1) : file;
  const parts = rel.split('/');
  const sub = parts.length <= 1 ? '' : parts.slice(0, Math.min(2, parts.length - 1)).join('/');
  if (!base || !file.startsWith(`${base}/`)) return sub || '.';
  return sub ? `${base}/${sub}` : base;
}

/**
 * Modules, their most-called definitions, and which modules import which: of the whole project, or
 * with `scope` (a project-relative folder or file) of that part only.
 */
export async function overviewOf(index: CodeIndex, scope = ''): Promise<Overview | undefined> {
  const store = await index.ready();
  if (!store) return undefined;
  const base = scope.replace(/^\.\/+|\/+$/g, '').replace(/^\.$/, '');
  const isFile = base !== '' && store.file(base) !== undefined;
  const inScope = (file: string) => !base || file === base || (!isFile && file.startsWith(`${base}/`));
  const moduleIn = (file: string) => (isFile && file === base ? base : moduleOf(file, isFile ? '' : base));
  const modules = new Map<string, { files: number; languages: Map<string, number>; key: KeyDefinition[] }>();
  for (const f of store.files()) {
    if (!f.language || !inScope(f.path)) continue;
    const m = moduleIn(f.path);
    const entry = modules.get(m) ?? { files: 0, languages: new Map(), key: [] };
    entry.files++;
    entry.languages.set(f.language, (entry.languages.get(f.language) ?? 0) + 1);
    modules.set(m, entry);
  }
  const perModule = isFile ? 15 : 6;
  for (const { definition: d, calls } of callCountsOf(store, base ? { path: base, isFile } : undefined)) {
    const entry = modules.get(moduleIn(d.file));
    if (entry && entry.key.length < perModule && (d.topLevel || d.container)) entry.key.push({ name: d.name, container: d.container, file: d.file, line: d.line, calls });
  }
  const deps = new Map<string, number>();
  for (const e of store.importEdges()) {
    if (!inScope(e.path)) continue;
    const from = moduleIn(e.path);
    const target = e.target.endsWith('/') ? `${e.target}x` : e.target;
    const to = inScope(target) ? moduleIn(target) : moduleOf(target, '');
    if (from === to) continue;
    deps.set(`${from}\u0000${to}`, (deps.get(`${from}\u0000${to}`) ?? 0) + 1);
  }
  return {
    scope: base,
    modules: [...modules.entries()]
      .sort((a, b) => b[1].files - a[1].files)
      .map(([dir, v]) => ({ dir, files: v.files, languages: [...v.languages.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l), key: v.key })),
    dependencies: [...deps.entries()].map(([k, imports]) => ({ from: k.split('\u0000')[0]!, to: k.split('\u0000')[1]!, imports })).sort((a, b) => b.imports - a.imports),
  };
}
