// What a call's receiver is, from one file's syntax alone: `this`/`self`/`super` and Java's implicit
// `this` name the enclosing class; a variable, parameter or field names its declared type or the
// class that constructed it (`new Foo()`, `Foo(…)`, `Foo{}`, `NewFoo()`); a name bound in an enclosing
// function (a parameter, a local) called as a function is marked local. The result is each call's
// `via`: a type name, `^Class` (super of Class), `~` (a local or parameter) or `?` (a variable of
// unknown type). The query side (graph-calls.ts) follows types through class hierarchies and imports.
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './languages.ts';
import { callParts, INDEXED, NAMESPACE_LIKE, scopeFinder } from './call-syntax.ts';
import { collectionType, constructed, declaredType, IDENT, LOCAL, typeName, UNKNOWN } from './type-names.ts';

export interface BindingCapture {
  name: Node;
  type?: Node;
  ctor?: Node;
  /** The value assigned, when no type is declared. */
  value?: Node;
  self?: Node;
}

export interface BaseCapture {
  of: Node;
  base: Node;
}

/** A call as collect sees it: the name node and the object it is called on. */
export interface CallSite {
  node: Node;
  qualifier?: Node;
}

/** A class-like definition of the file (byte range and name). */
export interface ClassSpan {
  name: string;
  start: number;
  end: number;
  /** Names of its members defined in this file. */
  members: Set<string>;
}

interface FieldBinding {
  type: string | undefined;
  /** What it was assigned, when no type is declared (its type is the value's). */
  value: Node | undefined;
}

interface Binding extends FieldBinding {
  name: string;
  /** Go `a, b := f()`: which of the call's results it holds. */
  result: number;
  /** Go `for _, x := range xs`: an element of its value. */
  element: boolean;
  /** Where the name is bound. */
  at: number;
  start: number;
  end: number;
  /** Bound at the top of the file (a module variable, not a local). */
  module: boolean;
}

const IDENTS = /[A-Za-z_$][\w$]*/g;
/** The element type of a receiver: known now for a collection type, else a step for the question (`T#items@`). */
function elementOf(owner: string | undefined): string | undefined {
  if (!owner || owner === UNKNOWN || owner === LOCAL || owner.startsWith('^')) return UNKNOWN;
  if (owner.startsWith('[]{')) return owner.slice(3, -1) || UNKNOWN;
  return steps(owner) >= MAX_STEPS ? UNKNOWN : `${owner}@`;
}

/** Steps a receiver may take from a known type (`T>m>n`): more is not followed. */
const MAX_STEPS = 4;
const steps = (via: string) => via.split(/[>#@]/).length - 1;

/** Receiver types of one file's calls, and the bases of its classes. */
export function receivers(
  language: LanguageId,
  source: string,
  bindings: BindingCapture[],
  bases: BaseCapture[],
  calls: CallSite[],
  classes: ClassSpan[],
): { via: (string | undefined)[]; basesOf: Map<number, string[]> } {
  const locals: Binding[] = [];
  const fields = new Map<string, Map<string, FieldBinding>>();
  const classAt = (byte: number): ClassSpan | undefined => {
    let best: ClassSpan | undefined;
    for (const c of classes) if (c.start <= byte && byte < c.end && (!best || c.start >= best.start)) best = c;
    return best;
  };
  const field = (cls: string, name: string, type: string | undefined, value: Node | undefined) => {
    let m = fields.get(cls);
    if (!m) {
      m = new Map();
      fields.set(cls, m);
    }
    const known = m.get(name);
    if (!known || (type && !known.type)) m.set(name, { type, value });
    else if (!known.type && known.value && value && known.value.text !== value.text) known.value = undefined;
  };
  // Only names a call can reach matter: an unqualified call's name and the identifiers of qualifiers
  // (most of a file's locals and parameters are never called nor called on, and finding a binding's
  // scope walks the tree); then the identifiers of the values those names are bound to.
  const wanted = new Set<string>();
  const want = (node: Node) => {
    for (const id of source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 200)).match(IDENTS) ?? []) wanted.add(id);
  };
  for (const c of calls) {
    if (!c.qualifier) wanted.add(c.node.text);
    else want(c.qualifier);
  }
  const valued = bindings.filter((b) => b.value);
  const scopeIn = scopeFinder();
  for (let size = -1; size !== wanted.size; ) {
    size = wanted.size;
    for (const b of valued) if (wanted.has(b.name.text)) want(b.value!);
  }
  for (const b of bindings) {
    const name = b.name.text;
    if (!wanted.has(name)) continue;
    const type = b.type ? declaredType(b.type.text, language) : b.ctor ? constructed(b.ctor, language) : undefined;
    const value = type ? undefined : b.value;
    if (b.self) {
      const cls = (b.self.text === 'self' || b.self.text === 'this') && classAt(b.name.startIndex);
      if (cls) field(cls.name, name, type, value);
      continue;
    }
    // `constructor(private readonly svc: Svc)` declares a field too.
    const param = b.name.parent;
    if (param?.type === 'required_parameter' && param.namedChildren.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'override_modifier')) {
      const cls = classAt(b.name.startIndex);
      if (cls) field(cls.name, name, type, value);
    }
    const scope = scopeIn(b.name);
    if (scope.kind === 'class') {
      const cls = scope.node.type === 'type_spec' ? scope.node.childForFieldName('name')?.text : classAt(b.name.startIndex)?.name;
      if (cls) field(cls, name, type, value);
      continue;
    }
    const element = value?.parent?.type === 'range_clause';
    const result = value && !element && b.name.parent?.type === 'expression_list' ? b.name.parent.namedChildren.findIndex((c) => c?.startIndex === b.name.startIndex) : 0;
    locals.push({ name, type, value, result: Math.max(0, result), element, at: b.name.startIndex, start: scope.node.startIndex, end: scope.node.endIndex, module: scope.kind === 'module' });
  }
  const byName = new Map<string, Binding[]>();
  for (const l of locals) {
    const list = byName.get(l.name);
    if (list) list.push(l);
    else byName.set(l.name, [l]);
  }
  // Innermost binding of a name around a byte (of one scope: a typed one first, then the last value bound before the byte).
  const bound = (name: string, byte: number): Binding | undefined => {
    let best: Binding | undefined;
    for (const l of byName.get(name) ?? []) {
      if (byte < l.start || byte >= l.end) continue;
      const better =
        !best ||
        l.end - l.start < best.end - best.start ||
        (l.end - l.start === best.end - best.start &&
          ((l.type && !best.type) ||
            // Two typed bindings of one scope (Java's `o instanceof A m` … `o instanceof B m`): the last one before the byte.
            (l.type && best.type && l.at < byte && (best.at > byte || l.at > best.at)) ||
            (!best.type && !l.type && l.value && (!best.value || (l.at < byte && l.at > best.at)))));
      if (better) best = l;
    }
    return best;
  };
  // The classes of this file a class builds on, by name.
  const basesNamed = new Map<string, string[]>();
  for (const b of bases) basesNamed.set(b.of.text, [...(basesNamed.get(b.of.text) ?? []), b.base.text]);
  const evaluating = new Set<Node | FieldBinding>();
  /** A field's type: declared in the class, else in a class of this file it builds on. */
  const fieldOf = (cls: string, name: string, depth: number, hops = 0): string | undefined => {
    const f = fields.get(cls)?.get(name);
    if (f) return f.type ?? (f.value ? valueType(f, f.value, depth) : undefined);
    if (hops > 4) return undefined;
    for (const base of basesNamed.get(cls) ?? []) {
      const name2 = typeName(base, language);
      const found = name2 ? fieldOf(name2, name, depth, hops + 1) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  const valueType = (key: Node | FieldBinding, value: Node, depth: number): string | undefined => {
    if (evaluating.has(key)) return undefined;
    evaluating.add(key);
    try {
      return typeOf(value, value.startIndex, depth + 1);
    } finally {
      evaluating.delete(key);
    }
  };
  /** What a call returns, as a receiver: a constructed class, or `T>name` (what `name` on T returns, read at question time). */
  const returned = (node: Node, byte: number, depth: number): string | undefined => {
    const { name, qualifier } = callParts(node);
    if (!name || !IDENT.test(name.text)) return undefined;
    let base: string | undefined;
    if (!qualifier) {
      const fn = node.childForFieldName('function');
      const built = fn && (language === 'python' || language === 'go') ? constructed(fn, language) : undefined;
      if (built) return built;
      // Go's `new(T)`.
      if (language === 'go' && name.text === 'new') {
        const type = node.childForFieldName('arguments')?.namedChild(0);
        return type ? typeName(type.text, language) : undefined;
      }
      const local = language === 'java' ? undefined : bound(name.text, byte);
      if (local && !local.module) return UNKNOWN;
      base = language === 'java' ? implicitThis(name.text, byte) : '';
      if (base === undefined) return undefined;
    } else {
      const fn = node.childForFieldName('function');
      const built = fn && language === 'go' ? constructed(fn, language) : undefined;
      if (built) return built;
      const owner = typeOf(qualifier, byte, depth + 1);
      if (owner === UNKNOWN) return UNKNOWN;
      if (owner) base = owner;
      else if (NAMESPACE_LIKE.has(qualifier.type) && /^[\w$.]{1,100}$/.test(qualifier.text)) base = `=${qualifier.text}`;
      else return UNKNOWN;
    }
    const via = `${base}>${name.text}`;
    return steps(via) > MAX_STEPS ? UNKNOWN : via;
  };
  /**
   * Java's implicit `this`: the innermost enclosing class that has the name, inherited members
   * included. This file tells only what each class defines itself, so the enclosing classes innermost
   * first (`Inner|Outer`), up to the first that defines the name, for the question to try in turn
   * through what each inherits.
   */
  const implicitThis = (name: string, byte: number): string | undefined => {
    const around = classes.filter((k) => k.start <= byte && byte < k.end).sort((a, b) => b.start - a.start);
    const own = around.findIndex((k) => k.members.has(name));
    const upTo = own < 0 ? around : around.slice(0, own + 1);
    return upTo.length ? upTo.map((k) => k.name).join('|') : undefined;
  };
  const typeOf = (node: Node, byte: number, depth = 0): string | undefined => {
    if (depth > 8) return undefined;
    const t = node.type;
    // Only an identifier's text is read: a qualifier can be a long call chain.
    const text = t === 'identifier' ? node.text : '';
    if (t === 'this' || (language === 'python' && (text === 'self' || text === 'cls'))) return classAt(byte)?.name;
    if (t === 'super') {
      const cls = classAt(byte);
      return cls && `^${cls.name}`;
    }
    if (t === 'call' && node.childForFieldName('function')?.text === 'super') {
      const cls = classAt(byte);
      return cls && `^${cls.name}`;
    }
    if (t === 'identifier') {
      const b = bound(text, byte);
      if (!b) {
        // Java reaches the fields of its enclosing classes without `this`.
        if (language !== 'java') return undefined;
        for (const cls of classes.filter((k) => k.start <= byte && byte < k.end).sort((a, b2) => b2.start - a.start)) {
          const found = fieldOf(cls.name, text, depth);
          if (found) return found;
        }
        return undefined;
      }
      if (b.type) return b.type;
      let fromValue = b.value ? valueType(b, b.value, depth) : undefined;
      if (b.element) return elementOf(fromValue);
      // A later result of a call is what its signature lists there (`T>m%1`); of anything else, unknown.
      if (b.result > 0) fromValue = fromValue && />[^>#%]+$/.test(fromValue) ? `${fromValue}%${b.result}` : UNKNOWN;
      // A module-level variable without a known type may be a namespace object: leave it to the query.
      return fromValue ?? (b.module ? undefined : UNKNOWN);
    }
    if ((t === 'parenthesized_expression' || t === 'await' || t === 'await_expression' || t === 'non_null_expression') && node.namedChildCount === 1) return typeOf(node.namedChild(0)!, byte, depth + 1);
    if (t === 'new_expression' || t === 'object_creation_expression' || t === 'composite_literal') {
      const ctor = node.childForFieldName(t === 'new_expression' ? 'constructor' : 'type');
      // Go's `[]T{…}` and `map[K]T{…}` build a collection of T.
      return ctor ? (typeName(ctor.text, language) ?? (t === 'composite_literal' ? collectionType(ctor.text, language) : undefined)) : undefined;
    }
    if (t === 'unary_expression' && language === 'go' && node.childForFieldName('operator')?.text === '&') {
      const operand = node.childForFieldName('operand');
      return operand ? typeOf(operand, byte, depth + 1) : undefined;
    }
    // Casts and assertions say the type: `(Foo) x`, `x as Foo`, Go's `x.(Foo)`.
    if (t === 'cast_expression' || t === 'type_assertion_expression') {
      const type = node.childForFieldName('type');
      return type ? declaredType(type.text, language) : undefined;
    }
    if (t === 'as_expression' && node.namedChildCount === 2) return declaredType(node.namedChild(1)!.text, language);
    if (t === 'call' || t === 'call_expression' || t === 'method_invocation') return returned(node, byte, depth);
    // An element of a slice, array or map: `xs[i]`.
    const indexed = INDEXED[t];
    if (indexed) {
      const of = node.childForFieldName(indexed);
      return of ? elementOf(typeOf(of, byte, depth + 1)) : undefined;
    }
    // Java's `Outer.this`.
    if (t === 'field_access' && node.childForFieldName('field')?.type === 'this') {
      const outer = node.childForFieldName('object');
      return outer ? typeName(outer.text, language) : undefined;
    }
    const obj = t === 'member_expression' || t === 'attribute' || t === 'field_access' ? node.childForFieldName('object') : t === 'selector_expression' ? node.childForFieldName('operand') : undefined;
    const prop = t === 'member_expression' ? node.childForFieldName('property') : t === 'attribute' ? node.childForFieldName('attribute') : t === 'field_access' || t === 'selector_expression' ? node.childForFieldName('field') : undefined;
    if (obj && prop) {
      // Java's `Flags.NONE`: a static field of a class named like one (a package name is lower case).
      const owner = typeOf(obj, byte, depth + 1) ?? (language === 'java' && obj.type === 'identifier' && /^[A-Z]/.test(obj.text) ? obj.text : undefined);
      if (!owner || owner === UNKNOWN || owner.startsWith('^')) return owner === UNKNOWN ? UNKNOWN : undefined;
      const known = /[>#]/.test(owner) ? undefined : fieldOf(owner, prop.text, depth);
      if (known) return known;
      // A field this file does not declare: read at question time from the type's definitions.
      if (!IDENT.test(prop.text)) return UNKNOWN;
      const via = `${owner}#${prop.text}`;
      return steps(via) > MAX_STEPS ? UNKNOWN : via;
    }
    return undefined;
  };
  const via = calls.map((c): string | undefined => {
    const byte = c.node.startIndex;
    if (c.qualifier) return typeOf(c.qualifier, byte) ?? (NAMESPACE_LIKE.has(c.qualifier.type) ? undefined : UNKNOWN);
    const name = c.node.text;
    // Java keeps methods and variables apart: a local named like a method does not hide it.
    if (language === 'java') return c.node.parent?.type === 'method_invocation' ? implicitThis(name, byte) : undefined;
    const local = bound(name, byte);
    if (local && !local.module) return LOCAL;
    return undefined;
  });
  const basesOf = new Map<number, string[]>();
  for (const b of bases) {
    const name = typeName(b.base.type === 'attribute' ? (b.base.lastNamedChild?.text ?? '') : b.base.text, language);
    if (!name) continue;
    const list = basesOf.get(b.of.startIndex) ?? [];
    if (!list.includes(name)) list.push(name);
    basesOf.set(b.of.startIndex, list);
  }
  return { via, basesOf };
}
