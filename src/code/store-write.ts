// Writing one parsed file's rows (code/file-rows.ts): the write path of the code store, apart from its
// queries (store.ts). A file's names come first, each looked up once in code_names (the new ones
// added) into a small table of this file's names by their place in its list; the rows name them by
// that place, so a row's name id is a lookup in that small table, not in code_names, which on a large
// tree is far bigger than the page cache. Definition ids are assigned after the largest so far, so
// parents, blocks and references name them by their index in the file. Kinds arrive as numbers; lines
// after the first as offsets from it. The rows arrive as JSON arrays, read with jsonb_each: each
// row's `value` is then a JSONB blob whose columns `->>` reads directly (json_each gives it as
// JSON text, which `->>` parses: about a third more CPU per row in a microbenchmark of the refs).
import type { Database } from '../storage/database.ts';
import { REFERENCE_KINDS } from './extracted.ts';
import type { ParsedFile } from './file-rows.ts';
import { nameHash, packIds, unpackIds } from './row-formats.ts';
import { clearBlocks } from './store-blocks.ts';
import { DEFS_12_SQL } from './store-lines.ts';
import { noteClearedNames } from './store-names.ts';
import { importSourceSql, refMoreSql } from './store-rows.ts';
import { unpackTableMacros } from './table-macros.ts';

const FILE_NAMES_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS code_file_names (place INTEGER PRIMARY KEY, name TEXT NOT NULL, h INTEGER NOT NULL, id INTEGER)';
const CLEAR_FILE_NAMES = 'DELETE FROM temp.code_file_names';
const LIST_FILE_NAMES = 'INSERT INTO temp.code_file_names (place, name, h) SELECT key, value->>0, value->>1 FROM jsonb_each(?1)';
/** A file's names found by their keys (store-names.ts): in code_name_keys, then those not found among the newer. */
const FIND_FILE_NAMES = (keys: string) =>
  `UPDATE temp.code_file_names SET id = (SELECT n.id FROM ${keys} k JOIN code_names n ON n.id = k.id WHERE k.h = code_file_names.h AND n.name = code_file_names.name) WHERE id IS NULL`;
const LAST_NAME_ID = 'SELECT coalesce(max(id), 0) FROM code_names';
const ADD_NEW_NAMES = 'INSERT INTO code_names (name, h) SELECT name, h FROM temp.code_file_names WHERE id IS NULL ORDER BY place';
/** The new names took the ids after the largest, in the order of their places (one INSERT, no other writer: the caller's transaction). */
const NUMBER_NEW_NAMES =
  'UPDATE temp.code_file_names SET id = ?1 + r.n FROM (SELECT place, row_number() OVER (ORDER BY place) AS n FROM temp.code_file_names WHERE id IS NULL) r WHERE code_file_names.place = r.place';
/** The new names' keys, waiting to be folded (store-names.ts). */
const KEY_NEW_NAMES = 'INSERT INTO code_name_keys_new (h, id) SELECT h, id FROM temp.code_file_names WHERE id > ?1';
const NAME_ID = '(SELECT id FROM temp.code_file_names WHERE place = value->>0)';
const INSERT_DEFS =
  'INSERT INTO code_defs (id, file_id, name_id, kind, container, parent_id, signature, start_line, name_offset, end_offset, exported, bodiless, bases) ' +
  `SELECT ?1 + key, ?2, ${NAME_ID}, value->>1, value->>2, ?1 + (value->>3), value->>4, value->>5, (value->>6) - (value->>5), (value->>7) - (value->>5), value->>8, value->>9, value->>10 FROM jsonb_each(?3) WHERE type = 'array'`;
/** A constant table's macros (table-macros.ts): the file's text, and its names' hashes as keys. */
const INSERT_TABLE = 'INSERT INTO code_file_macros (file_id, first_def, n, data) VALUES (?, ?, ?, ?)';
const INSERT_TABLE_KEYS = (table: string) => `INSERT OR IGNORE INTO ${table} (h, file_id) SELECT value, ?2 FROM json_each(?1)`;
const INSERT_BLOCKS = 'INSERT INTO code_blocks (rowid, name, signature, doc, body) SELECT ?1 + (value->>0), value->>1, value->>2, value->>3, value->>4 FROM jsonb_each(?2)';
/** The enclosing definition by its place among the file's (def_off), the rest as `more` (store-rows.ts). */
const INSERT_REFS = (table: string) =>
  `INSERT INTO ${table} (file_id, name_id, line, kind, def_off, more, lines, also) SELECT ?1, ${NAME_ID}, value->>1, value->>2, value->>4, ${refMoreSql('value->>3', 'value->>5', 'value->>6', 'value->>7')}, value->>8, unhex(value->>9) FROM jsonb_each(?2)`;
/** A file's locals arrive grouped per name (line-groups.ts): one row each. */
const INSERT_LOCALS = (table: string) => `INSERT INTO ${table} (file_id, name_id, line, kind, def_off, lines, also) SELECT ?1, ${NAME_ID}, value->>1, value->>2, value->>3, value->>4, unhex(value->>5) FROM jsonb_each(?2)`;
/** A file's first definition id: after the largest, and never among those written before schema 12 (store-lines.ts). */
const FIRST_DEF_ID = `SELECT max(coalesce(max(id), 0) + 1, coalesce(${DEFS_12_SQL}, 1)) FROM code_defs`;
/** An import names its target by id (code_import_targets, schema 12), the path added the first time. */
const ADD_TARGET = 'INSERT OR IGNORE INTO code_import_targets (path) VALUES (?)';
const INSERT_IMPORT = `INSERT INTO code_imports (file_id, seq, line, source, target_id, names) VALUES (?1, ?2, ?3, ${importSourceSql('?4', '?5')}, (SELECT id FROM code_import_targets WHERE path = ?5), ?6)`;
/** Targets (JSON ids) that no import names any more. */
const DROP_UNUSED_TARGETS = 'DELETE FROM code_import_targets WHERE id IN (SELECT value FROM json_each(?1)) AND NOT EXISTS (SELECT 1 FROM code_imports i WHERE i.target_id = code_import_targets.id)';
/** As one JSON array (packIds sorts them): one value back to JavaScript, not a row object per name. */
const USED_NAME_IDS = 'SELECT json_group_array(id) FROM temp.code_file_names WHERE place IN (SELECT value FROM json_each(?1))';
const INSERT_FILE_ROWS = 'INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (?, ?, ?, ?)';
/** Every reference kind's number: a file's references are found by (name, kind, file), the table's key. */
const ALL_REFERENCE_KINDS = REFERENCE_KINDS.map((_, i) => i).join(', ');

/**
 * Staging (a build's bulk pass): code_refs and code_locals are clustered by name, so the rows of a
 * batch of files land on thousands of random pages of a table far bigger than the page cache, each
 * read, journalled and written again per commit (a Linux build wrote 36 GB for a 1.1 GB file). A
 * staged file's references and locals go to copies of those tables in this connection's temp
 * database (in memory, gone with the connection) and are merged in key order now and then: one pass
 * over the big tables for many batches. So do the keys of its constant table (code_macro_keys,
 * clustered by a name's hash, so just as random: drivers/gpu/drm/amd wrote 437 MB with them written
 * directly, 245 MB staged). Until its merge, the file's catalogue row says it is not
 * parsed (parsed_of 0), so every reader parses it on demand as any file the index has not taken,
 * and a process that stops before the merge leaves it to the next pass.
 */
const STAGED_TABLES = [
  `CREATE TEMP TABLE IF NOT EXISTS code_refs_staged (name_id INTEGER NOT NULL, kind INTEGER NOT NULL, file_id INTEGER NOT NULL, line INTEGER NOT NULL, def_off INTEGER, more, lines INTEGER, also BLOB, PRIMARY KEY (name_id, kind, file_id, line)) WITHOUT ROWID`,
  `CREATE TEMP TABLE IF NOT EXISTS code_locals_staged (name_id INTEGER NOT NULL, file_id INTEGER NOT NULL, line INTEGER NOT NULL, kind INTEGER NOT NULL, def_off INTEGER, lines INTEGER, also BLOB, PRIMARY KEY (name_id, file_id, line)) WITHOUT ROWID`,
  'CREATE TEMP TABLE IF NOT EXISTS code_macro_keys_staged (h INTEGER NOT NULL, file_id INTEGER NOT NULL, PRIMARY KEY (h, file_id)) WITHOUT ROWID',
  // The staged files and the catalogue version each parse read.
  'CREATE TEMP TABLE IF NOT EXISTS code_staged_files (file_id INTEGER PRIMARY KEY, version INTEGER NOT NULL)',
];
const REFS_COLUMNS = 'name_id, kind, file_id, line, def_off, more, lines, also';
const LOCALS_COLUMNS = 'name_id, file_id, line, kind, def_off, lines, also';
/** Staged files a merge may take: parsed_of still 0 (no other write took the file since) and the version the parse read. */
const DROP_STALE_STAGED = 'DELETE FROM temp.code_staged_files AS s WHERE NOT EXISTS (SELECT 1 FROM code_files f WHERE f.id = s.file_id AND f.version = s.version AND f.parsed_of = 0)';
const STAGED_FILE = 'file_id IN (SELECT file_id FROM temp.code_staged_files)';

/** Readies a connection for writing files' rows. Outside any transaction, so no rollback takes it away; a temp table lives as long as the connection. */
export function prepareFileWrites(db: Database): void {
  db.run(FILE_NAMES_TABLE);
  for (const sql of STAGED_TABLES) db.run(sql);
}

/** Staged references merged per transaction (with the locals of the same names): other processes wait for the write lock about that long. */
const MERGE_CHUNK_ROWS = 100_000;

/**
 * Where the staged rows are cut into merge transactions: name ids, ascending, each range [cut, next
 * cut) holding about MERGE_CHUNK_ROWS references; the first is 0. `keys`: the staged constant-table
 * keys' cuts instead (name hashes, the same way).
 */
export function stagedCuts(db: Database, keys = false): number[] {
  const [table, column] = keys ? ['code_macro_keys_staged', 'h'] : ['code_refs_staged', 'name_id'];
  const cuts = [0];
  for (;;) {
    const next = db.value(`SELECT ${column} FROM temp.${table} WHERE ${column} > ? ORDER BY ${column} LIMIT 1 OFFSET ${MERGE_CHUNK_ROWS}`, [cuts[cuts.length - 1]!]);
    if (typeof next !== 'number' && typeof next !== 'bigint') return cuts;
    cuts.push(Number(next));
  }
}

/**
 * Merges the staged references and locals of names from..to-1 (to: undefined for all that follow)
 * into code_refs and code_locals, in their key order. Only files still unparsed (parsed_of 0) at the
 * version staged are taken: a file written since by another path keeps what that write left (which
 * cleared whatever an earlier range had merged of it). The files stay unparsed until finishMerge.
 * Inside the caller's transaction.
 */
export function mergeStagedRange(db: Database, from: number, to: number | undefined): void {
  db.run(DROP_STALE_STAGED);
  const names = to === undefined ? 'name_id >= ?1' : 'name_id >= ?1 AND name_id < ?2';
  const bind = to === undefined ? [from] : [from, to];
  db.run(`INSERT INTO code_refs (${REFS_COLUMNS}) SELECT ${REFS_COLUMNS} FROM temp.code_refs_staged WHERE ${names} AND ${STAGED_FILE} ORDER BY name_id, kind, file_id, line`, bind);
  db.run(`INSERT OR IGNORE INTO code_locals (${LOCALS_COLUMNS}) SELECT ${LOCALS_COLUMNS} FROM temp.code_locals_staged WHERE ${names} AND ${STAGED_FILE} ORDER BY name_id, file_id, line`, bind);
}

/** mergeStagedRange for the staged constant-table keys of name hashes from..to-1 (stagedCuts(db, true)). */
export function mergeStagedKeys(db: Database, from: number, to: number | undefined): void {
  db.run(DROP_STALE_STAGED);
  const hashes = to === undefined ? 'h >= ?1' : 'h >= ?1 AND h < ?2';
  db.run(`INSERT OR IGNORE INTO code_macro_keys (h, file_id) SELECT h, file_id FROM temp.code_macro_keys_staged WHERE ${hashes} AND ${STAGED_FILE} ORDER BY h, file_id`, to === undefined ? [from] : [from, to]);
}

/** After every range is merged: marks the staged files parsed (the version each parse read) and forgets the staged rows. Inside the caller's transaction; the files marked. */
export function finishMerge(db: Database): number {
  db.run(DROP_STALE_STAGED);
  const files = db.run('UPDATE code_files SET parsed_of = (SELECT s.version FROM temp.code_staged_files s WHERE s.file_id = code_files.id) WHERE id IN (SELECT file_id FROM temp.code_staged_files)');
  clearStaged(db);
  return files;
}

/** Forgets every staged row (a merge took them, or the pass stopped). */
export function clearStaged(db: Database): void {
  db.run('DELETE FROM temp.code_refs_staged');
  db.run('DELETE FROM temp.code_locals_staged');
  db.run('DELETE FROM temp.code_macro_keys_staged');
  db.run('DELETE FROM temp.code_staged_files');
}

/** Drops one file's staged rows, if it has any (it is written again before its merge). */
function unstageFile(db: Database, fileId: number): void {
  if (!db.run('DELETE FROM temp.code_staged_files WHERE file_id = ?', [fileId])) return;
  db.run('DELETE FROM temp.code_refs_staged WHERE file_id = ?', [fileId]);
  db.run('DELETE FROM temp.code_locals_staged WHERE file_id = ?', [fileId]);
  db.run('DELETE FROM temp.code_macro_keys_staged WHERE file_id = ?', [fileId]);
}

/** Deletes one file's rows (not its catalogue entry); inside the caller's transaction. */
export function clearFileRows(db: Database, fileId: number): void {
  const rows = db.get<{ first_def: number; last_def: number; names: Uint8Array }>('SELECT first_def, last_def, names FROM code_file_rows WHERE file_id = ?', [fileId]);
  if (rows) {
    const names = JSON.stringify(unpackIds(rows.names));
    noteClearedNames(db, names, rows.first_def, rows.last_def);
    clearBlocks(db, rows.first_def, rows.last_def);
    db.run('DELETE FROM code_defs WHERE id BETWEEN ? AND ?', [rows.first_def, rows.last_def]);
    db.run(`DELETE FROM code_refs WHERE name_id IN (SELECT value FROM json_each(?1)) AND kind IN (${ALL_REFERENCE_KINDS}) AND file_id = ?2`, [names, fileId]);
    db.run('DELETE FROM code_locals WHERE name_id IN (SELECT value FROM json_each(?1)) AND file_id = ?2', [names, fileId]);
    db.run('DELETE FROM code_file_rows WHERE file_id = ?', [fileId]);
  }
  clearTable(db, fileId);
  const targets = db.value('SELECT json_group_array(DISTINCT target_id) FROM code_imports WHERE file_id = ? AND target_id IS NOT NULL', [fileId]);
  db.run('DELETE FROM code_imports WHERE file_id = ?', [fileId]);
  db.run(DROP_UNUSED_TARGETS, [targets]);
  unstageFile(db, fileId);
}

/**
 * Writes one file's rows (cleared before); `targets[i]` is where `parsed.imports[i]` resolves. With
 * `stagedVersion`, its references, locals and constant-table keys are staged for mergeStaged (the
 * caller marks the file unparsed meanwhile). Inside the caller's transaction.
 */
export function writeFileRows(db: Database, fileId: number, parsed: ParsedFile, targets: readonly (string | undefined)[], stagedVersion?: number): number {
  const { rows } = parsed;
  const first = Number(db.value(FIRST_DEF_ID) ?? 1);
  nameFile(db, rows.names);
  if (rows.definitions) {
    db.run(INSERT_DEFS, [first, fileId, rows.defs]);
    db.run(INSERT_BLOCKS, [first, rows.blocks]);
  }
  const staged = stagedVersion !== undefined;
  let added = db.run(INSERT_REFS(staged ? 'temp.code_refs_staged' : 'code_refs'), [fileId, rows.refs]);
  added += db.run(INSERT_LOCALS(staged ? 'temp.code_locals_staged' : 'code_locals'), [fileId, rows.locals]);
  if (staged) db.run('INSERT INTO temp.code_staged_files (file_id, version) VALUES (?, ?)', [fileId, stagedVersion]);
  if (rows.macros) {
    db.run(INSERT_TABLE, [fileId, first, rows.macroCount, rows.macros]);
    added += db.run(INSERT_TABLE_KEYS(staged ? 'temp.code_macro_keys_staged' : 'code_macro_keys'), [rows.macroKeys, fileId]);
  }
  const used = packIds(JSON.parse(String(db.value(USED_NAME_IDS, [rows.used]))) as number[]);
  db.run(INSERT_FILE_ROWS, [fileId, first, first + rows.definitions - 1, used]);
  parsed.imports.forEach((imp, i) => {
    const target = targets[i] ?? null;
    if (target !== null) db.run(ADD_TARGET, [target]);
    db.run(INSERT_IMPORT, [fileId, i, imp.line, imp.source.slice(0, 500), target, imp.names?.slice(0, 2000) ?? null]);
  });
  return staged ? added : 0;
}

/** Deletes a file's constant table and the keys of its names. */
function clearTable(db: Database, fileId: number): void {
  const data = db.value('SELECT data FROM code_file_macros WHERE file_id = ?', [fileId]);
  if (!(data instanceof Uint8Array)) return;
  const keys = [...new Set(unpackTableMacros(data).map((m) => nameHash(m.name)))];
  db.run('DELETE FROM code_macro_keys WHERE h IN (SELECT value FROM json_each(?1)) AND file_id = ?2', [JSON.stringify(keys), fileId]);
  db.run('DELETE FROM code_file_macros WHERE file_id = ?', [fileId]);
}

/** Fills the table of this file's names with their ids, adding the names code_names does not have yet. */
function nameFile(db: Database, names: string): void {
  db.run(CLEAR_FILE_NAMES);
  db.run(LIST_FILE_NAMES, [names]);
  db.run(FIND_FILE_NAMES('code_name_keys'));
  db.run(FIND_FILE_NAMES('code_name_keys_new'));
  const last = Number(db.value(LAST_NAME_ID));
  if (!db.run(ADD_NEW_NAMES)) return;
  db.run(NUMBER_NEW_NAMES, [last]);
  db.run(KEY_NEW_NAMES, [last]);
}
