// Doc text that sits inside a body rather than above it: Python docstrings. The first statement of a
// module, class or function body, when it is a plain string, documents that module, class or function
// (comments before it do not count, as for Python itself). Questions in words reach them like the doc
// comments above a definition in other languages.
import type { Node } from 'web-tree-sitter';
import type { ExtractedDefinition } from './extracted.ts';

/** A string statement's text without its quotes; undefined for an f-string or bytes (never a docstring). */
function stringValue(node: Node, text: string): string | undefined {
  const parts = node.type === 'concatenated_string' ? node.namedChildren : [node];
  let value = '';
  for (const part of parts) {
    if (part?.type !== 'string' || part.childCount < 2) return undefined;
    const open = part.child(0)!;
    const close = part.child(part.childCount - 1)!;
    if (/[fFbB]/.test(open.text)) return undefined;
    value += text.slice(open.endIndex, close.startIndex);
  }
  return value;
}

/** The docstring of a module (`block` is the module) or of a definition (`block` is its body). */
export function docstringOf(block: Node | null, text: string): { doc: string; node: Node } | undefined {
  if (!block) return undefined;
  for (const child of block.namedChildren) {
    if (!child || child.type === 'comment') continue;
    if (child.type !== 'expression_statement' || child.namedChildCount !== 1) return undefined;
    const value = child.namedChildren[0]!;
    if (value.type !== 'string' && value.type !== 'concatenated_string') return undefined;
    const doc = stringValue(value, text)?.trim();
    return doc ? { doc, node: child } : undefined;
  }
  return undefined;
}

/** A Python module's name from its path: `email/parser.py` → parser, `json/__init__.py` → json. */
export function moduleName(file: string): string {
  const parts = file.split('/');
  const stem = (parts.pop() ?? '').replace(/\.pyi?$/, '');
  return stem === '__init__' && parts.length ? parts.pop()! : stem;
}

/**
 * A module docstring as a definition of kind module spanning the docstring alone (it holds nothing, so
 * no function becomes its member), named after the module (`__doc__` when the file is not known).
 */
export function moduleDocstring(root: Node, text: string, file: string | undefined): ExtractedDefinition | undefined {
  const found = docstringOf(root, text);
  if (!found) return undefined;
  const { node, doc } = found;
  const name = file ? moduleName(file) : '__doc__';
  const firstLine = node.text.split('\n').find((l) => l.trim()) ?? '';
  return {
    name,
    kind: 'module',
    container: undefined,
    parent: undefined,
    signature: firstLine.trim().slice(0, 240),
    startLine: node.startPosition.row + 1,
    nameLine: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    exported: !name.startsWith('_'),
    bodiless: false,
    doc: doc.slice(0, 600),
    words: '',
    searchable: true,
    startByte: node.startIndex,
    endByte: node.endIndex,
  };
}
