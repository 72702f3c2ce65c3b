// Call resolution at question time: what definition a call reaches, from what extraction stored per
// file (each call's receiver type, each class's bases, each import's names) and the catalogue's
// imports. Nothing here is global: a question reads the few files and names it touches, so an edit
// anywhere is seen by the next question, like the rest of the index.
import { type Definition, foldOverloads, toDefinition } from './graph-definitions.ts';
import { importsBindNames, parseNames } from './extract-imports.ts';
import { collectionType, LOCAL, typeName, UNKNOWN } from './type-names.ts';
import { languageOf } from './languages.ts';
import { fieldTypeText, parameterCount, returnTypeText, typeArguments, typeParameters } from './return-types.ts';
import type { CodeStore, DefinitionRow } from './store.ts';

/** How a call was tied to its definition. */
export type Certainty = 'receiver-type' | 'imported' | 'same-package' | 'same-file' | 'qualified' | 'override' | 'name-only';

const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'type']);
const FIELD_KINDS = new Set(['field', 'variable', 'const']);

interface Binding {
  target: string;
  remote: string;
}

interface FileImports {
  local: Map<string, Binding>;
  /** Targets whose every name is in scope (`from x import *`, a Go dot import). */
  star: string[];
  reexports: Map<string, Binding>;
  starExports: string[];
}

/** A type name and the file it is written in (what the name means depends on that file's imports). */
interface Receiver {
  type: string;
  file: string;
  /** The class names its type arguments name (`List<Foo>`: Foo), '' where not a class. */
  args?: string[];
}

/** A receiver type as stored, `List{Foo,}` or `List`. */
function withArguments(via: string, file: string): Receiver {
  const open = via.indexOf('{');
  if (open < 0 || !via.endsWith('}')) return { type: via, file };
  return { type: via.slice(0, open), file, args: via.slice(open + 1, -1).split(',') };
}

/** Whether a definition (or one of the overloads folded into it) takes `args` arguments; a signature cut short takes any. */
function takes(d: Definition, name: string, args: number): boolean {
  return [d.signature, ...(d.overloads ?? []).map((o) => o.signature)].some((signature) => {
    const count = parameterCount(signature, name);
    return !count || (count.min <= args && args <= count.max);
  });
}

/** A Java method declared private (its modifiers, before the parameter list, say so). */
const isPrivateJava = (d: Definition) => d.file.endsWith('.java') && /\bprivate\b/.test(d.signature.split('(')[0] ?? '');

const dirOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : './');

/** A file's module folder for Go-style targets (`dir/`), or the file itself. */
function inTarget(file: string, target: string): boolean {
  return target.endsWith('/') ? dirOf(file) === target : file === target;
}

export class CallResolver {
  private readonly store: CodeStore;
  private readonly imports = new Map<string, FileImports>();
  private readonly types = new Map<string, DefinitionRow[]>();
  private readonly named = new Map<string, Definition[]>();
  private readonly chains = new Map<string, { name: string; rows: DefinitionRow[] }[]>();
  private readonly receivers = new Map<string, Receiver | null>();

  constructor(store: CodeStore) {
    this.store = store;
  }

  /** Definitions of a name, folded (cached per question). */
  definitionsOf(name: string): Definition[] {
    let d = this.named.get(name);
    if (!d) {
      d = foldOverloads(this.store.definitionsNamed(name).map(toDefinition));
      this.named.set(name, d);
    }
    return d;
  }

  importsOf(file: string): FileImports {
    let known = this.imports.get(file);
    if (known) return known;
    known = { local: new Map(), star: [], reexports: new Map(), starExports: [] };
    this.imports.set(file, known);
    // A C or C++ file's includes bind no name: nothing to read (a query per calling file was ~30 ms
    // of a search for a kernel function's callers).
    const language = languageOf(file);
    if (!language || !importsBindNames(language)) return known;
    for (const row of this.store.importsOf(file)) {
      if (!row.target) continue;
      const names = parseNames(row.names);
      for (const [local, remote] of names.local) known.local.set(local, { target: row.target, remote });
      for (const [exported, remote] of names.reexports) known.reexports.set(exported, { target: row.target, remote });
      if (names.star) known.star.push(row.target);
      if (names.starExport) known.starExports.push(row.target);
    }
    return known;
  }

  private typeDefs(name: string): DefinitionRow[] {
    let rows = this.types.get(name);
    if (!rows) {
      rows = this.store.definitionsNamed(name).filter((r) => TYPE_KINDS.has(r.kind));
      this.types.set(name, rows);
    }
    return rows;
  }

  /**
   * The definitions a type name stands for, seen from `file`: those in the file, else in its folder,
   * else all of them (`KeySpliterator` is a class of several files). `pkg.T` (Go) is T in the folder
   * the file's import of pkg names, and nothing when that package is outside the project.
   */
  private typesSeen(type: string, file: string): DefinitionRow[] {
    const dot = type.lastIndexOf('.');
    if (dot > 0) {
      const bound = this.importsOf(file).local.get(type.slice(0, dot));
      if (bound?.remote !== '*') return [];
      const target = bound.target;
      return this.typeDefs(type.slice(dot + 1)).filter((r) => inTarget(r.path, target));
    }
    const rows = this.typeDefs(type);
    if (rows.length < 2) return rows;
    const here = rows.filter((r) => r.path === file);
    if (here.length) return here;
    const near = rows.filter((r) => dirOf(r.path) === dirOf(file));
    return near.length ? near : rows;
  }

  /** A type and everything it builds on, nearest first, each with the definitions it stands for. */
  chain(type: string, file: string): { name: string; rows: DefinitionRow[] }[] {
    const key = `${type}\u0000${file}`;
    let c = this.chains.get(key);
    if (c) return c;
    const out = [{ name: type.slice(type.lastIndexOf('.') + 1), rows: this.typesSeen(type, file) }];
    const seen = new Set(out[0]!.rows.map((r) => r.id));
    // Depth first, each type's bases in the order written: a superclass (written first) and what it
    // inherits come before the interfaces, as Java, TypeScript and Python's MRO find a method.
    const visit = (rows: DefinitionRow[], depth: number) => {
      if (depth > 12) return;
      for (const row of rows) {
        for (const base of row.bases?.split(' ') ?? []) {
          if (!base || out.length >= 60) continue;
          const found = this.typesSeen(base, row.path).filter((r) => !seen.has(r.id));
          if (!found.length) continue;
          for (const r of found) seen.add(r.id);
          out.push({ name: base.slice(base.lastIndexOf('.') + 1), rows: found });
          visit(found, depth + 1);
        }
      }
    };
    visit(out[0]!.rows, 0);
    c = out;
    this.chains.set(key, c);
    return c;
  }

  isType(name: string): boolean {
    return this.typeDefs(name).length > 0;
  }

  /**
   * The methods a call on `via` in `file` reaches: the nearest type in its chain that defines `name`
   * (with `args`, the nearest whose definition takes that many arguments: an overload may sit in a base).
   */
  methodsFor(via: string, name: string, file: string, args?: number): Definition[] {
    // `Inner|Outer` (Java's implicit this from a nested class): the first enclosing class that has it.
    if (via.includes('|')) {
      for (const type of via.split('|')) {
        const found = this.methodsFor(type, name, file, args);
        if (found.length) return found;
      }
      return [];
    }
    const defs = this.definitionsOf(name).filter((d) => d.container);
    const chain = via.startsWith('^') ? this.chain(via.slice(1), file).slice(1) : this.chain(via, file);
    // Go methods live in any file of the type's package; elsewhere in the type's own file.
    // A private Java method is not inherited: only the type's own.
    const links = chain.map((link, i) => ({
      ...link,
      own: defs.filter((d) => d.container === link.name && link.rows.some((r) => (d.file.endsWith('.go') ? dirOf(r.path) === dirOf(d.file) : r.path === d.file)) && (i === 0 || !isPrivateJava(d))),
    }));
    const fits = (d: Definition) => args === undefined || takes(d, name, args);
    let at = links.findIndex((l) => l.own.some(fits));
    // No overload takes that many arguments (or the count is not known): the nearest by name.
    if (at < 0) at = links.findIndex((l) => l.own.length);
    const link = links[at];
    if (!link) return [];
    const found = link.own.some(fits) ? link.own.filter(fits) : link.own;
    return this.abstractGivesWay(links, at, found, fits) ?? found;
  }

  /**
   * Java binds a call that finds an abstract method of a class to an interface method of the same
   * signature that the class does not itself implement, when the receiver's type also reaches one
   * (javac: `size()` in AbstractList is List.size, not AbstractCollection.size; on an
   * AbstractCollection it stays AbstractCollection.size, which overrides Collection.size).
   */
  private abstractGivesWay(links: { name: string; rows: DefinitionRow[]; own: Definition[] }[], at: number, found: Definition[], fits: (d: Definition) => boolean): Definition[] | undefined {
    const link = links[at]!;
    if (!found.length || !found.every((d) => d.bodiless && d.file.endsWith('.java')) || !link.rows.some((r) => r.kind === 'class')) return undefined;
    const row = link.rows[0]!;
    const implemented = new Set(this.chain(link.name, row.path).map((l) => l.name));
    const candidates = links.slice(at + 1).filter((l) => !implemented.has(l.name) && l.rows.some((r) => r.kind === 'interface') && l.own.some(fits));
    // The most specific: an interface no other candidate extends.
    const best = candidates.find((c) => !candidates.some((o) => o !== c && this.chain(o.name, o.rows[0]!.path).slice(1).some((x) => x.name === c.name)));
    return best?.own.filter(fits);
  }

  /**
   * The type a receiver (`via`) stands for, seen from `file`: a type name as it is, or what a chain of
   * calls and fields yields (`T>m`: what m on T returns; `T#f`: T's field f; `>f`: what the plain call
   * f returns; `=q>f`: what q.f returns, q a module or class; `xs@`: an element of xs). Undefined when
   * a step is not known.
   */
  receiverOf(via: string, file: string, depth = 0): Receiver | undefined {
    // `xs@`: an element of the slice, array or map xs is.
    if (via.endsWith('@')) {
      const of = depth > 8 ? undefined : this.receiverOf(via.slice(0, -1), file, depth + 1);
      const element = of?.type === '[]' ? of.args?.[0] : undefined;
      return element ? withArguments(element, of!.file) : undefined;
    }
    const cut = Math.max(via.lastIndexOf('>'), via.lastIndexOf('#'));
    if (cut < 0) return via === UNKNOWN || via === LOCAL ? undefined : withArguments(via, file);
    const key = `${via}\u0000${file}`;
    const known = this.receivers.get(key);
    if (known !== undefined) return known ?? undefined;
    if (depth > 8) return undefined;
    const base = via.slice(0, cut);
    // `m%1`: the second result of m (Go).
    const [name = '', result] = via.slice(cut + 1).split('%');
    let defs: Definition[] = [];
    let owner: Receiver | undefined;
    if (base === '' || base.startsWith('=')) defs = this.resolve(file, name, base.slice(1) || null, null)?.defs ?? [];
    else {
      owner = this.receiverOf(base, file, depth + 1);
      if (owner) defs = this.methodsFor(owner.type, name, owner.file);
    }
    // A field and a method may share a name (Java's `entrySet` and `entrySet()`): each step reads its own.
    const field = via[cut] === '#';
    defs = defs.filter((d) => FIELD_KINDS.has(d.kind) === field);
    // Go: an embedded struct is reached as a field named like its type (`mh.http2HeadersFrame`).
    if (field && !defs.length && owner) {
      const link = this.chain(owner.type, owner.file).find((l, i) => i > 0 && l.name === name && l.rows.length);
      const row = link?.rows[0];
      const embedded = row ? { type: row.name, file: row.path } : undefined;
      this.receivers.set(key, embedded ?? null);
      return embedded;
    }
    let found: Receiver | undefined;
    for (const d of defs) {
      const t = this.declaredOf(d, field, Number(result ?? 0), owner);
      // Definitions that disagree (overloads returning different types) leave it unknown.
      if (!t || (found && found.type !== t.type)) {
        found = undefined;
        break;
      }
      found ??= t;
    }
    this.receivers.set(key, found ?? null);
    return found;
  }

  /**
   * What a definition gives as a receiver: calling a class constructs it; a function or method gives
   * its declared return type (Go: its result `result`), a field its declared type. A type parameter
   * of the owner's class (`E` of `List<E>`) is the argument the receiver's type gave it (`List<Foo>`).
   */
  private declaredOf(d: Definition, field: boolean, result: number, owner: Receiver | undefined): Receiver | undefined {
    if (!field && TYPE_KINDS.has(d.kind)) return result === 0 ? { type: d.name, file: d.file } : undefined;
    if (!field && d.kind === 'constructor') return d.container ? { type: d.container, file: d.file } : undefined;
    const language = languageOf(d.file);
    const text = language && (field ? fieldTypeText(d.signature, d.name, language) : returnTypeText(d.signature, d.name, language, result));
    if (!text) return undefined;
    const bound = new Map<string, string>();
    if (owner?.args) {
      const params = this.typeParametersOf(owner.type, owner.file);
      params.forEach((p, i) => {
        const arg = owner.args?.[i];
        if (p && arg) bound.set(p, arg);
      });
    }
    const head = typeName(text, language);
    const collection = head ? undefined : collectionType(text, language);
    if (collection) return withArguments(collection, d.file);
    const substituted = head && bound.get(head);
    if (substituted) return { type: substituted, file: owner!.file };
    const args = typeArguments(text).map((a) => {
      const n = typeName(a, language) ?? '';
      return bound.get(n) ?? n;
    });
    const type = this.projectType(head, d.file);
    return type && args.some(Boolean) ? { ...type, args } : type;
  }

  /** A type name read in `file`; a type parameter (`T`, `E`) that names no type of the project is not known. */
  private projectType(type: string | undefined, file: string): Receiver | undefined {
    if (!type) return undefined;
    if (/^[A-Z][A-Z0-9]?$/.test(type) && !this.isType(type)) return undefined;
    return { type, file };
  }

  /** The type parameters a type declares (`E` of `interface List<E>`), as the file sees that type. */
  private typeParametersOf(type: string, file: string): string[] {
    const row = this.typesSeen(type, file)[0];
    return row ? typeParameters(row.signature, row.name) : [];
  }

  /** `name` as a module `target` exports it: its own top-level definition, else through its re-exports. */
  memberOf(target: string, name: string, depth = 0): Definition[] {
    if (depth > 6) return [];
    const own = this.definitionsOf(name).filter((d) => inTarget(d.file, target) && (d.topLevel || !d.container));
    if (own.length) return own;
    if (target.endsWith('/')) return [];
    const imp = this.importsOf(target);
    const next = imp.reexports.get(name) ?? imp.local.get(name);
    if (next) return next.remote === '*' ? [] : this.memberOf(next.target, next.remote, depth + 1);
    for (const t of [...imp.starExports, ...imp.star]) {
      const found = this.memberOf(t, name, depth + 1);
      if (found.length) return found;
    }
    return [];
  }

  /** Python `import a.b` binds `b` to a/b.py: a receiver written `a.b` (what `a.b.C()` is called on) is that import. */
  private dottedModule(imp: FileImports, qualifier: string): Binding | undefined {
    const dot = qualifier.lastIndexOf('.');
    if (dot < 0) return undefined;
    const bound = imp.local.get(qualifier.slice(dot + 1));
    const path = qualifier.replaceAll('.', '/');
    return bound?.remote === '*' && bound.target.endsWith('.py') && bound.target.replace(/(?:\/__init__)?\.py$/, '').endsWith(path) ? bound : undefined;
  }

  /** Python `from pkg import mod`: the module file beside the package's __init__.py, when there is one. */
  private submodule(target: string, name: string): string | undefined {
    if (!target.endsWith('__init__.py')) return undefined;
    const file = `${target.slice(0, target.length - '__init__.py'.length)}${name}.py`;
    return this.store.file(file) ? file : undefined;
  }

  /** Where a call named `name` in `file`, made on `qualifier` (as `via` tells), goes; empty when outside the project or unknown. */
  resolve(file: string, name: string, qualifier: string | null | undefined, via: string | null | undefined, args?: number): { defs: Definition[]; certainty: Certainty; receiver?: string } | undefined {
    if (via === LOCAL) return undefined;
    if (via && via !== UNKNOWN) {
      const receiver = this.receiverOf(via, file);
      if (!receiver) return { defs: [], certainty: 'name-only' };
      return { defs: this.methodsFor(receiver.type, name, receiver.file, args), certainty: 'receiver-type', receiver: receiver.type };
    }
    if (via === UNKNOWN) return { defs: [], certainty: 'name-only' };
    const imp = this.importsOf(file);
    if (qualifier) {
      const bound = imp.local.get(qualifier) ?? this.dottedModule(imp, qualifier);
      if (bound?.remote === '*') return { defs: this.memberOf(bound.target, name), certainty: 'imported' };
      if (bound && this.isType(bound.remote)) return { defs: this.methodsFor(bound.remote, name, bound.target, args), certainty: 'imported' };
      const module = bound && this.submodule(bound.target, bound.remote);
      if (module) return { defs: this.memberOf(module, name), certainty: 'imported' };
      if (bound) return { defs: [], certainty: 'imported' };
      if (this.isType(qualifier)) return { defs: this.methodsFor(qualifier, name, file, args), certainty: 'qualified' };
      return { defs: [], certainty: 'name-only' };
    }
    const bound = imp.local.get(name);
    if (bound && bound.remote !== '*') return { defs: this.memberOf(bound.target, bound.remote), certainty: 'imported' };
    const all = this.definitionsOf(name);
    const sameFile = all.filter((d) => d.file === file && !d.container);
    if (sameFile.length) return { defs: sameFile, certainty: 'same-file' };
    if (file.endsWith('.go')) {
      const dir = dirOf(file);
      const samePackage = all.filter((d) => dirOf(d.file) === dir && !d.container && d.file.endsWith('.go'));
      if (samePackage.length) return { defs: samePackage, certainty: 'same-package' };
    }
    for (const t of imp.star) {
      const found = this.memberOf(t, name);
      if (found.length) return { defs: found, certainty: 'imported' };
    }
    return { defs: [], certainty: 'name-only' };
  }
}
