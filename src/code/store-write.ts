// Writing one parsed file's rows (code/file-rows.ts): the write path of the code store, apart from its
// queries (store.ts). A file's names come first, each looked up once in code_names (the new ones
// added) into a small table of this file's names by their place in its list; the rows name them by
// that place, so a row's name id is a lookup in that small table, not in code_names, which on a large
// tree is far bigger than the page cache. Definition ids are assigned after the largest so far, so
// parents, blocks and references name them by their index in the file. Kinds arrive as numbers; lines
// after the first as offsets from it.
import type { Database } from '../storage/database.ts';
import { REFERENCE_KINDS } from './extracted.ts';
import type { ParsedFile } from './file-rows.ts';
import { packIds, unpackIds } from './row-formats.ts';

const FILE_NAMES_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS code_file_names (place INTEGER PRIMARY KEY, name TEXT NOT NULL, h INTEGER NOT NULL, id INTEGER)';
const CLEAR_FILE_NAMES = 'DELETE FROM temp.code_file_names';
const LIST_FILE_NAMES = 'INSERT INTO temp.code_file_names (place, name, h) SELECT key, value->>0, value->>1 FROM json_each(?1)';
const FIND_FILE_NAMES = 'UPDATE temp.code_file_names SET id = (SELECT n.id FROM code_names n WHERE n.h = code_file_names.h AND n.name = code_file_names.name)';
const LAST_NAME_ID = 'SELECT coalesce(max(id), 0) FROM code_names';
const ADD_NEW_NAMES = 'INSERT INTO code_names (name, h) SELECT name, h FROM temp.code_file_names WHERE id IS NULL ORDER BY place';
/** The new names took the ids after the largest, in the order of their places (one INSERT, no other writer: the caller's transaction). */
const NUMBER_NEW_NAMES =
  'UPDATE temp.code_file_names SET id = ?1 + r.n FROM (SELECT place, row_number() OVER (ORDER BY place) AS n FROM temp.code_file_names WHERE id IS NULL) r WHERE code_file_names.place = r.place';
const NAME_ID = '(SELECT id FROM temp.code_file_names WHERE place = value->>0)';
const INSERT_DEFS =
  'INSERT INTO code_defs (id, file_id, name_id, kind, container, parent_id, signature, start_line, name_offset, end_offset, exported, bodiless, bases) ' +
  `SELECT ?1 + key, ?2, ${NAME_ID}, value->>1, value->>2, ?1 + (value->>3), value->>4, value->>5, (value->>6) - (value->>5), (value->>7) - (value->>5), value->>8, value->>9, value->>10 FROM json_each(?3)`;
const INSERT_BLOCKS = 'INSERT INTO code_blocks (rowid, name, signature, doc, body) SELECT ?1 + (value->>0), value->>1, value->>2, value->>3, value->>4 FROM json_each(?2)';
const INSERT_REFS = `INSERT INTO code_refs (file_id, name_id, line, kind, qualifier, def_id, via, n, calls) SELECT ?2, ${NAME_ID}, value->>1, value->>2, value->>3, ?1 + (value->>4), value->>5, value->>6, value->>7 FROM json_each(?3)`;
const INSERT_LOCALS = `INSERT OR IGNORE INTO code_locals (file_id, name_id, line, kind, def_id) SELECT ?2, ${NAME_ID}, value->>1, value->>2, ?1 + (value->>3) FROM json_each(?3)`;
const USED_NAME_IDS = 'SELECT id FROM temp.code_file_names WHERE place IN (SELECT value FROM json_each(?1))';
const INSERT_FILE_ROWS = 'INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (?, ?, ?, ?)';
/** Every reference kind's number: a file's references are found by (name, kind, file), the table's key. */
const ALL_REFERENCE_KINDS = REFERENCE_KINDS.map((_, i) => i).join(', ');

/** Readies a connection for writing files' rows. Outside any transaction, so no rollback takes it away; a temp table lives as long as the connection. */
export function prepareFileWrites(db: Database): void {
  db.run(FILE_NAMES_TABLE);
}

/** Deletes one file's rows (not its catalogue entry); inside the caller's transaction. */
export function clearFileRows(db: Database, fileId: number): void {
  const rows = db.get<{ first_def: number; last_def: number; names: Uint8Array }>('SELECT first_def, last_def, names FROM code_file_rows WHERE file_id = ?', [fileId]);
  if (rows) {
    const names = JSON.stringify(unpackIds(rows.names));
    db.run('DELETE FROM code_blocks WHERE rowid IN (SELECT id FROM code_defs WHERE id BETWEEN ? AND ?)', [rows.first_def, rows.last_def]);
    db.run('DELETE FROM code_defs WHERE id BETWEEN ? AND ?', [rows.first_def, rows.last_def]);
    db.run(`DELETE FROM code_refs WHERE name_id IN (SELECT value FROM json_each(?1)) AND kind IN (${ALL_REFERENCE_KINDS}) AND file_id = ?2`, [names, fileId]);
    db.run('DELETE FROM code_locals WHERE name_id IN (SELECT value FROM json_each(?1)) AND file_id = ?2', [names, fileId]);
    db.run('DELETE FROM code_file_rows WHERE file_id = ?', [fileId]);
  }
  db.run('DELETE FROM code_imports WHERE file_id = ?', [fileId]);
}

/** Writes one file's rows (cleared before); `targets[i]` is where `parsed.imports[i]` resolves. Inside the caller's transaction. */
export function writeFileRows(db: Database, fileId: number, parsed: ParsedFile, targets: readonly (string | undefined)[]): void {
  const { rows } = parsed;
  const first = Number(db.get<{ next: number }>('SELECT coalesce(max(id), 0) + 1 AS next FROM code_defs')?.next ?? 1);
  nameFile(db, rows.names);
  if (rows.definitions) {
    db.run(INSERT_DEFS, [first, fileId, rows.defs]);
    db.run(INSERT_BLOCKS, [first, rows.blocks]);
  }
  db.run(INSERT_REFS, [first, fileId, rows.refs]);
  db.run(INSERT_LOCALS, [first, fileId, rows.locals]);
  const used = packIds(db.all<{ id: number }>(USED_NAME_IDS, [rows.used]).map((r) => r.id));
  db.run(INSERT_FILE_ROWS, [fileId, first, first + rows.definitions - 1, used]);
  parsed.imports.forEach((imp, i) => {
    db.run('INSERT INTO code_imports (file_id, line, source, target, names) VALUES (?, ?, ?, ?, ?)', [fileId, imp.line, imp.source.slice(0, 500), targets[i] ?? null, imp.names?.slice(0, 2000) ?? null]);
  });
}

/** Fills the table of this file's names with their ids, adding the names code_names does not have yet. */
function nameFile(db: Database, names: string): void {
  db.run(CLEAR_FILE_NAMES);
  db.run(LIST_FILE_NAMES, [names]);
  db.run(FIND_FILE_NAMES);
  const last = Number(db.value(LAST_NAME_ID));
  db.run(ADD_NEW_NAMES);
  db.run(NUMBER_NEW_NAMES, [last]);
}
