// Schema 12's references and locals (issue 21 item 8): one row per name and file (a reference: and
// kind), not per line. Both are looked up by name, and the Linux tree's 5.3 M reference and 3.5 M local
// rows fall into 2.1 M and 1.5 M such groups: a parameter `dev` in twenty functions of one driver was
// twenty rows of ~20 bytes, each repeating the name id, the file id and a record header. A row keeps
// its first line in its columns and the group's further lines in one text column `also`, written and
// grouped in SQL (the parse gives, and staging holds, one row per line):
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
 * SELECT of `source`'s rows (one per line; columns `key`, line, def_off and, for locals, kind) grouped
 * as code_refs and code_locals hold them: `key`, line, [kind,] def_off, also, in the tables' key order;
 * `where` filters the source rows.
 */
export function groupedLinesSql(source: string, where: string, key: readonly string[], withKind: boolean): string {
  const prev = (column: string) => `lag(${column}) OVER w`;
  const sameOff = `CASE WHEN def_off IS ${prev('def_off')} THEN '' ELSE ',' || coalesce(def_off, '') END`;
  const rest = withKind ? `CASE WHEN kind = ${prev('kind')} THEN ${sameOff} ELSE ',' || coalesce(def_off, '') || ',' || kind END` : sameOff;
  const item = `CASE WHEN ${prev('line')} IS NULL THEN NULL ELSE (line - ${prev('line')}) || ${rest} END`;
  const first = (column: string) => `max(CASE WHEN item IS NULL THEN ${column} END)`;
  const keys = key.join(', ');
  return `SELECT ${keys}, ${first('line')}, ${withKind ? `${first('kind')}, ` : ''}${first('def_off')}, group_concat(item, ';' ORDER BY line)
    FROM (SELECT ${keys}, line, ${withKind ? 'kind, ' : ''}def_off, ${item} AS item FROM ${source} WHERE ${where} WINDOW w AS (PARTITION BY ${keys} ORDER BY line))
    GROUP BY ${keys} ORDER BY ${keys}`;
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
