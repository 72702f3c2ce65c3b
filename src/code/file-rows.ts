// One file's extraction as the rows the store writes, each table's rows one JSON array: built where the
// file was parsed (a parse worker), bound as one value per table and unpacked by SQLite's json_each.
// Binding every value from JavaScript costs more than the insert itself on the WASM build, and one
// string crosses from a worker far cheaper than thousands of small objects.
import { type GroupLine, groupLines } from './line-groups.ts';
import { DEFINITION_KINDS, type Extracted, type ExtractedImport, LOCAL_KINDS, REFERENCE_KINDS } from './extracted.ts';
import { identifierWords } from './identifier-words.ts';
import { NAME_MARK, nameHash, packSignature, packWords } from './row-formats.ts';
import { packTableMacros, type TableMacro, tableMacroPlaces } from './table-macros.ts';

export interface FileRows {
  /**
   * Every name the rows below carry, once: the store gives each an id (code_names) and the rows name it
   * by its place in this list, so the store looks each name up once per file, not once per row. Each is
   * [name, its hash] (row-formats.ts): the store finds names by their hash.
   */
  names: string;
  /** The places (in names) of the names its references and locals carry: what the store finds them by when the file changes. */
  used: string;
  /** [name's place, kind number, container, parent index, signature with the name as \x01 and packed (row-formats.ts), start, name line, end, exported, bodiless, bases] per definition; null for one kept in the file's constant table. */
  defs: string;
  /** A constant table's macros (table-macros.ts, packed), undefined when the file is none. */
  macros: Uint8Array | undefined;
  macroCount: number;
  /** The distinct hashes of those macros' names (a JSON array): what code_macro_keys finds the file by. */
  macroKeys: string;
  /** [definition index, name words, signature, doc, body words] per searchable definition. */
  blocks: string;
  /** [name's place, line, kind number, qualifier, enclosing definition index, via, occurrences on the line, the line's call groups as JSON or null] per reference. */
  refs: string;
  /** [name's place, line, kind number, enclosing definition index] per declaration that is no definition. */
  locals: string;
  definitions: number;
}

/** What the store keeps of a parsed file: its rows, and its imports to resolve against the project. */
export interface ParsedFile {
  rows: FileRows;
  imports: ExtractedImport[];
}

const DOC_MARKS = /^\s*(?:\/\*\*?|\*\/?|\/\/\/?|#)\s?/gm;

const DEFINITION_KIND = new Map<string, number>(DEFINITION_KINDS.map((k, i) => [k, i]));
const REFERENCE_KIND = new Map<string, number>(REFERENCE_KINDS.map((k, i) => [k, i]));
const LOCAL_KIND = new Map<string, number>(LOCAL_KINDS.map((k, i) => [k, i]));

/** A signature without its own name, which most signatures hold once (`#define NAME 0x80`): the name is stored once, in code_names. */
export function markName(signature: string, name: string): string {
  const clean = signature.includes(NAME_MARK) ? signature.replaceAll(NAME_MARK, ' ') : signature;
  const at = name ? clean.indexOf(name) : -1;
  return at < 0 ? clean : `${clean.slice(0, at)}${NAME_MARK}${clean.slice(at + name.length)}`;
}

function kindNumber(kinds: Map<string, number>, kind: string): number {
  const n = kinds.get(kind);
  if (n === undefined) throw new Error(`unknown kind '${kind}': add it at the end of its list in code/extracted.ts`);
  return n;
}

/** A definition's container as code_defs stores it (store-lines.ts CONTAINER_SQL): null where its parent's name (a row of code_defs) gives it. */
function storedContainer(e: Extracted, d: Extracted['definitions'][number], table: ReadonlySet<number>): string | null {
  if (d.parent === undefined) return d.container ?? null;
  const parent = e.definitions[d.parent];
  return parent && !table.has(d.parent) && d.container === parent.name ? null : (d.container ?? '');
}

/** A group's further lines as hex in the rows' JSON (the store writes them back as a blob with unhex). */
function hex(bytes: Uint8Array | null): string | null {
  if (!bytes) return null;
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function fileRows(e: Extracted): FileRows {
  const names = new Map<string, number>();
  const place = (name: string): number => {
    const known = names.get(name);
    if (known !== undefined) return known;
    names.set(name, names.size);
    return names.size - 1;
  };
  const defs: unknown[] = [];
  const blocks: unknown[] = [];
  const packed = e.definitions.map((d) => packSignature(markName(d.signature, d.name)));
  const table = tableMacroPlaces(e.definitions.map((d, k) => ({ ...d, packed: packed[k]! })));
  const macros: TableMacro[] = [];
  e.definitions.forEach((d, k) => {
    if (table.has(k)) {
      macros.push({ place: k, name: d.name, packed: packed[k]!, start: d.startLine, nameLine: d.nameLine, end: d.endLine, exported: d.exported });
      defs.push(null);
      return;
    }
    defs.push([place(d.name), kindNumber(DEFINITION_KIND, d.kind), storedContainer(e, d, table), d.parent ?? null, packWords(packed[k]!), d.startLine, d.nameLine, d.endLine, d.exported ? 1 : 0, d.bodiless ? 1 : 0, d.bases?.join(' ') ?? null]);
    if (d.searchable) {
      const words = `${identifierWords(d.name).join(' ')} ${d.container ? identifierWords(d.container).join(' ') : ''}`;
      blocks.push([k, words, d.signature, d.doc.replace(DOC_MARKS, ' '), d.words]);
    }
  });
  const used = new Set<number>();
  // Plain references (no qualifier, receiver or call groups, once on their line) grouped per name and
  // kind, locals per name (line-groups.ts); a reference with more keeps a row of its own.
  const refs: unknown[] = [];
  const plain = new Map<string, GroupLine[]>();
  for (const r of e.references) {
    const at = place(r.name);
    used.add(at);
    const kind = kindNumber(REFERENCE_KIND, r.kind);
    if (r.qualifier == null && r.via == null && !r.calls && r.n === 1) {
      const key = `${at} ${kind}`;
      const line = { line: r.line, kind, defOff: r.enclosing ?? null };
      const group = plain.get(key);
      if (group) group.push(line);
      else plain.set(key, [line]);
    } else refs.push([at, r.line, kind, r.qualifier ?? null, r.enclosing ?? null, r.via ?? null, r.n, r.calls ? JSON.stringify(r.calls) : null, null]);
  }
  for (const [key, lines] of plain) {
    const { first, count, also } = groupLines(lines);
    refs.push([Number(key.slice(0, key.indexOf(' '))), first.line, first.kind, null, first.defOff, null, 1, null, count, hex(also)]);
  }
  const byName = new Map<number, GroupLine[]>();
  for (const l of e.locals) {
    const at = place(l.name);
    used.add(at);
    const line = { line: l.line, kind: kindNumber(LOCAL_KIND, l.kind), defOff: l.enclosing ?? null };
    const group = byName.get(at);
    if (group) group.push(line);
    else byName.set(at, [line]);
  }
  const locals = [...byName].map(([at, lines]) => {
    const { first, count, also } = groupLines(lines);
    return [at, first.line, first.kind, first.defOff, count, hex(also)];
  });
  return {
    names: JSON.stringify([...names.keys()].map((name) => [name, nameHash(name)])),
    used: JSON.stringify([...used]),
    defs: JSON.stringify(defs),
    macros: macros.length ? packTableMacros(macros) : undefined,
    macroCount: macros.length,
    macroKeys: JSON.stringify([...new Set(macros.map((m) => nameHash(m.name)))]),
    blocks: JSON.stringify(blocks), refs: JSON.stringify(refs), locals: JSON.stringify(locals), definitions: e.definitions.length };
}

export function parsedFile(e: Extracted): ParsedFile {
  return { rows: fileRows(e), imports: e.imports };
}
