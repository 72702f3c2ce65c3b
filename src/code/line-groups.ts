// Schema 12's references and locals (issue 21 item 8): one row per name and file (a reference: and
// kind), not per line. Both are looked up by name, and the Linux tree's 5.3 M reference and 3.5 M local
// rows fall into 2.1 M and 1.5 M such groups: a parameter `dev` in twenty functions of one driver was
// twenty rows of ~20 bytes, each repeating the name id, the file id and a record header. A row keeps
// its first line in its columns and the group's further lines in one text column `also`, grouped where
// the file is parsed (file-rows.ts, in the parse workers):
//   also  = item (';' item)*          NULL when the group has one line
//   item  = d [',' o [',' k]]         d: lines after the previous one;
//                                     o: def_off ('' for none), left out when as the previous line's
//                                     (and so is k); k: a local's kind, left out when as the previous one's.
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
 * stores them: the first, and the others as `also` (null for none). Repeated lines keep the first given.
 */
export function groupLines(lines: readonly GroupLine[]): { first: GroupLine; also: string | null } {
  const seen = new Set<number>();
  const sorted = lines.filter((l) => !seen.has(l.line) && seen.add(l.line)).sort((a, b) => a.line - b.line);
  const first = sorted[0];
  if (!first) throw new RangeError('a line group holds at least one line');
  const items: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [prev, at] = [sorted[i - 1]!, sorted[i]!];
    const off = at.defOff === null ? '' : String(at.defOff);
    items.push(at.kind !== prev.kind ? `${at.line - prev.line},${off},${at.kind}` : at.defOff !== prev.defOff ? `${at.line - prev.line},${off}` : String(at.line - prev.line));
  }
  return { first, also: items.length ? items.join(';') : null };
}

/** A stored row's lines, in order (the first is the row's own columns); `kind`: the row's (a reference's is its key's). */
export function expandLines(line: number, kind: number, defOff: number | null, also: string | null): GroupLine[] {
  const out: GroupLine[] = [{ line, kind, defOff }];
  if (also === null || also === '') return out;
  let at = { line, kind, defOff };
  for (const item of also.split(';')) {
    const parts = item.split(',');
    const d = Number(parts[0]);
    if (!(parts.length <= 3 && Number.isInteger(d) && d > 0)) throw new RangeError(`a malformed line group item '${item}' in code.db (delete code.db to rebuild the index)`);
    at = { line: at.line + d, kind: parts[2] === undefined ? at.kind : Number(parts[2]), defOff: parts[1] === undefined ? at.defOff : parts[1] === '' ? null : Number(parts[1]) };
    out.push(at);
  }
  return out;
}

/** SQL counting the lines a row holds (`t`: the table's alias). */
export const lineCountSql = (t: string): string => `CASE WHEN ${t}.also IS NULL THEN 1 ELSE 2 + length(${t}.also) - length(replace(${t}.also, ';', '')) END`;
