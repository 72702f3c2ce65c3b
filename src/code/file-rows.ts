// One file's extraction as the rows the store writes, each table's rows one JSON array: built where the
// file was parsed (a parse worker), bound as one value per table and unpacked by SQLite's json_each.
// Binding every value from JavaScript costs more than the insert itself on the WASM build, and one
// string crosses from a worker far cheaper than thousands of small objects.
import type { Extracted, ExtractedImport } from './extracted.ts';
import { identifierWords } from './identifier-words.ts';

export interface FileRows {
  /** [name, kind, container, parent index, signature, start, name line, end, exported, bodiless, bases] per definition. */
  defs: string;
  /** [definition index, name words, signature, doc, body words] per searchable definition. */
  blocks: string;
  /** [name, line, kind, qualifier, enclosing definition index, via] per reference. */
  refs: string;
  /** [name, line, kind, enclosing definition index] per declaration that is no definition. */
  locals: string;
  definitions: number;
}

/** What the store keeps of a parsed file: its rows, and its imports to resolve against the project. */
export interface ParsedFile {
  rows: FileRows;
  imports: ExtractedImport[];
}

const DOC_MARKS = /^\s*(?:\/\*\*?|\*\/?|\/\/\/?|#)\s?/gm;

export function fileRows(e: Extracted): FileRows {
  const defs: unknown[] = [];
  const blocks: unknown[] = [];
  e.definitions.forEach((d, k) => {
    defs.push([d.name, d.kind, d.container ?? null, d.parent ?? null, d.signature, d.startLine, d.nameLine, d.endLine, d.exported ? 1 : 0, d.bodiless ? 1 : 0, d.bases?.join(' ') ?? null]);
    if (d.searchable) {
      const words = `${identifierWords(d.name).join(' ')} ${d.container ? identifierWords(d.container).join(' ') : ''}`;
      blocks.push([k, words, d.signature, d.doc.replace(DOC_MARKS, ' '), d.words]);
    }
  });
  const refs = e.references.map((r) => [r.name, r.line, r.kind, r.qualifier ?? null, r.enclosing ?? null, r.via ?? null]);
  const locals = e.locals.map((l) => [l.name, l.line, l.kind, l.enclosing ?? null]);
  return { defs: JSON.stringify(defs), blocks: JSON.stringify(blocks), refs: JSON.stringify(refs), locals: JSON.stringify(locals), definitions: e.definitions.length };
}

export function parsedFile(e: Extracted): ParsedFile {
  return { rows: fileRows(e), imports: e.imports };
}
