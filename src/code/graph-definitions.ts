// Definitions as answers: the row shape the graph queries share, how strong a definition is for its
// name, overloads folded into their implementation, and the lookups by name, by line and by file.
import type { CodeIndex } from './index.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore, DefinitionRow } from './store.ts';

export interface Definition {
  id: number;
  file: string;
  name: string;
  kind: string;
  container: string | undefined;
  signature: string;
  /** First line, doc comment and decorators included. */
  start: number;
  /** The line that names it. */
  line: number;
  end: number;
  exported: boolean;
  topLevel: boolean;
  bodiless: boolean;
  /** Overload signatures (or prototypes) folded into this definition. */
  overloads: { line: number; signature: string }[];
}

export function toDefinition(r: DefinitionRow): Definition {
  return {
    id: r.id,
    file: r.path,
    name: r.name,
    kind: r.kind,
    container: r.container ?? undefined,
    signature: r.signature,
    start: r.start_line,
    line: r.name_line,
    end: r.end_line,
    exported: r.exported === 1,
    topLevel: r.parent_id === null,
    bodiless: r.bodiless === 1,
    overloads: [],
  };
}

const KIND_RANK: Record<string, number> = {
  function: 1,
  class: 1,
  interface: 0.95,
  struct: 1,
  trait: 0.95,
  enum: 0.9,
  type: 0.9,
  namespace: 0.85,
  module: 0.85,
  macro: 0.85,
  const: 0.85,
  method: 0.8,
  constructor: 0.75,
  variable: 0.7,
  field: 0.5,
  prototype: 0.4,
  impl: 0.3,
};

export const TEST_PATH = /(^|\/)(tests?|__tests__|specs?|testdata|e2e|fixtures?|examples?)\/|(_test\.go|\.(test|spec)\.[cm]?[jt]sx?|_test\.py|(^|\/)test_[^/]*\.py)$/i;

/** How strong a definition is as the answer for its name (0–1). */
export function definitionStrength(d: Definition): number {
  let s = KIND_RANK[d.kind] ?? 0.6;
  if (d.bodiless && !d.overloads.length) s *= 0.7;
  if (!d.topLevel) s *= 0.85;
  // A file-private definition is rarely the one asked for when an exported one exists (a `static
  // inline` in a C header is part of the header's interface, though).
  if (!d.exported && !/\.(h|hh|hpp|hxx)$/.test(d.file)) s *= 0.8;
  if (TEST_PATH.test(d.file)) s *= 0.5;
  const stem = (d.file.split('/').pop() ?? '').replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (stem && d.name.toLowerCase().replace(/[^a-z0-9]/g, '') === stem) s = Math.min(1, s * 1.1);
  return s;
}

/** Overloads and prototypes of one name in one file and container become one definition: the implementation. */
export function foldOverloads(defs: Definition[]): Definition[] {
  const groups = new Map<string, Definition[]>();
  for (const d of defs) {
    if (d.kind === 'impl') continue;
    const key = `${d.file}\u0000${d.container ?? ''}\u0000${d.name}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const out: Definition[] = [];
  for (const group of groups.values()) {
    const bodied = group.filter((d) => !d.bodiless);
    const declared = group.filter((d) => d.bodiless);
    if (!declared.length) {
      out.push(...group);
      continue;
    }
    if (!bodied.length) {
      // Only signatures (an interface's overloaded member, prototypes): one answer spanning them all.
      const [first, ...rest] = [...declared].sort((a, b) => a.start - b.start);
      out.push({ ...first!, end: Math.max(...declared.map((d) => d.end)), overloads: rest.map((d) => ({ line: d.line, signature: d.signature })) });
      continue;
    }
    // The implementation carries the signatures that were declared for it.
    for (const impl of bodied) out.push(impl === bodied[0] ? { ...impl, overloads: declared.map((d) => ({ line: d.line, signature: d.signature })) } : impl);
  }
  return out;
}

/** The file's stem: `src/Effect.ts` → `Effect`. */
export function stemOf(file: string): string {
  return (file.split('/').pop() ?? '').replace(/\..*$/, '');
}

function ownedBy(d: Definition, owner: string): number {
  if (d.container === owner) return 2;
  if (d.container?.toLowerCase() === owner.toLowerCase()) return 1.5;
  // A module is its file: `Effect.gen` is `gen` in Effect.ts, `mod.func` is func in mod.py.
  if (d.topLevel && stemOf(d.file) === owner) return 1.8;
  if (d.topLevel && stemOf(d.file).toLowerCase() === owner.toLowerCase()) return 1.2;
  const dir = d.file.split('/').slice(-2, -1)[0];
  if (d.topLevel && dir === owner) return 1;
  return 0;
}

/**
 * The store to answer about `name` from: the built index, or before the first build is done, one in
 * which every file whose text names it has been parsed now (undefined when those are too many).
 */
export async function storeNaming(index: CodeIndex, name: string): Promise<CodeStore | undefined> {
  const built = await index.ready();
  if (built) return built;
  const files = await index.filesNaming(name);
  return files ? index.onDemand(files) : undefined;
}

/** The store to answer about these files from: the built index, or one in which they were parsed now. */
export async function storeHolding(index: CodeIndex, files: Iterable<string>): Promise<CodeStore | undefined> {
  return (await index.ready()) ?? (await index.onDemand(files));
}

/** Definitions of `name` (of `owner` when given), folded and strongest first; undefined when the index cannot answer. */
export async function findDefinitions(index: CodeIndex, name: string, owner?: string): Promise<Definition[] | undefined> {
  const store = await storeNaming(index, name);
  if (!store) return undefined;
  let rows = store.definitionsNamed(name);
  if (await index.fresh(rows.map((r) => r.path))) rows = store.definitionsNamed(name);
  let defs = foldOverloads(rows.filter((r) => !isDocumentation(r.path)).map(toDefinition));
  if (owner) {
    const owned = defs.map((d) => ({ d, o: ownedBy(d, owner) })).filter((x) => x.o > 0);
    return owned.sort((a, b) => b.o - a.o || definitionStrength(b.d) - definitionStrength(a.d)).map((x) => x.d);
  }
  defs = defs.sort((a, b) => definitionStrength(b) - definitionStrength(a) || a.file.localeCompare(b.file) || a.line - b.line);
  return defs;
}

/** The innermost definition holding `line` of `file` (a field inside a class gives the field); null when none does. */
export async function definitionAt(index: CodeIndex, file: string, line: number): Promise<Definition | null | undefined> {
  const store = await storeHolding(index, [file]);
  if (!store) return undefined;
  await index.fresh([file]);
  if (!store.file(file)?.language) return undefined;
  const rows = store.definitionsAt(file, line).filter((r) => r.kind !== 'impl' || true);
  const row = rows[0];
  if (!row) return null;
  const def = toDefinition(row);
  if (def.bodiless) {
    // An overload line: answer with the implementation it declares, overloads listed.
    const all = foldOverloads(store.definitionsIn(file).filter((r) => r.name === def.name && (r.container ?? undefined) === def.container).map(toDefinition));
    const impl = all.find((d) => !d.bodiless);
    if (impl) return impl;
  }
  return def;
}

/** The definitions of a file in order: top level ones, and the members of top-level containers. */
export async function outlineOf(index: CodeIndex, file: string): Promise<Definition[] | undefined> {
  const store = await storeHolding(index, [file]);
  if (!store) return undefined;
  await index.fresh([file]);
  if (!store.file(file)?.language) return undefined;
  return store.definitionsIn(file, true).map(toDefinition);
}
