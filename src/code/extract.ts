// One file's definitions, references and imports, from its syntax tree and the language's tags
// query. The tree is deleted before returning: nothing of it outlives the call.
import type { Node, Query, QueryMatch } from 'web-tree-sitter';
import type { Grammars } from './grammars.ts';
import type { LanguageId } from './languages.ts';
import { QUERIES } from './tags.ts';

export type DefinitionKind =
  | 'function'
  | 'method'
  | 'constructor'
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'trait'
  | 'impl'
  | 'type'
  | 'namespace'
  | 'module'
  | 'const'
  | 'variable'
  | 'field'
  | 'macro'
  | 'prototype';

export type ReferenceKind = 'call' | 'type' | 'import' | 'mention';

export interface ExtractedDefinition {
  name: string;
  kind: DefinitionKind;
  /** The class, interface, impl, namespace or receiver type it belongs to. */
  container: string | undefined;
  /** Index (in the list) of the definition it is nested in. */
  parent: number | undefined;
  signature: string;
  /** First line, doc comments, decorators and attributes included. */
  startLine: number;
  /** The line that names it. */
  nameLine: number;
  endLine: number;
  exported: boolean;
  /** A declaration without a body: an overload signature, a prototype, an abstract member. */
  bodiless: boolean;
  doc: string;
  /** Distinct words of the identifiers in its body (for questions in words). */
  words: string;
  /** Worth a block in the full-text index (functions, types, and outside C/C++ constants). */
  searchable: boolean;
  startByte: number;
  endByte: number;
}

export interface ExtractedReference {
  name: string;
  line: number;
  kind: ReferenceKind;
  qualifier: string | undefined;
  /** Index of the innermost definition the reference sits in. */
  enclosing: number | undefined;
}

export interface ExtractedImport {
  line: number;
  source: string;
}

export interface Extracted {
  definitions: ExtractedDefinition[];
  references: ExtractedReference[];
  imports: ExtractedImport[];
}

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
const CONTAINERS = new Set<DefinitionKind>(['class', 'interface', 'struct', 'enum', 'trait', 'impl', 'namespace', 'module']);
const CODE_LIKE = /^(?:[a-z]+[A-Z][\w$]*|[A-Za-z][\w$]*_[\w$]*|[A-Z][a-z]+[A-Z][\w$]*)$/;

const compiled = new WeakMap<object, Query>();

function queryFor(ts: typeof import('web-tree-sitter'), language: import('web-tree-sitter').Language, id: LanguageId, onBadPattern?: (pattern: string, error: unknown) => void): Query {
  const known = compiled.get(language);
  if (known) return known;
  let query: Query;
  try {
    query = new ts.Query(language, QUERIES[id].join('\n'));
  } catch {
    // A grammar version without some node type: keep every pattern that compiles.
    const good = QUERIES[id].filter((p) => {
      try {
        new ts.Query(language, p).delete();
        return true;
      } catch (error) {
        onBadPattern?.(p, error);
        return false;
      }
    });
    query = new ts.Query(language, good.join('\n'));
  }
  compiled.set(language, query);
  return query;
}

/** The text to show for a qualifier: an identifier path, else its last identifier. */
function qualifierText(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text;
  if (text.length <= 60 && /^[\w$.:]+$/.test(text)) return text.replace(/^.*[.:]/, '') || text;
  const m = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(-60));
  return m?.[1];
}

function outerOf(node: Node): Node {
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
function leading(node: Node): { start: Node; doc: string } {
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

function signatureOf(def: Node, outer: Node, kind: DefinitionKind, text: string): string {
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

/** Words of an identifier: `makeSemaphore` → make semaphore, `kmalloc_array` → kmalloc array. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/**
 * Words that say nothing about a body: keywords of the languages indexed and the commonest English
 * ones. In a kernel-size index their lists would be the biggest, and they never tell blocks apart.
 */
const STOPWORDS = new Set(
  (
    'the and for not with from that this are was but you all can has have into its may one our out use will when then than there their which would should could ' +
    'return struct static const unsigned void int char long short bool true false null nil none undefined let var new else break case default while sizeof goto ' +
    'function self def elif except finally raise pass lambda yield async await import export package func defer chan map range interface type class extends ' +
    'implements public private protected final abstract override virtual inline extern typedef enum union switch continue throw throws try catch instanceof typeof ' +
    'impl pub mut ref fn match where crate super mod use dyn move trait begin end elsif unless require module'
  ).split(' '),
);

function bodyWords(text: string, start: number, end: number, split: Map<string, string[]>): string {
  const words = new Set<string>();
  const seen = new Set<string>();
  const slice = text.slice(start, Math.min(end, start + 8000));
  for (const m of slice.matchAll(/[A-Za-z_][\w]{2,}/g)) {
    const token = m[0];
    if (seen.has(token)) continue;
    seen.add(token);
    let parts = split.get(token);
    if (!parts) {
      parts = identifierWords(token);
      split.set(token, parts);
    }
    for (const w of parts) if (!STOPWORDS.has(w)) words.add(w);
    if (words.size >= 100) break;
  }
  return [...words].join(' ');
}

const SEARCHABLE = new Set<DefinitionKind>(['function', 'method', 'constructor', 'class', 'interface', 'struct', 'enum', 'trait', 'type', 'namespace', 'module']);

/** Blocks for questions in words: code with a body worth describing. C/C++ constants and macros are
 * millions of register names in a kernel tree; elsewhere a constant is often an API (`export const`). */
function searchableKind(kind: DefinitionKind, id: LanguageId): boolean {
  return SEARCHABLE.has(kind) || ((kind === 'const' || kind === 'variable') && id !== 'c' && id !== 'cpp');
}

function kindOf(captureName: string, def: Node): DefinitionKind {
  const kind = captureName.slice(4) as DefinitionKind;
  if (kind === 'const' || kind === 'variable') {
    const value = def.childForFieldName('value');
    if (value && /^(arrow_function|function_expression|function|generator_function|lambda)$/.test(value.type)) return 'function';
  }
  return kind;
}

function isExported(outer: Node, name: string, id: LanguageId): boolean {
  for (let p: Node | null = outer, k = 0; p && k < 3; p = p.parent, k++) if (p.type === 'export_statement') return true;
  if (id === 'go') return /^[A-Z]/.test(name);
  if (id === 'python' || id === 'ruby') return !name.startsWith('_');
  if (id === 'c' || id === 'cpp') return !/^static\b/.test(outer.text.slice(0, 40));
  return /^(?:pub\b|public\b)/.test(outer.text.slice(0, 20)) || /\bpublic\b/.test(outer.text.slice(0, 80).split('(')[0] ?? '');
}

function collect(matches: QueryMatch[], text: string, id: LanguageId): Extracted {
  const definitions: (ExtractedDefinition & { nameByte: number; receiver?: string })[] = [];
  const seen = new Set<string>();
  const refs: { node: Node; kind: ReferenceKind; qualifier?: string; name?: string }[] = [];
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
      else if (n.startsWith('ref.')) refs.push({ node: c.node, kind: n.slice(4) as ReferenceKind });
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
    if (qualifier && refs.length) {
      const last = refs[refs.length - 1]!;
      if (!last.qualifier) last.qualifier = qualifierText(qualifier);
    }
    if (importNode && source) {
      imports.push({ line: importNode.startPosition.row + 1, source: source.text.replace(/^["'<]|[">']$/g, '') });
    } else if (source && !importNode) {
      imports.push({ line: source.startPosition.row + 1, source: source.text.replace(/^["'<]|[">']$/g, '') });
    }
    if (defNode && nameNode) {
      // `struct task_struct;` that error recovery glued to what follows is a declaration, not a body.
      const key = `${defNode.startIndex}:${defNode.endIndex}:${nameNode.startIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const kind = kindOf(defCapture, defNode);
      const outer = outerOf(defNode);
      const { start, doc } = leading(outer);
      const name = nameNode.text;
      const body = defNode.childForFieldName('body');
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
        bodiless: kind === 'prototype' || ((kind === 'function' || kind === 'method') && !body && !defNode.childForFieldName('value')),
        doc,
        words: searchableKind(kind, id) ? bodyWords(text, outer.startIndex, outer.endIndex, split) : '',
        searchable: searchableKind(kind, id),
        startByte: outer.startIndex,
        endByte: outer.endIndex,
        nameByte: nameNode.startIndex,
        receiver: receiver ? (qualifierText(receiver) ?? receiver.text) : undefined,
      });
    }
  }
  // Nesting: parents and containers, by a sweep over definitions in text order.
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
  // References: drop the names of definitions themselves; find each one's enclosing definition.
  const nameBytes = new Set(definitions.map((d) => d.nameByte));
  const all = [
    ...refs.filter((r) => !nameBytes.has(r.node.startIndex) && (r.kind !== 'type' || r.node.endIndex - r.node.startIndex > 1)).map((r) => ({ name: r.node.text, line: r.node.startPosition.row + 1, kind: r.kind, qualifier: r.qualifier, byte: r.node.startIndex })),
    ...mentions.map((m) => ({ name: m.name, line: m.line, kind: 'mention' as const, qualifier: undefined, byte: m.byte })),
  ].sort((a, b) => a.byte - b.byte);
  const references: ExtractedReference[] = [];
  const once = new Set<string>();
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
    // One row per name, kind and line: a type named five times on a line is one use of it.
    const key = `${r.name}\u0000${r.kind}\u0000${r.line}`;
    if (once.has(key)) continue;
    once.add(key);
    references.push({ name: r.name, line: r.line, kind: r.kind, qualifier: r.qualifier, enclosing: open.length ? open[open.length - 1] : undefined });
  }
  const clean = definitions.map(({ nameByte: _n, receiver: _r, ...d }) => d);
  return { definitions: clean, references, imports };
}

export interface ExtractOptions {
  onBadPattern?: (pattern: string, error: unknown) => void;
}

/**
 * Top-level pieces of a file: a new piece starts at a line that begins in column 0 after a blank
 * line. Used when the grammar's error recovery swallows much of a file in one ERROR node (a
 * construct it does not know early on), so one bad statement costs that statement, not the file.
 */
function pieces(text: string): { text: string; line: number; byte: number }[] {
  const out: { text: string; line: number; byte: number }[] = [];
  const lines = text.split('\n');
  let start = 0;
  let startByte = 0;
  let byte = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    // Not a label (`out:` in kernel C), a preprocessor line or a block's closing word: those sit at
    // column 0 inside functions too.
    if (i > start + 3 && lines[i - 1]!.trim() === '' && /^[^\s})\]*#]/.test(l) && !/^(?:[A-Za-z_]\w*:(?:\s|$)|(?:case|default|end|else|elif|except|finally)\b)/.test(l)) {
      out.push({ text: text.slice(startByte, byte), line: start, byte: startByte });
      start = i;
      startByte = byte;
    }
    byte += l.length + 1;
  }
  out.push({ text: text.slice(startByte), line: start, byte: startByte });
  return out;
}

const HEADER = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(const|let|var|function\*?|class|interface|type|enum|namespace|def|fn|func|struct|trait)\s+([A-Za-z_$][\w$]*)/;
const HEADER_KIND: Record<string, DefinitionKind> = { const: 'const', let: 'variable', var: 'variable', 'function*': 'function', function: 'function', def: 'function', fn: 'function', func: 'function', class: 'class', interface: 'interface', type: 'type', enum: 'enum', namespace: 'namespace', struct: 'struct', trait: 'trait' };

/**
 * A piece the grammar could not parse still defines what its first line says (`export const dual: {`):
 * the line-heuristic tier, for the one statement the grammar lost.
 */
function rescue(found: Extracted, text: string, known?: (name: string, line: number) => boolean): void {
  const lines = text.split('\n');
  let first = 0;
  while (first < lines.length && (/^\s*(\/\/|\/\*|\*|#|$)/.test(lines[first]!) || /^\s*@/.test(lines[first]!))) first++;
  const m = HEADER.exec(lines[first] ?? '');
  // A declaration (`struct task_struct;`) defines nothing.
  if (!m || /;\s*$/.test(lines[first]!)) return;
  const name = m[2]!;
  if (found.definitions.some((d) => d.name === name && d.nameLine === first + 1) || known?.(name, first + 1)) return;
  let last = lines.length;
  while (last > first + 1 && !lines[last - 1]!.trim()) last--;
  const doc = lines.slice(0, first).join('\n');
  found.definitions.unshift({
    name,
    kind: /=\s*(?:async\s*)?(?:function\b|(?:<[^=]*>)?\([^)]*\)[^=]*=>)/.test(lines[first]!) ? 'function' : (HEADER_KIND[m[1]!] ?? 'const'),
    container: undefined,
    parent: undefined,
    signature: lines[first]!.trim().replace(/\s*[{=:]$/, '').slice(0, 240),
    startLine: doc.trim() ? 1 : first + 1,
    nameLine: first + 1,
    endLine: last,
    exported: /^export\b|^pub\b/.test(lines[first]!),
    bodiless: false,
    doc: doc.slice(0, 600),
    words: identifierWords(name).join(' '),
    searchable: true,
    startByte: 0,
    endByte: text.length,
  });
  // Indexes into the list moved by one.
  for (const d of found.definitions.slice(1)) if (d.parent !== undefined) d.parent++;
  for (const r of found.references) if (r.enclosing !== undefined) r.enclosing++;
}

function shifted(e: Extracted, line: number, byte: number, defBase: number): Extracted {
  return {
    definitions: e.definitions.map((d) => ({
      ...d,
      parent: d.parent === undefined ? undefined : d.parent + defBase,
      startLine: d.startLine + line,
      nameLine: d.nameLine + line,
      endLine: d.endLine + line,
      startByte: d.startByte + byte,
      endByte: d.endByte + byte,
    })),
    references: e.references.map((r) => ({ ...r, line: r.line + line, enclosing: r.enclosing === undefined ? undefined : r.enclosing + defBase })),
    imports: e.imports.map((i) => ({ ...i, line: i.line + line })),
  };
}

/** The function a C header line names: the last `name(` at parenthesis depth 0 (`__alloc_size(1) void *kmalloc(`). */
function cFunctionName(line: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '(') {
      if (depth === 0) {
        const m = /([A-Za-z_]\w*)\s*$/.exec(line.slice(0, i));
        if (m) found = m[1];
      }
      depth++;
    } else if (c === ')') depth = Math.max(0, depth - 1);
  }
  return found && !C_NOT_FUNCTIONS.has(found) ? found : undefined;
}
const C_NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'do', 'else']);

/**
 * C and C++ the grammar misreads (attribute macros before a definition: `asmlinkage __visible void
 * __sched schedule(void)`, `static __always_inline __alloc_size(1) void *kmalloc(…)`): in kernel
 * style a function is a header at column 0, `{` alone at column 0 on a following line, `}` alone at
 * column 0 at its end. Those the tree did not give are added from the lines.
 */
function rescueC(all: Extracted, text: string): void {
  const lines = text.split('\n');
  const known = new Set(all.definitions.filter((d) => d.kind !== 'prototype').map((d) => `${d.name}:${d.nameLine}`));
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!;
    if (!/^[A-Za-z_]/.test(header) || /;\s*$/.test(header) || /^(?:typedef|struct\s+\w+\s*\{|#)/.test(header)) continue;
    // The parameter list may go on for a few lines; then `{` alone.
    let open = i + 1;
    while (open < lines.length && open <= i + 8 && lines[open] !== '{' && !/[;{}]\s*$/.test(lines[open]!)) open++;
    if (lines[open] !== '{') continue;
    const name = cFunctionName(header);
    if (!name || known.has(`${name}:${i + 1}`)) continue;
    let close = open + 1;
    while (close < lines.length && lines[close] !== '}') close++;
    if (close >= lines.length) continue;
    let start = i;
    while (start > 0 && /^\s*(\/\*|\*|\/\/)/.test(lines[start - 1]!)) start--;
    all.definitions.push({
      name,
      kind: 'function',
      container: undefined,
      parent: undefined,
      signature: lines.slice(i, open).join(' ').replace(/\s+/g, ' ').trim().slice(0, 240),
      startLine: start + 1,
      nameLine: i + 1,
      endLine: close + 1,
      exported: !/^static\b/.test(header),
      bodiless: false,
      doc: lines.slice(start, i).join('\n').slice(0, 600),
      words: identifierWords(name).join(' '),
      searchable: true,
      startByte: 0,
      endByte: 0,
    });
    known.add(`${name}:${i + 1}`);
    i = close;
  }
}

/** A top-level statement holding a syntax error over more lines than this has derailed the parser. */
const DERAILED_LINES = 150;

/** Parses `text` as `language` and extracts what the index keeps. */
export async function extract(grammars: Grammars, language: LanguageId, text: string, options: ExtractOptions = {}): Promise<Extracted> {
  const { parser, language: lang, ts } = await grammars.parser(language);
  const query = queryFor(ts, lang, language, options.onBadPattern);
  const tree = parser.parse(text);
  if (!tree) return { definitions: [], references: [], imports: [] };
  let all: Extracted;
  const derailed: { start: number; end: number; line: number }[] = [];
  const broken: { start: number; end: number; line: number; docLine: number; doc: string }[] = [];
  let hadError = false;
  try {
    const root = tree.rootNode;
    hadError = root.hasError;
    // A local syntax error (an unknown macro, say) leaves the rest of the tree sound; the statement
    // holding it may lose its definition, which the line-heuristic rescue gives back. A construct the
    // grammar does not know can derail it instead, swallowing what follows into one broken statement:
    // those stretches are parsed again piece by piece (top-level statements), so the error stays in
    // its own statement.
    // Loose tokens at the top level: the parser lost the thread for the whole file.
    if (root.hasError && root.children.some((c) => c && !c.isNamed && c.type !== ';')) derailed.push({ start: 0, end: text.length, line: 0 });
    else if (root.hasError) {
      for (const c of root.children) {
        if (!c || !(c.hasError || c.type === 'ERROR')) continue;
        const span = { start: c.startIndex, end: c.endIndex, line: c.startPosition.row };
        // A well-formed statement with an error inside (an unknown macro in a long C function) is
        // trusted; a long stretch the parser could only call ERROR is parsed again.
        if (c.type === 'ERROR' && c.endPosition.row - c.startPosition.row > DERAILED_LINES) derailed.push(span);
        else {
          const lead = leading(c);
          broken.push({ ...span, docLine: lead.start.startPosition.row, doc: lead.doc });
        }
      }
    }
    const inDerailed = (byte: number) => derailed.some((r) => byte >= r.start && byte < r.end);
    const matches = query.matches(root);
    all = collect(derailed.length ? matches.filter((m) => !inDerailed(m.captures[0]?.node.startIndex ?? 0)) : matches, text, language);
  } finally {
    tree.delete();
  }
  // C and C++ have their own rescue below (HEADER's keywords would take `struct x;` for a definition).
  for (const b of language === 'c' || language === 'cpp' ? [] : broken) {
    const found: Extracted = { definitions: [], references: [], imports: [] };
    const piece = text.slice(b.start, b.end);
    rescue(found, piece, (name, line) => all.definitions.some((d) => d.name === name && d.nameLine === b.line + line));
    for (const d of found.definitions) {
      all.definitions.push({ ...d, startLine: b.docLine + 1, nameLine: d.nameLine + b.line, endLine: d.endLine + b.line, doc: b.doc || d.doc, startByte: b.start, endByte: b.end });
    }
  }
  for (const region of derailed) {
    const regionText = text.slice(region.start, region.end);
    for (const piece of pieces(regionText)) {
      const t = parser.parse(piece.text);
      if (!t) continue;
      try {
        const found = collect(query.matches(t.rootNode), piece.text, language);
        if (t.rootNode.hasError) rescue(found, piece.text);
        const part = shifted(found, region.line + piece.line, region.start + piece.byte, all.definitions.length);
        all.definitions.push(...part.definitions);
        all.references.push(...part.references);
        all.imports.push(...part.imports);
      } finally {
        t.delete();
      }
    }
  }
  if (hadError && (language === 'c' || language === 'cpp')) rescueC(all, text);
  if (derailed.length) {
    // A derailed stretch's edge can be seen both from the whole tree and from its first piece.
    const once = new Set<string>();
    all.references = all.references.filter((r) => {
      const key = `${r.name}\u0000${r.kind}\u0000${r.line}`;
      if (once.has(key)) return false;
      once.add(key);
      return true;
    });
  }
  return all;
}
