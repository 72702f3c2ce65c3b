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

/** The first element of a top-level comma list (`A, error` → `A`). */
function firstOfList(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--;
    else if (ch === ',' && depth === 0) return text.slice(0, i);
  }
  return text;
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

/** The return type's text as `signature` declares it for `name`, or undefined when it declares none. */
export function returnTypeText(signature: string, name: string, language: LanguageId): string | undefined {
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
      if (!rest.startsWith('(')) return rest;
      // `(n int, err error)` names its results: the type is the last word of the first.
      const first = firstOfList(rest.slice(1, closing(rest, 0) < 0 ? rest.length : closing(rest, 0))).trim();
      const words = first.split(/\s+/);
      return words.length > 1 && /^[A-Za-z_]\w*$/.test(words[0]!) ? words.slice(1).join(' ') : first;
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
