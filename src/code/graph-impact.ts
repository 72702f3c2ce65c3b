// What a change reaches: a file's imports in and out, a definition's transitive callers and dependents.
import { findDefinitions } from './graph-definitions.ts';
import { usesOf } from './graph-uses.ts';
import type { CodeIndex } from './index.ts';
import type { ImportRow } from './store.ts';

export interface Dependencies {
  file: string;
  imports: ImportRow[];
  importedBy: ImportRow[];
}

export async function dependenciesOf(index: CodeIndex, file: string): Promise<Dependencies | undefined> {
  const store = await index.ready();
  if (!store) return undefined;
  await index.fresh([file]);
  return { file, imports: store.importsOf(file), importedBy: store.importersOf(file) };
}

export interface ImpactEntry {
  file: string;
  line: number;
  name: string;
  depth: number;
}

/** Transitive callers of a definition up to `depth`, and the files that import its file. */
export async function impactOf(index: CodeIndex, name: string, owner: string | undefined, depth: number): Promise<{ callers: ImpactEntry[]; dependents: string[] } | undefined> {
  const store = await index.ready();
  if (!store) return undefined;
  const seen = new Set<string>();
  const callers: ImpactEntry[] = [];
  let frontier: { name: string; owner: string | undefined }[] = [{ name, owner }];
  for (let level = 1; level <= depth && frontier.length; level++) {
    const next: { name: string; owner: string | undefined }[] = [];
    for (const f of frontier) {
      const u = await usesOf(index, f.name, f.owner);
      for (const use of u?.uses ?? []) {
        if (use.kind !== 'call' || !use.caller || use.certainty === 'name-only') continue;
        const key = `${use.file}\u0000${use.caller.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        callers.push({ file: use.file, line: use.caller.line, name: use.caller.container ? `${use.caller.container}.${use.caller.name}` : use.caller.name, depth: level });
        if (callers.length > 400) break;
        next.push({ name: use.caller.name, owner: undefined });
      }
    }
    frontier = next.slice(0, 60);
  }
  const defs = (await findDefinitions(index, name, owner)) ?? [];
  const dependents = new Set<string>();
  for (const d of defs.slice(0, 3)) for (const i of store.importersOf(d.file)) dependents.add(i.path);
  return { callers, dependents: [...dependents].sort() };
}
