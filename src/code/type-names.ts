// Type texts as class names, per language: what a declaration, a cast or a constructing call says a
// receiver is (`*pkg.Foo` → pkg.Foo in Go, `Optional[Foo]` → Foo in Python, `List<Foo>` → List{Foo}
// in Java and TypeScript, `[]*Foo` → []{Foo}), and the marks a call's `via` uses besides type names.
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './languages.ts';
import { typeArguments } from './return-types.ts';

/** A call's `via` for a local or parameter called as a function. */
export const LOCAL = '~';
/** A call's `via` for a receiver whose type is not known. */
export const UNKNOWN = '?';

export const IDENT = /^[A-Za-z_$][\w$]*$/;
const PRIMITIVE = new Set(['string', 'number', 'boolean', 'any', 'unknown', 'void', 'never', 'object', 'int', 'str', 'float', 'bool', 'bytes', 'None', 'var', 'long', 'short', 'byte', 'char', 'double', 'error', 'int64', 'int32', 'uint', 'uint64', 'uint32', 'uint8', 'rune', 'float64', 'float32', 'interface']);

/** A type's text as a class name: `*pkg.Foo` → Foo, `Foo<Bar>` → Foo, `Optional[Foo]` → Foo, `Foo | None` → Foo. */
export function typeName(text: string, language: LanguageId): string | undefined {
  let t = text.trim().replace(/^["']|["']$/g, '');
  if (language === 'python') {
    const opt = /^(?:typing\.)?Optional\[(.*)\]$/.exec(t);
    if (opt) t = opt[1]!;
    const parts = t.split('|').map((p) => p.trim()).filter((p) => p !== 'None');
    if (parts.length !== 1) return undefined;
    t = parts[0]!;
  }
  t = t.replace(/^(?:readonly\s+|[*&]\s*)+/, '');
  // A slice, array, map or function type is not a class.
  if (/^\[|\[\]$|^map\[|^func\b|^chan\b|=>/.test(t)) return undefined;
  const head = /^[\w$.]+/.exec(t)?.[0];
  if (!head) return undefined;
  const name = head.slice(head.lastIndexOf('.') + 1);
  if (!IDENT.test(name) || PRIMITIVE.has(name)) return undefined;
  // Go keeps the package: `http.Handler` is Handler of whatever folder the file's import of http names.
  const pkg = language === 'go' && head.includes('.') ? head.slice(0, head.lastIndexOf('.')) : undefined;
  return pkg && IDENT.test(pkg) ? `${pkg}.${name}` : name;
}

/** Languages whose declared types keep their type arguments (`List<Foo>` → `List{Foo}`): what `get` returns is then Foo. */
const GENERIC = new Set<LanguageId>(['java', 'typescript', 'tsx']);

/** A slice, array or map as a receiver of an index or a range: `[]{Foo}` for `[]*Foo`, `[4]Foo`, `map[K]*Foo`, `Foo[]`; `[]{[]{Foo}}` for `[][]Foo`. */
export function collectionType(text: string, language: LanguageId): string | undefined {
  const t = text.trim().replace(/^(?:readonly\s+|[*&]\s*)+/, '');
  let element: string | undefined;
  if (language === 'go') {
    const open = t.startsWith('map[') ? 3 : t.startsWith('[') ? 0 : -1;
    if (open >= 0) {
      let depth = 0;
      for (let i = open; i < t.length; i++) {
        if (t[i] === '[') depth++;
        else if (t[i] === ']' && --depth === 0) {
          element = t.slice(i + 1);
          break;
        }
      }
    }
  } else if (t.endsWith('[]')) element = t.slice(0, -2);
  // A collection of collections keeps both levels (`map[K][]*Conn` → `[]{[]{Conn}}`).
  const name = element && (typeName(element, language) ?? collectionType(element, language));
  return name ? `[]{${name}}` : undefined;
}

/** A declared type as a receiver: its class name, with the class names of its type arguments where the language has them. */
export function declaredType(text: string, language: LanguageId): string | undefined {
  const name = typeName(text, language);
  if (!name) return collectionType(text, language);
  if (!GENERIC.has(language)) return name;
  const args = typeArguments(text.trim()).map((a) => typeName(a, language) ?? '');
  return args.some(Boolean) ? `${name}{${args.join(',')}}` : name;
}

/** What a constructing call builds: `Foo` for `new Foo()`/`Foo(…)`/`Foo{}`, `Foo` for Go's `NewFoo(…)`. */
export function constructed(node: Node, language: LanguageId): string | undefined {
  const text = node.type === 'attribute' || node.type === 'selector_expression' ? (node.lastNamedChild?.text ?? '') : node.text;
  const name = typeName(text, language);
  if (!name) return undefined;
  if (language === 'go' && (node.parent?.type === 'call_expression' || node.type === 'selector_expression')) {
    if (!/^New[A-Z]/.test(name)) return undefined;
    const pkg = node.type === 'selector_expression' ? node.childForFieldName('operand')?.text : undefined;
    return pkg && IDENT.test(pkg) ? `${pkg}.${name.slice(3)}` : name.slice(3);
  }
  // A Python call builds an object only when what it calls is named like a class.
  if (language === 'python') return /^_*[A-Z]/.test(name) && /[a-z]/.test(name) ? name : undefined;
  return name;
}
