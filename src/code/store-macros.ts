// Reading constant tables (table-macros.ts): their macros as the definition rows code_defs would have
// given, so every question by name, by file, by line or by id answers as if they were rows.
import type { Database } from '../storage/database.ts';
import { lineCountSql } from './line-groups.ts';
import { NAME_MARK, nameHash, unpackSignature } from './row-formats.ts';
import type { DefinitionRow } from './store-rows.ts';
import { type TableMacro, unpackTableMacros } from './table-macros.ts';

interface TableRow {
  path: string;
  file_id: number;
  first_def: number;
  data: Uint8Array;
}

/** Tables unpacked lately, per connection: a search's hits in one register header ask for it many times. */
const unpacked = new WeakMap<Database, Map<number, { data: Uint8Array; macros: TableMacro[] }>>();
const UNPACKED_TABLES = 16;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A table's macros; the packed bytes read with it tell whether the one unpacked before is still this.
 * With `named`, a table not unpacked before is scanned for that name only (and not kept).
 */
function macrosOf(db: Database, t: TableRow, named?: string): TableMacro[] {
  let cache = unpacked.get(db);
  if (!cache) {
    cache = new Map();
    unpacked.set(db, cache);
  }
  const known = cache.get(t.file_id);
  if (known && sameBytes(known.data, t.data)) {
    cache.delete(t.file_id);
    cache.set(t.file_id, known);
    return known.macros;
  }
  if (named !== undefined) return unpackTableMacros(t.data, named);
  const macros = unpackTableMacros(t.data);
  cache.set(t.file_id, { data: t.data, macros });
  if (cache.size > UNPACKED_TABLES) cache.delete(cache.keys().next().value!);
  return macros;
}

function definitionRow(t: TableRow, m: TableMacro): DefinitionRow {
  return {
    id: t.first_def + m.place,
    path: t.path,
    name: m.name,
    kind: 'macro',
    container: null,
    parent_id: null,
    signature: unpackSignature(m.packed).replaceAll(NAME_MARK, m.name),
    start_line: m.start,
    name_line: m.nameLine,
    end_line: m.end,
    exported: m.exported ? 1 : 0,
    bodiless: 0,
    bases: null,
  };
}

const TABLE_COLUMNS = 'f.path, t.file_id, t.first_def, t.data';

/** The table macros named `name`, in any file, by id. */
export function tableMacrosNamed(db: Database, name: string): DefinitionRow[] {
  const tables = db.all(`SELECT ${TABLE_COLUMNS} FROM code_macro_keys k JOIN code_file_macros t ON t.file_id = k.file_id JOIN code_files f ON f.id = t.file_id WHERE k.h = ?`, [nameHash(name)]) as unknown as TableRow[];
  const out: DefinitionRow[] = [];
  for (const t of tables) for (const m of macrosOf(db, t, name)) if (m.name === name) out.push(definitionRow(t, m));
  return out.sort((a, b) => a.id - b.id);
}

/** A file's table macros, in order. */
export function tableMacrosIn(db: Database, path: string): DefinitionRow[] {
  const t = db.get(`SELECT ${TABLE_COLUMNS} FROM code_files f JOIN code_file_macros t ON t.file_id = f.id WHERE f.path = ?`, [path]) as unknown as TableRow | undefined;
  return t ? macrosOf(db, t).map((m) => definitionRow(t, m)) : [];
}

/**
 * Finds table macros by id: `ids` maps each id to the file it is in (a reference's or a local's file) or
 * undefined (any file). Ids that are no table macro are left out.
 */
export function tableMacrosById(db: Database, ids: ReadonlyMap<number, string | undefined>): Map<number, DefinitionRow> {
  const found = new Map<number, DefinitionRow>();
  const byFile = new Map<string | undefined, number[]>();
  for (const [id, path] of ids) byFile.set(path, [...(byFile.get(path) ?? []), id]);
  for (const [path, wanted] of byFile) {
    const tables =
      path === undefined
        ? (db.all(`SELECT ${TABLE_COLUMNS} FROM code_file_macros t JOIN code_file_rows fr ON fr.file_id = t.file_id JOIN code_files f ON f.id = t.file_id WHERE fr.first_def <= ?1 AND fr.last_def >= ?2`, [Math.max(...wanted), Math.min(...wanted)]) as unknown as TableRow[])
        : (db.all(`SELECT ${TABLE_COLUMNS} FROM code_files f JOIN code_file_macros t ON t.file_id = f.id WHERE f.path = ?`, [path]) as unknown as TableRow[]);
    for (const t of tables) {
      const want = new Set(wanted);
      for (const m of macrosOf(db, t)) if (want.has(t.first_def + m.place)) found.set(t.first_def + m.place, definitionRow(t, m));
    }
  }
  return found;
}

/**
 * The names called `call`-kind references carry that a constant table in one file or under a folder
 * (`path` ending in `/`) defines, with their counts of call rows. A file's table gives its names; a
 * folder's, the called names whose hash one of its tables has (each then confirmed by name).
 */
export function calledTableMacros(db: Database, definedIn: { path: string; isFile: boolean }, call: number): { name: string; n: number }[] {
  const where = definedIn.isFile ? 'f.path = ?' : 'substr(f.path, 1, ?) = ?';
  const scope = definedIn.isFile ? [definedIn.path] : [definedIn.path.length, definedIn.path];
  const tables = db.all(`SELECT ${TABLE_COLUMNS} FROM code_file_macros t JOIN code_files f ON f.id = t.file_id WHERE ${where}`, scope) as unknown as TableRow[];
  if (!tables.length) return [];
  const counted = (sql: string, bind: (string | number)[]) => db.all(sql, bind) as unknown as { name: string; n: number }[];
  if (definedIn.isFile) {
    const names = JSON.stringify([...new Set(macrosOf(db, tables[0]!).map((m) => m.name))].map((n) => [n, nameHash(n)]));
    return counted(`SELECT nm.name AS name, (SELECT coalesce(sum(${lineCountSql('r')}), 0) FROM code_refs r WHERE r.name_id = nm.id AND r.kind = ?2) AS n FROM json_each(?1) m JOIN code_names nm ON nm.h = m.value->>1 AND nm.name = m.value->>0`, [names, call]).filter((r) => r.n > 0);
  }
  const files = new Set(tables.map((t) => t.file_id));
  const candidates = counted(
    `SELECT nm.name AS name, c.n AS n FROM (SELECT name_id, sum(${lineCountSql('code_refs')}) AS n FROM code_refs WHERE kind = ?1 GROUP BY name_id) c JOIN code_names nm ON nm.id = c.name_id
      WHERE EXISTS (SELECT 1 FROM code_macro_keys k WHERE k.h = nm.h AND k.file_id IN (SELECT value FROM json_each(?2)))`,
    [call, JSON.stringify([...files])],
  );
  return candidates.filter((c) => tableMacrosNamed(db, c.name).some((d) => d.path.startsWith(definedIn.path)));
}

/** How many macros the constant tables hold. */
export function tableMacroCount(db: Database): number {
  return Number(db.value('SELECT coalesce(sum(n), 0) FROM code_file_macros') ?? 0);
}
