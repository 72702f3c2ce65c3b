// Reading schema 12's grouped rows (line-groups.ts): a reference or local row of the store's queries
// becomes one row per line, its enclosing definition looked up once per id.
import type { Database } from '../storage/database.ts';
import { expandLines } from './line-groups.ts';
import { unpackWordsSql } from './row-formats.ts';
import type { ReferenceRow } from './store-rows.ts';

/**
 * The first definition id written in schema 12's form (code_meta defs_12, set by the migration where
 * older rows were kept; none: every row is). A definition is never given a smaller id (store-write.ts).
 */
export const DEFS_12_SQL = "(SELECT CAST(value AS INTEGER) FROM code_meta WHERE key = 'defs_12')";
/** Whether definition `d` was written before schema 12 (its container and signature in the older form). */
const OLDER = `d.id < coalesce(${DEFS_12_SQL}, 0)`;

/**
 * A definition's container (schema 12): stored only where it is not its parent's name (most are), ''
 * for none though it has a parent; the parent's name otherwise, through PARENT_JOIN (alias `d`).
 */
export const CONTAINER_SQL = `CASE WHEN ${OLDER} THEN d.container WHEN d.container IS NULL THEN pn.name ELSE nullif(d.container, '') END`;
/** A definition's signature in its packSignature form (row-formats.ts), either way it was written. */
export const PACKED_SIGNATURE_SQL = `CASE WHEN ${OLDER} THEN d.signature ELSE ${unpackWordsSql('d.signature')} END`;
export const PARENT_JOIN = 'LEFT JOIN code_defs pd ON pd.id = d.parent_id LEFT JOIN code_names pn ON pn.id = pd.name_id';

/** A code_refs row as the store's queries select it: a ReferenceRow (kind still a number) with its group. */
export type ReferenceGroup = Omit<ReferenceRow, 'def_id' | 'def_name' | 'def_container' | 'def_line'> & {
  file_id: number;
  def_off: number | null;
  first_def: number | null;
  also: Uint8Array | null;
};

/** The SQL columns of a ReferenceGroup besides path and name (aliases: `r` the row, `fr` its file's code_file_rows). */
export const REFERENCE_GROUP_COLUMNS = 'r.file_id, r.line, r.kind, r.def_off, fr.first_def, r.also';

/**
 * The groups' lines in the order of the table's key (kind, file, line), up to `limit`, that `keep`
 * (a line) takes; the enclosing definitions' ids, not yet their names.
 */
export function referenceLines(groups: readonly ReferenceGroup[], limit: number, keep: (line: number) => boolean = () => true): ReferenceRow[] {
  const rows: (ReferenceRow & { file_id: number })[] = [];
  for (const g of groups) {
    const { def_off: _off, first_def: first, also, ...row } = g;
    for (const at of expandLines(g.line, Number(g.kind), g.def_off, also)) {
      if (!keep(at.line)) continue;
      const defId = at.defOff === null || first === null ? null : first + at.defOff;
      rows.push({ ...row, line: at.line, def_id: defId, def_name: null, def_container: null, def_line: null });
    }
  }
  rows.sort((a, b) => Number(a.kind) - Number(b.kind) || a.file_id - b.file_id || a.line - b.line);
  return rows.slice(0, limit).map(({ file_id: _file, ...r }) => r);
}

/** Definitions by id: name, kind (a number), container and lines; those of constant tables are not among them. */
export function definitionsById(db: Database, ids: Iterable<number | null>): Map<number, { name: string; kind: number; container: string | null; start: number; end: number; name_line: number }> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))];
  const found = new Map<number, { name: string; kind: number; container: string | null; start: number; end: number; name_line: number }>();
  if (!wanted.length) return found;
  const rows = db.all(
    `SELECT d.id, dn.name, d.kind, ${CONTAINER_SQL} AS container, d.start_line AS start, d.start_line + d.end_offset AS end, d.start_line + d.name_offset AS name_line
       FROM json_each(?) j JOIN code_defs d ON d.id = j.value JOIN code_names dn ON dn.id = d.name_id ${PARENT_JOIN}`,
    [JSON.stringify(wanted)],
  ) as unknown as { id: number; name: string; kind: number; container: string | null; start: number; end: number; name_line: number }[];
  for (const { id, ...d } of rows) found.set(id, d);
  return found;
}
