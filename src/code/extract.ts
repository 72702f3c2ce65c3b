// One file's definitions, references and imports, from its syntax tree and the language's tags
// query. The tree is deleted before returning: nothing of it outlives the call.
import type { Query } from 'web-tree-sitter';
import { collect } from './extract-collect.ts';
import { moduleDocstring } from './extract-docstrings.ts';
import { leading } from './extract-nodes.ts';
import { pieces, rescue, rescueC, shifted } from './extract-rescue.ts';
import type { Extracted } from './extracted.ts';
import type { Grammars } from './grammars.ts';
import type { LanguageId } from './languages.ts';
import { QUERIES } from './tags.ts';

export type { DefinitionKind, Extracted, ExtractedDefinition, ExtractedImport, ExtractedReference, ReferenceKind } from './extracted.ts';

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

export interface ExtractOptions {
  onBadPattern?: (pattern: string, error: unknown) => void;
  /** The file's path in the project (names a Python module's docstring). */
  file?: string;
}

/** A top-level statement holding a syntax error over more lines than this has derailed the parser. */
const DERAILED_LINES = 150;

/** Parses `text` as `language` and extracts what the index keeps. */
export async function extract(grammars: Grammars, language: LanguageId, text: string, options: ExtractOptions = {}): Promise<Extracted> {
  const { parser, language: lang, ts } = await grammars.parser(language);
  const query = queryFor(ts, lang, language, options.onBadPattern);
  const tree = parser.parse(text);
  if (!tree) return { definitions: [], references: [], imports: [], locals: [] };
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
    const moduleDoc = language === 'python' ? moduleDocstring(root, text, options.file) : undefined;
    if (moduleDoc) all.definitions.push(moduleDoc);
  } finally {
    tree.delete();
  }
  // C and C++ have their own rescue below (HEADER's keywords would take `struct x;` for a definition).
  for (const b of language === 'c' || language === 'cpp' ? [] : broken) {
    const found: Extracted = { definitions: [], references: [], imports: [], locals: [] };
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
        all.locals.push(...part.locals);
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
