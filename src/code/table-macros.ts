// Constant tables (schema 10, issue 21 item 8): a file's object-like macros (`#define mmMC_SEQ_MISC0
// 0xa80`; the generated register headers of drivers/gpu/drm/amd hold a million) are kept out of the
// per-name tables when it has a few of them. On the Linux tree they were 1.75 M of 3.5 M definitions,
// each paying a code_defs row, an entry in the index by name, and most a code_names row with its hash
// entry. Such a file's macros are one deflated text per file instead (code_file_macros: names
// front-coded, signatures packed), found by name through code_macro_keys (a name's 23-bit hash and the
// file). Every macro keeps the definition id it would have had (the file's first id + its place), so
// references and locals inside one still name it; the file's last definition always stays a row, so
// the next file's ids follow every id this one took.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { DefinitionKind } from './extracted.ts';
import { NAME_MARK, unpackSignature } from './row-formats.ts';

/** A file keeps its object-like macros in a table when it has at least this many (fewer save less than a table row costs). */
const TABLE_MIN_MACROS = 8;

/** What the choice needs of a definition row (file-rows.ts builds it). */
export interface MacroCandidate {
  kind: DefinitionKind;
  /** The signature as stored: name marked and beginning packed (row-formats.ts). */
  packed: string;
  container: string | undefined;
  parent: number | undefined;
  searchable: boolean;
  bodiless: boolean;
  bases?: readonly string[] | undefined;
}

/** `#define NAME …` with no parameter list: the name, then a space or the end. */
const OBJECT_LIKE = new RegExp(`^#[ \\t]*define[ \\t]+${NAME_MARK}(?:[ \\t]|$)`);

function objectLike(d: MacroCandidate): boolean {
  return (
    d.kind === 'macro' &&
    OBJECT_LIKE.test(unpackSignature(d.packed)) &&
    !/[\t\n]/.test(d.packed) &&
    d.container === undefined &&
    d.parent === undefined &&
    !d.searchable &&
    !d.bodiless &&
    !d.bases?.length
  );
}

/** The places of the definitions a file keeps in its table; none when it has too few. */
export function tableMacroPlaces(defs: readonly MacroCandidate[]): Set<number> {
  const parents = new Set(defs.map((d) => d.parent).filter((p) => p !== undefined));
  const places = new Set<number>();
  // The last definition stays a row (the ids of the next file follow it).
  for (let k = 0; k < defs.length - 1; k++) if (objectLike(defs[k]!) && !parents.has(k)) places.add(k);
  return places.size >= TABLE_MIN_MACROS ? places : new Set();
}

/** One macro of a constant table. */
export interface TableMacro {
  /** Its place among the file's definitions. */
  place: number;
  name: string;
  /** Signature as stored (packed, name marked). */
  packed: string;
  start: number;
  nameLine: number;
  end: number;
  exported: boolean;
}

const COMMON = { step: 1, lines: 1, nameOffset: 0, endOffset: 1, exported: true };

/**
 * A table's macros (in place order) as one text, a line each: `head\tname suffix\tsignature`, where the
 * head is the length of the prefix shared with the previous name, followed by `,place step,start step,name
 * offset,end offset,exported` unless those are the common 1,1,0,1,1; stored deflated (a seventh of the
 * text on the kernel's register headers).
 */
export function packTableMacros(macros: readonly TableMacro[]): Uint8Array {
  return new Uint8Array(deflateRawSync(new TextEncoder().encode(encodeTableMacros(macros))));
}

/** packTableMacros' inverse (decodeTableMacros' `named` passed on). */
export function unpackTableMacros(data: Uint8Array, named?: string): TableMacro[] {
  return decodeTableMacros(new TextDecoder().decode(inflateRawSync(data)), named);
}

export function encodeTableMacros(macros: readonly TableMacro[]): string {
  const out: string[] = [];
  let place = -1;
  let start = 0;
  let previous = '';
  for (const m of macros) {
    if (m.place <= place || m.start < start) throw new RangeError('table macros are encoded in the order of their places and lines');
    if (/[\t\n]/.test(m.name) || /[\t\n]/.test(m.packed)) throw new RangeError(`a table macro's name and signature hold no tab or line break (${JSON.stringify(m.name)})`);
    let shared = 0;
    const limit = Math.min(previous.length, m.name.length);
    while (shared < limit && previous.charCodeAt(shared) === m.name.charCodeAt(shared)) shared++;
    const fields = [m.place - place, m.start - start, m.nameLine - m.start, m.end - m.start, m.exported ? 1 : 0];
    const common = fields[0] === COMMON.step && fields[1] === COMMON.lines && fields[2] === COMMON.nameOffset && fields[3] === COMMON.endOffset && m.exported;
    out.push(`${common ? shared : [shared, ...fields].join(',')}\t${m.name.slice(shared)}\t${m.packed}`);
    place = m.place;
    start = m.start;
    previous = m.name;
  }
  return out.join('\n');
}

/** encodeTableMacros' inverse; with `named`, only the macros of that name (the others are stepped over, not built). */
export function decodeTableMacros(text: string, named?: string): TableMacro[] {
  const macros: TableMacro[] = [];
  let place = -1;
  let start = 0;
  let previous = '';
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', at);
    const tab2 = tab < 0 ? -1 : text.indexOf('\t', tab + 1);
    if (tab < 0 || tab2 < 0 || tab2 > end) throw new RangeError("a malformed constant table in code.db's code_file_macros");
    // The head: the shared length, then (rarely) the five numbers that differ from the common ones.
    let shared = 0;
    let i = at;
    for (; i < tab && text.charCodeAt(i) !== 44; i++) shared = shared * 10 + text.charCodeAt(i) - 48;
    let step = COMMON.step;
    let lines = COMMON.lines;
    let nameOffset = COMMON.nameOffset;
    let endOffset = COMMON.endOffset;
    let exported = true;
    if (i < tab) [step = 1, lines = 1, nameOffset = 0, endOffset = 1] = text.slice(i + 1, tab).split(',').map(Number);
    if (i < tab) exported = text.charCodeAt(tab - 1) === 49;
    place += step;
    start += lines;
    const name = previous.length === shared ? previous + text.slice(tab + 1, tab2) : previous.slice(0, shared) + text.slice(tab + 1, tab2);
    if (named === undefined || name === named) macros.push({ place, name, packed: text.slice(tab2 + 1, end), start, nameLine: start + nameOffset, end: start + endOffset, exported });
    previous = name;
    at = end + 1;
  }
  return macros;
}
