// What a function or method returns, read from the signature text the index keeps for it: the
// declared return type (TypeScript `): T`, Python `-> T`, Go's result list, Java's type before the
// name). Only the text is read here; typeName (extract-bindings.ts) turns it into a class name.
import type { LanguageId } from './languages.ts';

/** The end of the bracketed group opening at `open` (its closing index), or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Where `name` stands in `signature` and where its parameter list opens (after any `<…>` type parameters). */
function parametersAt(signature: string, name: string): { at: number; open: number } | undefined {
  for (let at = signature.indexOf(name); at >= 0; at = signature.indexOf(name, at + 1)) {
    const before = signature[at - 1];
    if (before !== undefined && /[\w$]/.test(before)) continue;
    let i = at + name.length;
    if (signature[i] === '<') {
      let depth = 0;
      for (; i < signature.length; i++) {
        if (signature[i] === '<') depth++;
        else if (signature[i] === '>' && --depth === 0) break;
      }
      i++;
    }
    while (signature[i] === ' ') i++;
    if (signature[i] === '(') return { at, open: i };
  }
  return undefined;
}

/** The elements of a top-level comma list (`A, error` → `A`, `error`). */
function listItems(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out;
}

/** Go: the type of result `index` of a result list (`*File, error`; `f *File, err error`; `a, b *T`). */
function goResult(list: string, index: number): string | undefined {
  const items = listItems(list);
  const named = items.some((i) => /^[A-Za-z_]\w*\s+\S/.test(i));
  if (!named) return items[index];
  // Named results: a lone name shares the type of the next item that has one.
  for (let k = index; k < items.length; k++) {
    const m = /^[A-Za-z_]\w*\s+(.+)$/.exec(items[k]!);
    if (m) return m[1];
  }
  return undefined;
}

/** Java: the type written before the name, after modifiers, annotations and `<T>` type parameters. */
function javaReturn(prefix: string): string | undefined {
  const text = prefix.trimEnd();
  // Walk back over one type: identifiers, dots, `[]` and a balanced `<…>`.
  let i = text.length;
  let depth = 0;
  while (i > 0) {
    const ch = text[i - 1]!;
    if (ch === '>') depth++;
    else if (ch === '<') depth--;
    else if (depth === 0 && !/[\w$.[\]]/.test(ch)) break;
    i--;
  }
  const type = text.slice(i);
  return type && type !== 'void' ? type : undefined;
}

/** The return type's text as `signature` declares it for `name` (Go: its result `index`), or undefined when it declares none. */
export function returnTypeText(signature: string, name: string, language: LanguageId, index = 0): string | undefined {
  const found = parametersAt(signature, name);
  if (!found) return undefined;
  if (language === 'java') return javaReturn(signature.slice(0, found.at));
  const open = found.open;
  const close = closing(signature, open);
  if (close < 0) return undefined;
  const rest = signature.slice(close + 1).trim();
  switch (language) {
    case 'typescript':
    case 'tsx':
      return rest.startsWith(':') ? rest.slice(1).trim() || undefined : undefined;
    case 'python':
      return rest.startsWith('->') ? rest.slice(2).replace(/:$/, '').trim() || undefined : undefined;
    case 'go': {
      if (!rest) return undefined;
      if (!rest.startsWith('(')) return index === 0 ? rest : undefined;
      const end = closing(rest, 0);
      return goResult(rest.slice(1, end < 0 ? rest.length : end), index);
    }
    default:
      return undefined;
  }
}

/** A field's type as its declaration's signature writes it (`name T` in Go, `T name` in Java, `name: T` elsewhere). */
export function fieldTypeText(signature: string, name: string, language: LanguageId): string | undefined {
  let at = -1;
  for (let i = signature.indexOf(name); i >= 0; i = signature.indexOf(name, i + 1)) {
    const before = signature[i - 1];
    const after = signature[i + name.length];
    if ((before === undefined || !/[\w$]/.test(before)) && (after === undefined || !/[\w$]/.test(after))) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  if (language === 'java') return javaReturn(signature.slice(0, at));
  const rest = signature.slice(at + name.length).trim();
  if (language === 'go') return rest.replace(/\s*`.*$/, '') || undefined;
  const typed = /^[?!]?\s*:\s*(.+)$/.exec(rest);
  return typed ? typed[1]!.replace(/\s*=.*$/, '').trim() || undefined : undefined;
}

/** The type arguments a type's text gives its head (`Map<K, List<V>>` → `K`, `List<V>`), none when it has none. */
export function typeArguments(text: string): string[] {
  const open = text.indexOf('<');
  if (open < 0) return [];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '<') depth++;
    else if (text[i] === '>' && --depth === 0) return listItems(text.slice(open + 1, i)).filter(Boolean);
  }
  return [];
}

/** The type parameters a class declares after its name (`class Box<K extends Key, V>` → `K`, `V`). */
export function typeParameters(signature: string, name: string): string[] {
  for (let at = signature.indexOf(name); at >= 0; at = signature.indexOf(name, at + 1)) {
    const before = signature[at - 1];
    if (before !== undefined && /[\w$]/.test(before)) continue;
    const after = signature.slice(at + name.length).trimStart();
    if (!after.startsWith('<')) return [];
    return typeArguments(after).map((p) => /^[A-Za-z_$][\w$]*/.exec(p)?.[0] ?? '');
  }
  return [];
}

/**
 * How many arguments `signature` takes for `name`: at least `min`, at most `max` (Infinity after Java's
 * `T... rest`); undefined when the parameter list is not all there (a cut signature).
 */
export function parameterCount(signature: string, name: string): { min: number; max: number } | undefined {
  const found = parametersAt(signature, name);
  if (!found) return undefined;
  const close = closing(signature, found.open);
  if (close < 0) return undefined;
  const items = listItems(signature.slice(found.open + 1, close)).filter(Boolean);
  if (items.at(-1)?.includes('...')) return { min: items.length - 1, max: Number.POSITIVE_INFINITY };
  return { min: items.length, max: items.length };
}
