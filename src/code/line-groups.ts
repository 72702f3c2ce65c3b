// Schema 12's references and locals (issue 21 item 8): one row per name and file (a reference: and
// kind), not per line. Both are looked up by name, and the Linux tree's 5.3 M reference and 3.5 M local
// rows fall into 2.1 M and 1.5 M such groups: a parameter `dev` in twenty functions of one driver was
// twenty rows of ~20 bytes, each repeating the name id, the file id and a record header. A row keeps
// its first line in its columns, the group's number of lines in `lines` and its further lines in
// `also`, grouped where the file is parsed (file-rows.ts, in the parse workers); both NULL for one line
// (a byte each in the record's header: this SQLite build does not leave trailing NULLs out). `also` is a
// blob of varints, per further line:
//   (d << 2) | flags     d: lines after the previous one; flags: 1 its def_off differs, 2 its kind does
//   [z]                  when its def_off differs: 0 for none, else 1 + zigzag(def_off - the previous, or 0)
//   [kind]               when its kind differs (a local's; a reference's kind is its row's key)
// Only plain references are grouped (`more` NULL: no qualifier, receiver, call groups, one occurrence
// on the line; 98.5% of them); the others keep a row each. A row of schema 11 is a group of one line,
// so the older rows answer as they are and shrink when their file is parsed again.

/** One line of a group as its row and `also` give it back. */
export interface GroupLine {
  line: number;
  kind: number;
  defOff: number | null;
}

/**
 * Lines of one group (a name's plain references of one kind, or its locals, in one file) as a row
 * stores them: the first, the number of lines and the others (both null for one line). Repeated lines
 * keep the first given.
 */
export function groupLines(lines: readonly GroupLine[]): { first: GroupLine; count: number | null; also: Uint8Array | null } {
  const seen = new Set<number>();
  const sorted = lines.filter((l) => !seen.has(l.line) && seen.add(l.line)).sort((a, b) => a.line - b.line);
  const first = sorted[0];
  if (!first) throw new RangeError('a line group holds at least one line');
  if (sorted.length === 1) return { first, count: null, also: null };
  const out: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [prev, at] = [sorted[i - 1]!, sorted[i]!];
    const offChanged = at.defOff !== prev.defOff;
    const kindChanged = at.kind !== prev.kind;
    varint(out, (at.line - prev.line) * 4 + (offChanged ? 1 : 0) + (kindChanged ? 2 : 0));
    if (offChanged) varint(out, at.defOff === null ? 0 : 1 + zigzag(at.defOff - (prev.defOff ?? 0)));
    if (kindChanged) varint(out, at.kind);
  }
  return { first, count: sorted.length, also: Uint8Array.from(out) };
}

function varint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

const zigzag = (n: number): number => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (z: number): number => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** A stored row's lines, in order (the first is the row's own columns); `kind`: the row's (a reference's is its key's). */
export function expandLines(line: number, kind: number, defOff: number | null, also: Uint8Array | null): GroupLine[] {
  const out: GroupLine[] = [{ line, kind, defOff }];
  if (also === null) return out;
  let pos = 0;
  const next = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const byte = also[pos++];
      if (byte === undefined) throw new RangeError("a truncated line group in code.db's references or locals (delete code.db to rebuild the index)");
      v += (byte & 0x7f) * scale;
      if (byte < 0x80) return v;
      scale *= 0x80;
    }
  };
  let at = { line, kind, defOff };
  while (pos < also.length) {
    const head = next();
    const d = Math.floor(head / 4);
    if (d < 1) throw new RangeError("a malformed line group in code.db's references or locals (delete code.db to rebuild the index)");
    let nextOff = at.defOff;
    if (head & 1) {
      const z = next();
      nextOff = z === 0 ? null : (at.defOff ?? 0) + unzigzag(z - 1);
    }
    at = { line: at.line + d, kind: head & 2 ? next() : at.kind, defOff: nextOff };
    out.push(at);
  }
  return out;
}

/** SQL counting the lines a row holds (`t`: the table's alias). */
export const lineCountSql = (t: string): string => `coalesce(${t}.lines, 1)`;
