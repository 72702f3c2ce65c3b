// From the tags query's matches to one file's definitions (nested, with containers), references (each
// with its enclosing definition) and imports.
import type { Node, QueryMatch } from 'web-tree-sitter';
import { isExported, kindOf, leading, outerOf, qualifierText, searchableKind, signatureOf } from './extract-nodes.ts';
import type { DefinitionKind, Extracted, ExtractedDefinition, ExtractedImport, ExtractedLocal, ExtractedReference, LocalKind, ReferenceKind } from './extracted.ts';
import { type BaseCapture, type BindingCapture, type ClassSpan, receivers } from './extract-bindings.ts';
import { groupCalls } from './call-groups.ts';
import { docstringOf } from './extract-docstrings.ts';
import { importNames } from './extract-imports.ts';
import { bodyWords } from './identifier-words.ts';
import type { LanguageId } from './languages.ts';
import { BINDING_QUERIES } from './tags-bindings.ts';

const CONTAINERS = new Set<DefinitionKind>(['class', 'interface', 'struct', 'enum', 'trait', 'impl', 'namespace', 'module']);
const TYPES = new Set<DefinitionKind>(['class', 'interface', 'struct', 'enum', 'trait']);
/** Languages whose calls get a receiver (extract-bindings.ts has their patterns). */
const CODE_LIKE = /^(?:[a-z]+[A-Z][\w$]*|[A-Za-z][\w$]*_[\w$]*|[A-Z][a-z]+[A-Z][\w$]*)$/;

/** A definition while one file is collected: where its name is, and the receiver type a Go method names. */
type Collected = ExtractedDefinition & { nameByte: number; receiver: string | undefined };
/** A reference capture: its node, and what the receiver pass adds. */
interface RefCapture {
  node: Node;
  kind: ReferenceKind;
  qualifier: string | undefined;
  qualifierNode: Node | undefined;
  via: string | undefined;
  args: number | undefined;
}
/** A binding of a name, its other captures still to come: one shape for every binding (see collect). */
const bindingOf = (name: Node): BindingCapture => ({ name, type: undefined, ctor: undefined, value: undefined, self: undefined });

/** What one file's matches hold, before nesting, receivers and enclosing definitions are worked out. */
interface Captured {
  definitions: Collected[];
  refs: RefCapture[];
  bindings: BindingCapture[];
  bases: BaseCapture[];
  declared: { node: Node; kind: LocalKind }[];
  imports: ExtractedImport[];
  mentions: { name: string; line: number; byte: number }[];
}

// collect runs in phases of their own functions, and its objects have one shape each (every field set
// at creation): V8 recompiles a function whenever code it optimized meets a shape it did not expect —
// one function doing all of this, with fields added on the way, was compiled 9–11 times per `effect`
// build at ~150 ms each.
export function collect(matches: QueryMatch[], text: string, id: LanguageId): Extracted {
  const { definitions, refs, bindings, bases, declared, imports, mentions } = capturesOf(matches, text, id);
  const order = nest(definitions);
  // Receivers: what each call is made on, and what each class builds on (when the language has the patterns).
  if (BINDING_QUERIES[id] !== undefined) resolveReceivers(id, text, definitions, refs, bindings, bases, declared);
  const nameBytes = new Set<number>();
  for (const d of definitions) nameBytes.add(d.nameByte);
  const references = referencesOf(definitions, order, refs, mentions, nameBytes);
  const clean = definitions.map(({ nameByte: _n, receiver: _r, ...d }) => d);
  return { definitions: clean, references, imports, locals: localsOf(declared, nameBytes, definitions, order) };
}

/** The definitions, references, bindings and imports the tags query's matches capture. */
function capturesOf(matches: QueryMatch[], text: string, id: LanguageId): Captured {
  const definitions: Collected[] = [];
  const seen = new Set<string>();
  const refs: RefCapture[] = [];
  const bindings: BindingCapture[] = [];
  const bases: BaseCapture[] = [];
  const declared: { node: Node; kind: LocalKind }[] = [];
  const imports: ExtractedImport[] = [];
  const mentions: { name: string; line: number; byte: number }[] = [];
  const split = new Map<string, string[]>();
  for (const match of matches) {
    let defNode: Node | undefined;
    let defCapture = '';
    let nameNode: Node | undefined;
    let receiver: Node | undefined;
    let qualifier: Node | undefined;
    let source: Node | undefined;
    let importNode: Node | undefined;
    let binding: BindingCapture | undefined;
    let base: Partial<BaseCapture> | undefined;
    for (const c of match.captures) {
      const n = c.name;
      if (n.startsWith('def.')) {
        defNode = c.node;
        defCapture = n;
      } else if (n === 'name') nameNode = c.node;
      else if (n === 'receiver') receiver = c.node;
      else if (n === 'qualifier') qualifier = c.node;
      else if (n === 'source') source = c.node;
      else if (n === 'import') importNode = c.node;
      else if (n.startsWith('bind.')) {
        binding ??= bindingOf(c.node);
        if (n === 'bind.name') binding.name = c.node;
        else if (n === 'bind.type') binding.type = c.node;
        else if (n === 'bind.new') binding.ctor = c.node;
        else if (n === 'bind.value') binding.value = c.node;
        else if (n === 'bind.self') binding.self = c.node;
      } else if (n === 'base' || n === 'base.of') {
        base ??= { base: undefined, of: undefined };
        if (n === 'base') base.base = c.node;
        else base.of = c.node;
      }
      else if (n.startsWith('ref.')) refs.push({ node: c.node, kind: n.slice(4) as ReferenceKind, qualifier: undefined, qualifierNode: undefined, via: undefined, args: undefined });
      else if (n.startsWith('local.')) {
        // Only a parameter can be one of a prototype's (whose names declare nothing); asking the others
        // walked up their parents (each step a search down from the root) for every local and field.
        if (n !== 'local.parameter' || declares(c.node, id)) declared.push({ node: c.node, kind: n.slice(6) as LocalKind });
      }
      else if (n === 'comment') {
        const t = c.node.text;
        const local = new Set<string>();
        for (const m of t.matchAll(/[A-Za-z_$][\w$]{2,}/g)) {
          const word = m[0];
          const after = t[m.index + word.length];
          if ((CODE_LIKE.test(word) || after === '(') && !local.has(word) && local.size < 40) {
            local.add(word);
            const before = t.slice(0, m.index);
            const line = c.node.startPosition.row + 1 + (before.match(/\n/g)?.length ?? 0);
            mentions.push({ name: word, line, byte: c.node.startIndex + m.index });
          }
        }
      }
    }
    if (binding) bindings.push(binding);
    if (base?.base && base.of) bases.push(base as BaseCapture);
    if (qualifier && refs.length) {
      const last = refs[refs.length - 1]!;
      if (!last.qualifier) {
        last.qualifier = qualifierText(qualifier);
        last.qualifierNode = qualifier;
      }
    }
    if (importNode && source) {
      const names = importNames(id, importNode, source);
      imports.push({ line: importNode.startPosition.row + 1, source: source.text.replace(/^["'<]|[">']$/g, ''), ...(names ? { names } : {}) });
    } else if (source && !importNode) {
      imports.push({ line: source.startPosition.row + 1, source: source.text.replace(/^["'<]|[">']$/g, '') });
    }
    // A C global's declaration that error recovery made of attribute macros (`asmlinkage __visible`) is none.
    if (defNode && defCapture === 'def.variable' && (id === 'c' || id === 'cpp') && (defNode.hasError || !defNode.text.trimEnd().endsWith(';'))) continue;
    if (defNode && nameNode) {
      // `struct task_struct;` that error recovery glued to what follows is a declaration, not a body.
      const key = `${defNode.startIndex}:${defNode.endIndex}:${nameNode.startIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const kind = kindOf(defCapture, defNode);
      const outer = outerOf(defNode);
      const { start, doc: above } = leading(outer);
      const name = nameNode.text;
      const body = defNode.childForFieldName('body');
      // A Python function's or class's docstring is its doc, like a comment above it elsewhere.
      const inside = id === 'python' && (kind === 'function' || kind === 'class') ? docstringOf(body, text)?.doc : undefined;
      const doc = inside ? [above, inside].filter(Boolean).join('\n').slice(0, 600) : above;
      definitions.push({
        name,
        kind,
        container: undefined,
        parent: undefined,
        signature: signatureOf(defNode, outer, kind, text),
        startLine: start.startPosition.row + 1,
        nameLine: nameNode.startPosition.row + 1,
        endLine: outer.endPosition.row + 1,
        exported: isExported(outer, name, id),
        bodiless: kind === 'prototype' || ((kind === 'function' || kind === 'method') && !body && !defNode.childForFieldName('value')) || (kind === 'variable' && isExtern(defNode)),
        doc,
        words: searchableKind(kind, id) ? bodyWords(text, outer.startIndex, outer.endIndex, split) : '',
        searchable: searchableKind(kind, id),
        startByte: outer.startIndex,
        endByte: outer.endIndex,
        nameByte: nameNode.startIndex,
        receiver: receiver ? (qualifierText(receiver) ?? receiver.text) : undefined,
        bases: undefined,
      });
    }
  }
  return { definitions, refs, bindings, bases, declared, imports, mentions };
}

/** Parents and containers, by a sweep over definitions in text order; returns that order. */
function nest(definitions: Collected[]): number[] {
  const order = definitions.map((_, i) => i).sort((a, b) => definitions[a]!.startByte - definitions[b]!.startByte || definitions[b]!.endByte - definitions[a]!.endByte);
  const stack: number[] = [];
  for (const i of order) {
    const d = definitions[i]!;
    while (stack.length && definitions[stack[stack.length - 1]!]!.endByte < d.endByte) stack.pop();
    while (stack.length && definitions[stack[stack.length - 1]!]!.endByte <= d.startByte) stack.pop();
    d.parent = stack.length ? stack[stack.length - 1] : undefined;
    if (d.receiver) d.container = d.receiver;
    else {
      for (let k = stack.length - 1; k >= 0; k--) {
        const p = definitions[stack[k]!]!;
        if (CONTAINERS.has(p.kind) || (k === stack.length - 1 && (p.kind === 'const' || p.kind === 'variable'))) {
          d.container = p.name;
          break;
        }
      }
    }
    if (d.container && d.kind === 'function' && d.parent !== undefined && CONTAINERS.has(definitions[d.parent]!.kind)) d.kind = 'method';
    stack.push(i);
  }
  return order;
}

/** Each call's receiver (`via`) and argument count, and each type's bases. */
function resolveReceivers(id: LanguageId, text: string, definitions: Collected[], refs: RefCapture[], bindings: BindingCapture[], bases: BaseCapture[], declared: { node: Node; kind: LocalKind }[]): void {
  const classes: ClassSpan[] = [];
  const byIndex = new Map<number, ClassSpan>();
  definitions.forEach((d, i) => {
    if (!TYPES.has(d.kind)) return;
    const span = { name: d.name, start: d.startByte, end: d.endByte, members: new Set<string>() };
    classes.push(span);
    byIndex.set(i, span);
  });
  for (const d of definitions) if (d.parent !== undefined) byIndex.get(d.parent)?.members.add(d.name);
  // Untyped locals and parameters are the declarations tags.ts finds for every language.
  for (const d of declared) if (d.kind === 'local' || d.kind === 'parameter') bindings.push(bindingOf(d.node));
  const calls = refs.filter((r) => r.kind === 'call');
  const found = receivers(id, text, bindings, bases, calls.map((r) => ({ node: r.node, qualifier: r.qualifierNode })), classes);
  calls.forEach((r, i) => {
    r.via = found.via[i];
    if (ARGUMENT_COUNTS.has(id)) r.args = argumentCount(r.node);
  });
  for (const d of definitions) d.bases = found.basesOf.get(d.nameByte);
}

/** References without the names of definitions themselves, once per name, kind and line, each with its enclosing definition. */
function referencesOf(definitions: Collected[], order: number[], refs: RefCapture[], mentions: Captured['mentions'], nameBytes: Set<number>): ExtractedReference[] {
  // Built by pushes, not by spreading two arrays: a spread's code is kept for one kind of array, and
  // an empty `mentions` against a full one undid it ~190 times on `effect`.
  const all: { name: string; line: number; kind: ReferenceKind | 'mention'; qualifier: string | undefined; via: string | undefined; args: number | undefined; byte: number }[] = [];
  for (const r of refs) {
    const byte = r.node.startIndex;
    if (nameBytes.has(byte) || (r.kind === 'type' && r.node.endIndex - byte <= 1)) continue;
    all.push({ name: r.node.text, line: r.node.startPosition.row + 1, kind: r.kind, qualifier: r.qualifier, via: r.via, args: r.args, byte });
  }
  for (const m of mentions) all.push({ name: m.name, line: m.line, kind: 'mention', qualifier: undefined, via: undefined, args: undefined, byte: m.byte });
  all.sort((a, b) => a.byte - b.byte);
  const references: ExtractedReference[] = [];
  const once = new Map<string, ExtractedReference>();
  // A line's calls of a name, as made (qualifier, via, argument count): grouped once the line is read.
  const lineCalls = new Map<ExtractedReference, { qualifier: string | undefined; via: string | undefined; args: number | undefined }[]>();
  const open: number[] = [];
  let next = 0;
  for (const r of all) {
    while (next < order.length && definitions[order[next]!]!.startByte <= r.byte) {
      const i = order[next++]!;
      while (open.length && definitions[open[open.length - 1]!]!.endByte <= definitions[i]!.startByte) open.pop();
      open.push(i);
    }
    while (open.length && definitions[open[open.length - 1]!]!.endByte <= r.byte) open.pop();
    if (r.name.length > 200) continue;
    // One row per name, kind and line, counting how often it occurs there (two calls of `f` on a line).
    const key = `${r.name}\u0000${r.kind}\u0000${r.line}`;
    const seen = once.get(key);
    if (seen) {
      seen.n++;
      lineCalls.get(seen)?.push({ qualifier: r.qualifier, via: r.via, args: r.args });
      continue;
    }
    const reference: ExtractedReference = { name: r.name, line: r.line, kind: r.kind, qualifier: r.qualifier, ...(r.via ? { via: r.via } : {}), n: 1, enclosing: open.length ? open[open.length - 1] : undefined };
    once.set(key, reference);
    references.push(reference);
    if (r.kind === 'call') lineCalls.set(reference, [{ qualifier: r.qualifier, via: r.via, args: r.args }]);
  }
  for (const [reference, calls] of lineCalls) {
    const groups = groupCalls(calls);
    if (groups.length > 1 || groups[0]?.[3] !== null) reference.calls = groups;
  }
  return references;
}

/** Languages whose calls keep their argument count: overloads are told apart by it. */
const ARGUMENT_COUNTS = new Set<LanguageId>(['java']);

/** How many arguments a call passes (its name node's call), or undefined when it cannot tell. */
function argumentCount(name: Node): number | undefined {
  const call = name.parent;
  const list = call?.type === 'method_invocation' ? call.childForFieldName('arguments') : undefined;
  if (!list) return undefined;
  return list.namedChildren.filter((c) => c && !c.type.endsWith('comment')).length;
}

/** `extern int x;`: C and C++ say another file defines it. */
function isExtern(node: Node): boolean {
  return node.children.some((c) => c?.type === 'storage_class_specifier' && c.text === 'extern');
}

/** C and C++ parameters of a prototype or a function-pointer type declare nothing one can look up. */
function declares(node: Node, id: LanguageId): boolean {
  if (id !== 'c' && id !== 'cpp') return true;
  let p = node.parent;
  while (p && p.type !== 'parameter_declaration' && p.type !== 'compound_statement' && p.type !== 'translation_unit') p = p.parent;
  if (p?.type !== 'parameter_declaration') return true;
  let f = p.parent?.parent ?? null;
  while (f && /_declarator$/.test(f.type)) f = f.parent;
  return f?.type === 'function_definition';
}

/** Declarations that are no definition of their own, once per name and line, each with its innermost definition. */
function localsOf(declared: { node: Node; kind: LocalKind }[], nameBytes: Set<number>, definitions: { startByte: number; endByte: number }[], order: number[]): ExtractedLocal[] {
  const out: ExtractedLocal[] = [];
  const once = new Set<string>();
  const open: number[] = [];
  let next = 0;
  for (const { node, kind } of declared.sort((a, b) => a.node.startIndex - b.node.startIndex)) {
    const byte = node.startIndex;
    if (nameBytes.has(byte) || node.endIndex - byte > 200) continue;
    while (next < order.length && definitions[order[next]!]!.startByte <= byte) {
      const i = order[next++]!;
      while (open.length && definitions[open[open.length - 1]!]!.endByte <= definitions[i]!.startByte) open.pop();
      open.push(i);
    }
    while (open.length && definitions[open[open.length - 1]!]!.endByte <= byte) open.pop();
    const line = node.startPosition.row + 1;
    const key = `${node.text}\u0000${line}`;
    if (once.has(key)) continue;
    once.add(key);
    out.push({ name: node.text, line, kind, enclosing: open.length ? open[open.length - 1] : undefined });
  }
  return out;
}
