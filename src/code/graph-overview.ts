// The project at a glance: modules (folders), their most-called definitions, who imports whom.
import { definitionStrength, foldOverloads, TEST_PATH, toDefinition } from './graph-definitions.ts';
import type { CodeIndex } from './index.ts';

export interface Overview {
  modules: { dir: string; files: number; languages: string[]; key: { name: string; file: string; line: number; calls: number }[] }[];
  dependencies: { from: string; to: string; imports: number }[];
}

function moduleOf(file: string): string {
  const parts = file.split('/');
  return parts.length <= 1 ? '.' : parts.slice(0, Math.min(2, parts.length - 1)).join('/');
}

/** Modules (folders), their most-called definitions, and which modules import which. */
export async function overviewOf(index: CodeIndex): Promise<Overview | undefined> {
  const store = await index.ready();
  if (!store) return undefined;
  const modules = new Map<string, { files: number; languages: Map<string, number>; key: { name: string; file: string; line: number; calls: number }[] }>();
  for (const f of store.files()) {
    if (!f.language) continue;
    const m = moduleOf(f.path);
    const entry = modules.get(m) ?? { files: 0, languages: new Map(), key: [] };
    entry.files++;
    entry.languages.set(f.language, (entry.languages.get(f.language) ?? 0) + 1);
    modules.set(m, entry);
  }
  const called = store.db.all('SELECT name, count(*) AS n FROM code_refs WHERE kind = ? GROUP BY name ORDER BY n DESC LIMIT 400', ['call']) as { name: string; n: number }[];
  for (const { name, n } of called) {
    const def = foldOverloads(store.definitionsNamed(name).map(toDefinition)).filter((d) => d.topLevel && !TEST_PATH.test(d.file)).sort((a, b) => definitionStrength(b) - definitionStrength(a))[0];
    if (!def) continue;
    const entry = modules.get(moduleOf(def.file));
    if (entry && entry.key.length < 6) entry.key.push({ name, file: def.file, line: def.line, calls: Number(n) });
  }
  const deps = new Map<string, number>();
  for (const e of store.importEdges()) {
    const from = moduleOf(e.path);
    const to = moduleOf(e.target.endsWith('/') ? `${e.target}x` : e.target);
    if (from === to) continue;
    deps.set(`${from}\u0000${to}`, (deps.get(`${from}\u0000${to}`) ?? 0) + 1);
  }
  return {
    modules: [...modules.entries()]
      .sort((a, b) => b[1].files - a[1].files)
      .map(([dir, v]) => ({ dir, files: v.files, languages: [...v.languages.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l), key: v.key })),
    dependencies: [...deps.entries()].map(([k, imports]) => ({ from: k.split('\u0000')[0]!, to: k.split('\u0000')[1]!, imports })).sort((a, b) => b.imports - a.imports),
  };
}
