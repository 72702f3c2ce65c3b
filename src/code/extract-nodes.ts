// What one definition node says about itself: its outer text (export, `const … =`, decorators), the
// comments above it, its signature, kind, visibility and whether it is worth a block for questions.
import type { Node } from 'web-tree-sitter';
import type { DefinitionKind } from './extracted.ts';
import type { LanguageId } from './languages.ts';

/** Nodes that wrap a definition and belong to its text (`export`, `const … =`, decorators). */
const WRAPPERS = new Set([
  'export_statement',
  'lexical_declaration',
  'variable_declaration',
  'decorated_definition',
  'type_declaration',
  'const_declaration',
  'var_declaration',
  'template_declaration',
  'ambient_declaration',
  'expression_statement',
]);
const LEADING = /comment|^decorator$|^attribute_item$|^attribute$|^annotation$|^marker_annotation$/;

/** The text to show for a qualifier: an identifier path, else its last identifier. */
export function qualifierText(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text;
  if (text.length <= 60 && /^[\w$.:]+$/.test(text)) return text.replace(/^.*[.:]/, '') || text;
  const m = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(-60));
  return m?.[1];
}

export function outerOf(node: Node): Node {
  let outer = node;
  for (let p = outer.parent; p && WRAPPERS.has(p.type); p = p.parent) {
    // A statement declaring several names is not one name's text.
    if ((p.type === 'lexical_declaration' || p.type === 'variable_declaration' || p.type === 'const_declaration' || p.type === 'var_declaration' || p.type === 'type_declaration') && p.namedChildCount > 1) {
      const named = p.namedChildren.filter((c) => c && !LEADING.test(c.type) && c.type !== 'type_annotation');
      if (named.length > 1) break;
    }
    if (p.type === 'expression_statement' && p.namedChildCount !== 1) break;
    outer = p;
  }
  return outer;
}

/** Comments, decorators and attributes right above a node (no blank line between). */
export function leading(node: Node): { start: Node; doc: string } {
  let start = node;
  const docs: string[] = [];
  // The first statement of a block: a comment above it may belong to the block's parent node.
  let first = node.previousSibling;
  if (!first && node.parent && node.parent.startIndex === node.startIndex) first = node.parent.previousSibling;
  for (let s = first; s && LEADING.test(s.type) && s.endPosition.row >= start.startPosition.row - 1; s = s.previousSibling) {
    // A comment that ends a line of code above is that line's, not ours.
    const prev = s.previousSibling;
    if (prev && prev.endPosition.row === s.startPosition.row && !LEADING.test(prev.type)) break;
    start = s;
    if (/comment/.test(s.type)) docs.unshift(s.text);
  }
  return { start, doc: docs.join('\n').slice(0, 600) };
}

export function signatureOf(def: Node, outer: Node, kind: DefinitionKind, text: string): string {
  const value = def.childForFieldName('value');
  const body = def.childForFieldName('body') ?? (value && /function|arrow|lambda/.test(value.type) ? value.childForFieldName('body') : null);
  const from = def.type === 'variable_declarator' || kind === 'const' || kind === 'variable' ? outer.startIndex : def.startIndex;
  let sig: string;
  if (body && body.startIndex > from) sig = text.slice(from, body.startIndex);
  else if (value && def.childForFieldName('type') && value.startIndex > from) sig = text.slice(from, value.startIndex);
  else if (kind === 'function' || kind === 'method' || kind === 'prototype' || kind === 'field' || kind === 'constructor') sig = text.slice(from, Math.min(def.endIndex, from + 400));
  else {
    const nl = text.indexOf('\n', from);
    sig = text.slice(from, nl < 0 || nl > def.endIndex ? def.endIndex : nl);
  }
  sig = sig.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ').replace(/\s+/g, ' ').trim().replace(/\s*[{=:]$/, '').trim();
  return sig.length > 240 ? `${sig.slice(0, 239)}…` : sig;
}

const SEARCHABLE = new Set<DefinitionKind>(['function', 'method', 'constructor', 'class', 'interface', 'struct', 'enum', 'trait', 'type', 'namespace', 'module']);

/** Blocks for questions in words: code with a body worth describing. C/C++ constants and macros are
 * millions of register names in a kernel tree; elsewhere a constant is often an API (`export const`). */
export function searchableKind(kind: DefinitionKind, id: LanguageId): boolean {
  return SEARCHABLE.has(kind) || ((kind === 'const' || kind === 'variable') && id !== 'c' && id !== 'cpp');
}

export function kindOf(captureName: string, def: Node): DefinitionKind {
  const kind = captureName.slice(4) as DefinitionKind;
  if (kind === 'const' || kind === 'variable') {
    const value = def.childForFieldName('value');
    if (value && /^(arrow_function|function_expression|function|generator_function|lambda)$/.test(value.type)) return 'function';
  }
  return kind;
}

export function isExported(outer: Node, name: string, id: LanguageId): boolean {
  for (let p: Node | null = outer, k = 0; p && k < 3; p = p.parent, k++) if (p.type === 'export_statement') return true;
  if (id === 'go') return /^[A-Z]/.test(name);
  if (id === 'python' || id === 'ruby') return !name.startsWith('_');
  if (id === 'c' || id === 'cpp') return !/^static\b/.test(outer.text.slice(0, 40));
  return /^(?:pub\b|public\b)/.test(outer.text.slice(0, 20)) || /\bpublic\b/.test(outer.text.slice(0, 80).split('(')[0] ?? '');
}
