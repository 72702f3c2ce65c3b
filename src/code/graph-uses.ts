// Uses of a name (calls, type uses, imports, comment mentions) with their callers and how sure each
// edge is, and the callees of a definition resolved through the file's imports.
import { type Call, callGroups } from './call-groups.ts';
import { CallResolver, type Certainty } from './graph-calls.ts';
import { type Definition, findDefinitions, stemOf, storeHolding, storeNaming } from './graph-definitions.ts';
import type { CodeIndex } from './index.ts';
import type { CodeStore, ImportRow, ReferenceRow } from './store.ts';

export interface Use {
  file: string;
  line: number;
  kind: 'call' | 'type' | 'import' | 'mention';
  /** The function (or other definition) the use sits in. */
  caller: { name: string; container: string | undefined; line: number } | undefined;
  qualifier: string | undefined;
  /** How sure the edge to the anchor's definition is. */
  certainty: Certainty;
  /** How many times the name is used this way on the line (`f(a) + f(b)`: 2); 1 when not known. */
  times?: number;
}

export type { Certainty };

export interface Uses {
  definitions: Definition[];
  uses: Use[];
  /** Calls of the name whose receiver is unknown while other owners define it too: not in `uses`. */
  byNameElsewhere: number;
  /** Calls of the name resolved to another definition (another owner's method, a local). */
  elsewhere: number;
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

/** The name's use rows, in `within`'s files when given — made fresh first (a common name has tens of thousands: with `within`, only those files are). */
async function freshRows(index: CodeIndex, store: CodeStore, name: string, within: ReadonlySet<string> | undefined): Promise<ReferenceRow[]> {
  const named = () => {
    const all = store.referencesNamed(name, ['call', 'type', 'import', 'mention']);
    return within ? all.filter((r) => within.has(r.path)) : all;
  };
  const rows = named();
  return (await index.fresh(within ?? rows.map((r) => r.path))) ? named() : rows;
}

function useOf(r: ReferenceRow, certainty: Certainty, times: number): Use {
  return {
    file: r.path,
    line: r.line,
    kind: r.kind as Use['kind'],
    caller: r.def_name ? { name: r.def_name, container: r.def_container ?? undefined, line: r.def_line ?? r.line } : undefined,
    qualifier: r.qualifier ?? undefined,
    certainty,
    times,
  };
}

/**
 * Every indexed use of a name: calls, type uses, imports and comment mentions, each with its caller.
 * `kindsOnly`: the rows as they are, none resolved (a literal search labels its lines: on the Linux
 * tree, resolving `vfs_fsync_range`'s 18 lines cost a new server's first search 50–90 ms).
 */
export async function usesOf(index: CodeIndex, name: string, owner?: string, within?: ReadonlySet<string>, options: { kindsOnly?: boolean } = {}): Promise<Uses | undefined> {
  const store = within ? await storeHolding(index, within) : (await storeNaming(index, name))?.store;
  if (!store) return undefined;
  if (options.kindsOnly) return { definitions: [], uses: (await freshRows(index, store, name, within)).map((r) => useOf(r, 'name-only', Math.max(1, r.n ?? 1))), byNameElsewhere: 0, elsewhere: 0 };
  const found = (await findDefinitions(index, name, owner)) ?? [];
  // `Transport.roundTrip` is the method of Transport: not persistConn's in transport.go, nor handler's for `Handler`.
  const exact = owner ? found.filter((d) => d.container === owner) : [];
  const definitions = exact.length ? exact : found;
  const rows = await freshRows(index, store, name, within);
  const imports = new Map<string, ImportRow[]>();
  const resolver = new CallResolver(store);
  const ours = new Set(definitions.map((d) => `${d.file}:${d.line}`));
  const methods = definitions.some((d) => d.container);
  // Every definition of the name is the anchor's: a call by name alone can only mean it.
  const unique = resolver.definitionsOf(name).every((d) => ours.has(`${d.file}:${d.line}`));
  // A call on one of the anchor's base types may run the anchor's override.
  const ownerChain = new Set<string>();
  for (const d of owner ? definitions.filter((x) => x.container === owner) : []) for (const link of resolver.chain(owner!, d.file).slice(1)) ownerChain.add(link.name);
  let byNameElsewhere = 0;
  let elsewhere = 0;
  const uses: Use[] = [];
  /** How a group of calls reaches the anchor: a certainty, another definition ('elsewhere'), or not known while other owners define the name ('unknown'). */
  const judge = (call: Call & { path: string }): Certainty | 'elsewhere' | 'unknown' => {
    const found = resolver.resolve(call.path, name, call.qualifier, call.via, call.args);
    if (!found) return 'elsewhere';
    if (found.defs.length) {
      if (found.defs.some((d) => ours.has(`${d.file}:${d.line}`))) return found.certainty;
      if (found.receiver && !found.receiver.startsWith('^') && ownerChain.has(found.receiver.slice(found.receiver.lastIndexOf('.') + 1))) return 'override';
      return 'elsewhere';
    }
    // A known receiver or import that reaches no definition here (a library's method, say).
    if (found.certainty !== 'name-only') return 'elsewhere';
    // `x.f()` on an object does not call a function `f`.
    if (call.via && !methods) return 'elsewhere';
    if (owner && !unique) return 'unknown';
    return 'name-only';
  };
  for (const r of rows) {
    // How many of the line's uses reach the anchor, per certainty: each group of a call line (made on
    // one receiver, with one argument count) is judged on its own, and a call on a base type (an
    // override candidate) is a use apart from a resolved call of the same line.
    const reached = new Map<Certainty, number>();
    if (r.kind !== 'call') reached.set(certaintyOf(store, r.path, r.qualifier ?? undefined, definitions, imports), Math.max(1, r.n ?? 1));
    else {
      for (const call of callGroups(r)) {
        const judged = judge({ ...call, path: r.path });
        if (judged === 'elsewhere') elsewhere += call.n;
        else if (judged === 'unknown') byNameElsewhere += call.n;
        else reached.set(judged, (reached.get(judged) ?? 0) + call.n);
      }
    }
    for (const [certainty, times] of reached) uses.push(useOf(r, certainty, times));
  }
  return { definitions, uses: uses.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line), byNameElsewhere, elsewhere };
}

export interface Callee {
  name: string;
  qualifier: string | undefined;
  count: number;
  /** Where the called name is defined, best first (empty when outside the project or not known). */
  definedAt: { file: string; line: number; certainty: Certainty }[];
  /** A parameter or local of the caller called as a function: defined nowhere else. */
  local?: boolean;
}

/** What a definition's body calls, each call resolved through its receiver, the file's imports and its package. */
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
  const byCall = new Map<string, { name: string; qualifier: string | undefined; via: string | null; args: number | undefined; count: number }>();
  for (const c of calls) {
    if (c.name === def.name && c.line === def.line) continue;
    for (const g of callGroups({ ...c, n: 1 })) {
      const key = `${g.qualifier ?? ''}\u0000${c.name}\u0000${g.via ?? ''}\u0000${g.args ?? ''}`;
      const known = byCall.get(key);
      if (known) known.count++;
      else byCall.set(key, { name: c.name, qualifier: g.qualifier ?? undefined, via: g.via, args: g.args, count: 1 });
    }
  }
  const resolver = new CallResolver(store);
  const out: Callee[] = [];
  for (const { name, qualifier, via, args, count } of byCall.values()) {
    const found = resolver.resolve(def.file, name, qualifier, via, args);
    if (!found) {
      out.push({ name, qualifier, count, definedAt: [], local: true });
      continue;
    }
    let defs = found.defs;
    const certainty = found.certainty;
    if (!defs.length && certainty === 'name-only' && !qualifier && !via) {
      // Nothing ties it to a definition: a name defined once in the project is that one, else none is shown.
      const all = resolver.definitionsOf(name);
      if (all.length === 1) defs = all;
    }
    const definedAt = defs
      .map((d) => ({ file: d.file, line: d.line, certainty }))
      .sort((a, b) => Number(b.file === def.file) - Number(a.file === def.file) || a.file.localeCompare(b.file) || a.line - b.line)
      .slice(0, 3);
    out.push({ name, qualifier, count, definedAt });
  }
  return out.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
