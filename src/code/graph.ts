// Questions the code index answers: definitions of a name (owner-qualified, overloads folded into
// their implementation), the definition around a line, a file's outline, callers with their
// enclosing functions and how sure each edge is, callees, imports in and out, impact, and definition
// blocks for questions in words. Every answer first re-parses the files it rests on if they were
// touched since indexing; each returns undefined when the index cannot answer yet.
import type { CodeIndex } from './index.ts';
import { identifierWords } from './extract.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore, DefinitionRow, ImportRow, ReferenceRow } from './store.ts';

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

function toDefinition(r: DefinitionRow): Definition {
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

const TEST_PATH = /(^|\/)(tests?|__tests__|specs?|testdata|e2e|fixtures?|examples?)\/|(_test\.go|\.(test|spec)\.[cm]?[jt]sx?|_test\.py|(^|\/)test_[^/]*\.py)$/i;

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
function stemOf(file: string): string {
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

async function storeFor(index: CodeIndex): Promise<CodeStore | undefined> {
  return index.ready();
}

/** Definitions of `name` (of `owner` when given), folded and strongest first; undefined when the index cannot answer. */
export async function findDefinitions(index: CodeIndex, name: string, owner?: string): Promise<Definition[] | undefined> {
  const store = await storeFor(index);
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
  const store = await storeFor(index);
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
  const store = await storeFor(index);
  if (!store) return undefined;
  await index.fresh([file]);
  if (!store.file(file)?.language) return undefined;
  return store.definitionsIn(file, true).map(toDefinition);
}

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
export async function usesOf(index: CodeIndex, name: string, owner?: string): Promise<Uses | undefined> {
  const store = await storeFor(index);
  if (!store) return undefined;
  const definitions = (await findDefinitions(index, name, owner)) ?? [];
  let rows = store.referencesNamed(name, ['call', 'type', 'import', 'mention']);
  if (await index.fresh(rows.map((r) => r.path))) rows = store.referencesNamed(name, ['call', 'type', 'import', 'mention']);
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
  const store = await storeFor(index);
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

export interface Dependencies {
  file: string;
  imports: ImportRow[];
  importedBy: ImportRow[];
}

export async function dependenciesOf(index: CodeIndex, file: string): Promise<Dependencies | undefined> {
  const store = await storeFor(index);
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
  const store = await storeFor(index);
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

export interface BlockHit extends Definition {
  score: number;
}

/** FTS5 query text: the phrase, then every word (each quoted, so no word is an operator). */
function ftsQueries(question: string): { named: string; phrase: string; all: string; any: string } | undefined {
  // Identifiers in the question count as their words, as names do in the index (fiberRef → fiber ref).
  const words = (question.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => identifierWords(w)).filter((w) => w.length > 1);
  if (!words.length) return undefined;
  const quoted = words.map((w) => `"${w.replace(/"/g, '')}"`);
  const phrase = `"${words.join(' ')}"`;
  return { named: `{name signature doc} : ${phrase}`, phrase, all: quoted.join(' AND '), any: quoted.join(' OR ') };
}

export interface BlockAnswer {
  hits: BlockHit[];
  /** Matching blocks per file over the whole scope (the gate's totals and distribution). */
  perFile: Map<string, number>;
}

/** Definition blocks answering a question in words: phrase matches first, then all words, then any, BM25 within each. */
export async function searchBlocks(index: CodeIndex, question: string, inScope: (file: string) => boolean, limit: number): Promise<BlockAnswer | undefined> {
  const store = await storeFor(index);
  if (!store) return undefined;
  const first = rankBlocks(store, question, inScope, limit);
  // Lines move when a file is edited: answer again from the files as they are now.
  return (await index.fresh(new Set(first.hits.map((h) => h.file)))) ? rankBlocks(store, question, inScope, limit) : first;
}

function rankBlocks(store: CodeStore, question: string, inScope: (file: string) => boolean, limit: number): BlockAnswer {
  const q = ftsQueries(question);
  if (!q) return { hits: [], perFile: new Map() };
  const seen = new Set<number>();
  const hits: BlockHit[] = [];
  let perFile = new Map<string, number>();
  // The phrase in a name, signature or doc comment; the phrase anywhere (body identifiers included);
  // every word; any word. Each tier ranks below the one before it.
  const tiers: [string, number][] = [
    [q.named, 1],
    [q.phrase, 0.85],
    [q.all, 0.7],
    [q.any, 0.5],
  ];
  for (const [match, base] of tiers) {
    const rows = store.searchBlocks(match, limit * 4).filter((r) => inScope(r.path) && !seen.has(r.id) && !isDocumentation(r.path));
    if (!rows.length) continue;
    // The gate counts the blocks of the strictest tier that answers at all.
    if (!perFile.size) perFile = new Map([...store.blocksPerFile(match)].filter(([f]) => inScope(f)));
    const best = rows[0]!.rank;
    for (const r of rows) {
      seen.add(r.id);
      // bm25 is negative, lower is better: scale within the tier to (0.6–1] × base.
      const rel = best < 0 ? r.rank / best : 1;
      hits.push({ ...toDefinition(r), score: Math.round(base * (0.6 + 0.4 * rel) * 1000) / 1000 });
    }
    if (hits.length >= limit) break;
  }
  return { hits: hits.slice(0, limit), perFile };
}

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
  const store = await storeFor(index);
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
