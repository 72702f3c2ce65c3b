// What the grammar lost to a syntax error, given back: a derailed stretch cut into top-level pieces,
// the definition a broken statement's first line names, and kernel-style C functions from their lines.
import type { DefinitionKind, Extracted } from './extracted.ts';
import { identifierWords } from './identifier-words.ts';

/**
 * Top-level pieces of a file: a new piece starts at a line that begins in column 0 after a blank
 * line. Used when the grammar's error recovery swallows much of a file in one ERROR node (a
 * construct it does not know early on), so one bad statement costs that statement, not the file.
 */
export function pieces(text: string): { text: string; line: number; byte: number }[] {
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
export function rescue(found: Extracted, text: string, known?: (name: string, line: number) => boolean): void {
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
  for (const l of found.locals) if (l.enclosing !== undefined) l.enclosing++;
}

export function shifted(e: Extracted, line: number, byte: number, defBase: number): Extracted {
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
    locals: e.locals.map((l) => ({ ...l, line: l.line + line, enclosing: l.enclosing === undefined ? undefined : l.enclosing + defBase })),
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
export function rescueC(all: Extracted, text: string): void {
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
      // Kernel style may put `static inline void` on the line above the name.
      exported: !/^static\b/.test(header) && !/^static\b[^;{}]*$/.test(lines[i - 1] ?? ''),
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
