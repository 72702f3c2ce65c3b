// Definitions as answers: the row shape the graph queries share, how strong a definition is for its
// name, overloads folded into their implementation, C and C++ declarations folded into the body they
// declare, local declarations after every definition, and the lookups by name, by line and by file.
import type { LocalKind } from './extracted.ts';
import type { CodeIndex } from './index.ts';
import { isDocumentation, languageOf } from './languages.ts';
import type { CodeStore, DefinitionRow, LocalRow } from './store.ts';

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
  /** C and C++: prototypes and `extern` declarations of this body, in any file. */
  declarations?: { file: string; line: number; signature: string }[];
  /** C and C++: a `static` body in a header while a body with external linkage exists (a configuration stub). */
  shadowed?: boolean;
  /** A declaration that is no definition of its own (a local, a parameter, a field, an enum member) and the definition it sits in. */
  local?: { kind: LocalKind; in: { name: string; kind: string; start: number; end: number } | undefined };
}

const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'type', 'trait', 'impl', 'namespace', 'module']);

/** How a local declaration is named in answers: `parameter of escape`, `member of Color`. */
export function localLabel(d: Definition): string | undefined {
  if (!d.local) return undefined;
  // A field of a type, a member of an enum, a parameter of a function; a local (or an object's field) in a function.
  const of = d.local.kind === 'parameter' || TYPE_KINDS.has(d.local.in?.kind ?? '');
  const where = d.local.in ? ` ${of ? 'of' : 'in'} ${d.local.in.name}` : '';
  return `${d.local.kind}${where}`;
}

function fromLocal(r: LocalRow): Definition {
  const kind = r.kind as LocalKind;
  const inside = r.def_name !== null ? { name: r.def_name, kind: r.def_kind ?? '', start: r.def_start ?? r.line, end: r.def_end ?? r.line } : undefined;
  const d: Definition = { id: 0, file: r.path, name: r.name, kind, container: inside?.name, signature: '', start: r.line, line: r.line, end: r.line, exported: false, topLevel: false, bodiless: false, overloads: [], local: { kind, in: inside } };
  return { ...d, signature: `${localLabel(d)}: ${r.name}` };
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
  // Below every definition proper (the weakest, a test file's nested private prototype, is ~0.09).
  if (d.local) return TEST_PATH.test(d.file) ? 0.025 : 0.05;
  let s = KIND_RANK[d.kind] ?? 0.6;
  if (d.bodiless && !d.overloads.length) s *= 0.7;
  if (!d.topLevel) s *= 0.85;
  // A file-private definition is rarely the one asked for when an exported one exists (a `static
  // inline` in a C header is part of the header's interface, though).
  if (!d.exported && (d.shadowed || !/\.(h|hh|hpp|hxx)$/.test(d.file))) s *= 0.8;
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
 * which every file whose text names it has been parsed now (undefined when those are too many) — or,
 * `defining` and they are many, only those with a line that may declare it: then `partial`.
 */
export async function storeNaming(index: CodeIndex, name: string, options: { defining?: boolean } = {}): Promise<{ store: CodeStore; partial: boolean; naming?: readonly string[] } | undefined> {
  const built = await index.ready();
  if (built) return { store: built, partial: false };
  const found = await index.filesNaming(name, options);
  const store = found && (await index.onDemand(found.files));
  return store && { store, partial: found.narrowed, ...(found.narrowed ? {} : { naming: found.files }) };
}

/**
 * Definitions as an answer lists them; `partial`: found before the first build was done, in part of
 * the files naming the name (storeNaming) — others may declare it too, so their count is a lower bound.
 * `naming`: found before the first build was done in every file whose text names it (as a whole word,
 * in this case; relative to the indexed root): a scan for the name needs to read only those.
 */
export type Definitions = Definition[] & { partial?: true; naming?: readonly string[] };

/** The store to answer about these files from: the built index, or one in which they were parsed now. */
export async function storeHolding(index: CodeIndex, files: Iterable<string>): Promise<CodeStore | undefined> {
  return (await index.ready()) ?? (await index.onDemand(files));
}

const C_FAMILY = new Set(['c', 'cpp']);
const cFamily = (file: string) => C_FAMILY.has(languageOf(file) ?? '');

/**
 * C and C++: a prototype or an `extern` declaration is no answer of its own when a body of the name
 * exists: it is listed under the body (the strongest one with external linkage) as "declared in".
 */
export function foldDeclarations(defs: Definition[]): Definition[] {
  const declares = (d: Definition) => cFamily(d.file) && d.bodiless && (d.kind === 'prototype' || d.kind === 'variable' || d.kind === 'function' || d.kind === 'method');
  const isBody = (d: Definition) => cFamily(d.file) && !d.bodiless && (d.kind === 'function' || d.kind === 'method' || d.kind === 'variable');
  const bodies = defs.filter(isBody);
  if (!bodies.length) return defs;
  const declared = defs.filter(declares);
  const lines = (d: Definition) => d.overloads.map((o) => ({ file: d.file, line: o.line, signature: o.signature }));
  // A `static inline` body in a header is the interface itself, unless a body with external linkage
  // exists: then it is the stub a configuration compiles instead (`#else static inline … { }`), and
  // the prototypes (even one beside the stub) declare the other.
  const external = bodies.filter((d) => d.exported);
  const target = [...(external.length ? external : bodies)].sort((a, b) => definitionStrength(b) - definitionStrength(a))[0]!;
  const toTarget = [...declared.flatMap((d) => [{ file: d.file, line: d.line, signature: d.signature }, ...lines(d)]), ...(external.length ? bodies.filter((d) => !d.exported).flatMap(lines) : [])];
  return defs
    .filter((d) => !declared.includes(d))
    .map((d) => {
      if (!isBody(d)) return d;
      // Same-file prototypes folded as overloads are forward declarations in C and C++.
      const own = external.length && !d.exported ? [] : lines(d);
      const all = d === target ? [...own, ...toTarget] : own;
      return {
        ...d,
        overloads: [],
        ...(all.length ? { declarations: all.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line) } : {}),
        ...(external.length && !d.exported ? { shadowed: true } : {}),
      };
    });
}

/**
 * Definitions of `name` (of `owner` when given), folded and strongest first; with `locals`, the
 * declarations that are no definition of their own follow them all. Undefined when the index cannot answer.
 */
export async function findDefinitions(index: CodeIndex, name: string, owner?: string, options: { locals?: boolean } = {}): Promise<Definitions | undefined> {
  // Before the first build: the files that may define the name are parsed, not every file naming it;
  // a name none of them defines may still be a local anywhere it is named: then those are parsed too.
  let named = await storeNaming(index, name, { defining: true });
  if (!named) return undefined;
  if (options.locals && !named.store.definitionsNamed(name).length && !(await index.ready())) named = (await storeNaming(index, name)) ?? named;
  const { store, partial, naming } = named;
  const answer = (list: Definition[]): Definitions => Object.assign(list, partial ? { partial: true as const } : {}, naming ? { naming } : {});
  let rows = store.definitionsNamed(name);
  let localRows = options.locals ? store.localsNamed(name) : [];
  // A common local name (`i`, `ret`) is declared in thousands of files: the first few hundred are checked.
  const localPaths = [...new Set(localRows.map((r) => r.path))].slice(0, 200);
  if (await index.fresh([...rows.map((r) => r.path), ...localPaths])) {
    rows = store.definitionsNamed(name);
    if (options.locals) localRows = store.localsNamed(name);
  }
  let defs = foldDeclarations(foldOverloads(rows.filter((r) => !isDocumentation(r.path)).map(toDefinition)));
  const locals = localRows.filter((r) => !isDocumentation(r.path)).map(fromLocal);
  if (owner) {
    const owned = (list: Definition[]) =>
      list
        .map((d) => ({ d, o: ownedBy(d, owner) }))
        .filter((x) => x.o > 0)
        .sort((a, b) => b.o - a.o || definitionStrength(b.d) - definitionStrength(a.d))
        .map((x) => x.d);
    return answer([...owned(defs), ...owned(locals)]);
  }
  const order = (a: Definition, b: Definition) => definitionStrength(b) - definitionStrength(a) || a.file.localeCompare(b.file) || a.line - b.line;
  defs = defs.sort(order);
  return answer([...defs, ...locals.sort(order)]);
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
