// Uses of a name (calls, type uses, imports, comment mentions) with their callers and how sure each
// edge is, and the callees of a definition resolved through the file's imports.
import { type Definition, findDefinitions, foldOverloads, stemOf, storeHolding, storeNaming, toDefinition } from './graph-definitions.ts';
import type { CodeIndex } from './index.ts';
import type { CodeStore, ImportRow, ReferenceRow } from './store.ts';

export type Certainty = 'same-file' | 'imported' | 'qualified' | 'name-only';

export interface Use {
  file: string;
  line: number;
  kind: 'call' | 'type' | 'import' | 'mention';
  /** The function (or other definition) the use sits in. */
  caller: { name: string; container: string | undefined; line: number } | undefined;
  qualifier: string | undefined;
  /** How sure the edge to the anchor's definition is. */
  certainty: Certainty;
}

export interface Uses {
  definitions: Definition[];
  uses: Use[];
}

/** How a use in `file` reaches one of `defs`: its own file, an import of the defining file, a qualifier naming it. */
function certaintyOf(store: CodeStore, file: string, qualifier: string | undefined, defs: Definition[], imports: Map<string, ImportRow[]>): Certainty {
  if (defs.some((d) => d.file === file)) return 'same-file';
  let list = imports.get(file);
  if (!list) {
    list = store.importsOf(file);
    imports.set(file, list);
  }
  const targets = new Set(list.map((i) => i.target).filter((t): t is string => !!t));
  const imported = defs.some((d) => targets.has(d.file) || targets.has(`${d.file.slice(0, d.file.lastIndexOf('/') + 1)}`) || (d.file.indexOf('/') < 0 && targets.has('./')));
  if (imported) return 'imported';
  if (qualifier && defs.some((d) => d.container === qualifier || stemOf(d.file) === qualifier)) return 'qualified';
  return 'name-only';
}

/** Every indexed use of a name: calls, type uses, imports and comment mentions, each with its caller. */
export async function usesOf(index: CodeIndex, name: string, owner?: string, within?: ReadonlySet<string>): Promise<Uses | undefined> {
  const store = within ? await storeHolding(index, within) : await storeNaming(index, name);
  if (!store) return undefined;
  const definitions = (await findDefinitions(index, name, owner)) ?? [];
  // A common name has tens of thousands of uses: with `within`, only those files are made fresh and judged.
  const named = () => {
    const all = store.referencesNamed(name, ['call', 'type', 'import', 'mention']);
    return within ? all.filter((r) => within.has(r.path)) : all;
  };
  let rows = named();
  if (await index.fresh(within ?? rows.map((r) => r.path))) rows = named();
  const imports = new Map<string, ImportRow[]>();
  const uses: Use[] = rows.map((r: ReferenceRow) => ({
    file: r.path,
    line: r.line,
    kind: r.kind as Use['kind'],
    caller: r.def_name ? { name: r.def_name, container: r.def_container ?? undefined, line: r.def_line ?? r.line } : undefined,
    qualifier: r.qualifier ?? undefined,
    certainty: certaintyOf(store, r.path, r.qualifier ?? undefined, definitions, imports),
  }));
  // With an owner, a call through another qualifier (`Option.map` when asked for `Effect.map`) is not a use.
  const kept = owner ? uses.filter((u) => u.kind !== 'call' || !u.qualifier || u.qualifier === owner || u.certainty !== 'name-only') : uses;
  return { definitions, uses: kept.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line) };
}

export interface Callee {
  name: string;
  qualifier: string | undefined;
  count: number;
  /** Where the called name is defined, best first (empty when outside the project). */
  definedAt: { file: string; line: number; certainty: Certainty }[];
}

/** What a definition's body calls, each name resolved to its definitions through the file's imports. */
export async function calleesOf(index: CodeIndex, def: Definition): Promise<Callee[] | undefined> {
  let store = await index.ready();
  if (!store) {
    // Before the first build: the file and the files it imports, parsed now (callees are resolved through them).
    const own = await index.onDemand([def.file]);
    const imported = own?.importsOf(def.file).flatMap((i) => (i.target && !i.target.endsWith('/') ? [i.target] : [])) ?? [];
    store = own && (await index.onDemand(imported));
  }
  if (!store) return undefined;
  await index.fresh([def.file]);
  const calls = store.referencesWithin(def.file, def.start, def.end, 'call');
  const byName = new Map<string, { qualifier: string | undefined; count: number }>();
  for (const c of calls) {
    if (c.name === def.name && c.line === def.line) continue;
    const known = byName.get(c.name);
    if (known) known.count++;
    else byName.set(c.name, { qualifier: c.qualifier ?? undefined, count: 1 });
  }
  const imports = new Map<string, ImportRow[]>();
  const out: Callee[] = [];
  for (const [name, { qualifier, count }] of byName) {
    const defs = foldOverloads(store.definitionsNamed(name).map(toDefinition));
    const definedAt = defs
      .map((d) => ({ file: d.file, line: d.line, certainty: certaintyOf(store, def.file, qualifier, [d], imports) }))
      .filter((d) => d.certainty !== 'name-only' || defs.length === 1)
      .sort((a, b) => order(a.certainty) - order(b.certainty))
      .slice(0, 3);
    out.push({ name, qualifier, count, definedAt });
  }
  return out.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

function order(c: Certainty): number {
  return c === 'same-file' ? 0 : c === 'imported' ? 1 : c === 'qualified' ? 2 : 3;
}
