// The code index's rows: one file's definitions, references and imports are replaced together in one
// transaction, so a reader never sees half a file. Reads answer the questions the gate tools ask.
import type { BindingSpec } from '@sqlite.org/sqlite-wasm';
import type { Database } from '../storage/database.ts';
import { DEFINITION_KINDS, LOCAL_KINDS, REFERENCE_KINDS } from './extracted.ts';
import type { ParsedFile } from './file-rows.ts';
import { expandLines, lineCountSql } from './line-groups.ts';
import { signatureSql, unpackIds } from './row-formats.ts';
import { withMatchingBlocks } from './store-blocks.ts';
import { foldNameKeys, ID_OF_NAME, nameBinds } from './store-names.ts';
import { calledTableMacros, tableMacroCount, tableMacrosById, tableMacrosIn, tableMacrosNamed } from './store-macros.ts';
import { CONTAINER_SQL, definitionsById, PACKED_SIGNATURE_SQL, PARENT_JOIN, REFERENCE_GROUP_COLUMNS, type ReferenceGroup, referenceLines } from './store-lines.ts';
import { IMPORT_SOURCE_SQL, REF_MORE_COLUMNS, REF_N_SQL, type DefinitionRow, type FileMeta, type FileRow, type ImportRow, type LocalRow, type ReferenceRow } from './store-rows.ts';
import { clearFileRows, clearStaged, finishMerge, mergeStagedKeys, mergeStagedRange, prepareFileWrites, stagedCuts, writeFileRows } from './store-write.ts';

export type { DefinitionRow, FileMeta, FileRow, ImportRow, LocalRow, ReferenceRow } from './store-rows.ts';

const FILE_COLUMN_LIST = ['id', 'path', 'size', 'mtime_ms', 'ctime_ms', 'ino', 'taken_at', 'hash', 'language', 'lines', 'parser', 'version', 'text_of', 'text_doc', 'parsed_of'] as const;
const FILE_COLUMNS = FILE_COLUMN_LIST.join(', ');

/** A definition's columns as DefinitionRow has them: its name put back into its signature, its lines from their offsets. */
const DEF_COLUMNS = `d.id, f.path, n.name, d.kind, ${CONTAINER_SQL} AS container, d.parent_id, ${signatureSql(`(${PACKED_SIGNATURE_SQL})`, 'n.name')} AS signature, d.start_line, d.start_line + d.name_offset AS name_line, d.start_line + d.end_offset AS end_line, d.exported, d.bodiless, d.bases`;
const DEF_FROM = `code_defs d JOIN code_files f ON f.id = d.file_id JOIN code_names n ON n.id = d.name_id ${PARENT_JOIN}`;
/** A file's definitions, found by the range of their ids (code_file_rows), for `WHERE f.path = ?`. */
const FILE_DEFS_FROM = `code_files f JOIN code_file_rows fr ON fr.file_id = f.id JOIN code_defs d ON d.id BETWEEN fr.first_def AND fr.last_def JOIN code_names n ON n.id = d.name_id ${PARENT_JOIN}`;
/** A file's imports (f) with their targets' paths (schema 12). */
const IMPORTS_FROM = 'code_imports i ON i.file_id = f.id LEFT JOIN code_import_targets t ON t.id = i.target_id';
const IMPORT_COLUMNS = `f.path, i.line, ${IMPORT_SOURCE_SQL} AS source, t.path AS target, i.names`;
/** The most locals of one name an answer lists. */
const LOCALS_LIMIT = 2000;
/** The most references of one name an answer lists. */
const REFERENCES_LIMIT = 20000;

/** A kind's name from its stored number (extracted.ts lists them). */
function kindName(kinds: readonly string[], n: unknown): string {
  return kinds[Number(n)] ?? `kind ${String(n)}`;
}

function kindNumber(kinds: readonly string[], kind: string): number {
  return kinds.indexOf(kind);
}

function definitionRows<T extends DefinitionRow>(rows: T[]): T[] {
  for (const r of rows) r.kind = kindName(DEFINITION_KINDS, r.kind);
  return rows;
}

function referenceRows(rows: ReferenceRow[]): ReferenceRow[] {
  for (const r of rows) r.kind = kindName(REFERENCE_KINDS, r.kind);
  return rows;
}

export class CodeStore {
  readonly db: Database;

  constructor(db: Database) {
    this.db = db;
    prepareFileWrites(db);
  }

  private rows<T>(sql: string, bind?: BindingSpec): T[] {
    return this.db.all(sql, bind) as unknown as T[];
  }

  private row<T>(sql: string, bind?: BindingSpec): T | undefined {
    return this.db.get(sql, bind) as unknown as T | undefined;
  }

  /** Every catalogued file (read in bulk: the Linux tree's 77k rows). */
  files(): FileRow[] {
    return this.db.bulk(FILE_COLUMN_LIST, 'code_files') as unknown as FileRow[];
  }

  /** Every catalogued path. */
  paths(): string[] {
    return JSON.parse(String(this.db.value('SELECT json_group_array(path) FROM code_files') ?? '[]')) as string[];
  }

  file(path: string): FileRow | undefined {
    return this.row<FileRow>(`SELECT ${FILE_COLUMNS} FROM code_files WHERE path = ?`, [path]);
  }

  /** The first catalogued path not below `key` in the catalogue's order (bytes), if any: a seek on the path index. */
  firstPathFrom(key: string): string | undefined {
    const v = this.db.value('SELECT path FROM code_files WHERE path >= ? ORDER BY path LIMIT 1', [key]);
    return typeof v === 'string' ? v : undefined;
  }

  /** The catalogued path that follows `path` in the catalogue's order, if any. */
  pathAfter(path: string): string | undefined {
    const v = this.db.value('SELECT path FROM code_files WHERE path > ? ORDER BY path LIMIT 1', [path]);
    return typeof v === 'string' ? v : undefined;
  }

  /** The catalogued files under a folder ('' for all), read in bulk. */
  filesUnder(folder: string): FileRow[] {
    if (folder === '') return this.files();
    // '0' is the character after '/': every path under the folder sorts between the two.
    return this.db.bulk(FILE_COLUMN_LIST, '(SELECT * FROM code_files WHERE path > ? AND path < ?)', [`${folder}/`, `${folder}0`]) as unknown as FileRow[];
  }

  /** What the catalogue's diff and the warm start's sweep compare with the disk (`hash`: whether the file was hashed). */
  catalogueRows(): Pick<FileRow, 'id' | 'path' | 'size' | 'mtime_ms' | 'ctime_ms' | 'ino' | 'taken_at' | 'hash' | 'text_of'>[] {
    // `hash` is only asked whether it is empty (mayDiffer): its first character, not 64 per file.
    return this.db.bulk(['id', 'path', 'size', 'mtime_ms', 'ctime_ms', 'ino', 'taken_at', 'hash', 'text_of'], '(SELECT id, path, size, mtime_ms, ctime_ms, ino, taken_at, substr(hash, 1, 1) AS hash, text_of FROM code_files)') as unknown as ReturnType<CodeStore['catalogueRows']>;
  }

  /** Files the text stage has not taken in their current version. */
  untakenByText(): FileRow[] {
    return this.rows<FileRow>(`SELECT ${FILE_COLUMNS} FROM code_files WHERE text_of != version`);
  }

  /** Adds files to the catalogue, not yet taken by any stage. */
  addFiles(entries: readonly { path: string; size: number; mtimeMs: number; ctimeMs: number; ino: number }[]): void {
    this.db.transaction(() => {
      for (const e of entries) this.db.run("INSERT INTO code_files (path, size, mtime_ms, ctime_ms, ino, hash, version, text_of, parsed_of) VALUES (?, ?, ?, ?, ?, '', 1, 0, 0) ON CONFLICT(path) DO NOTHING", [e.path, e.size, e.mtimeMs, e.ctimeMs, e.ino]);
    });
  }

  /** Marks files whose stat no longer proves them unchanged: the text stage reads them before anything trusts them again. */
  markChanged(ids: readonly number[]): void {
    this.db.transaction(() => {
      for (const id of ids) this.db.run('UPDATE code_files SET text_of = 0 WHERE id = ?', [id]);
    });
  }

  /**
   * Rows whose content was read again and found the version taken: when that read began (no version
   * moves). A row another writer changed meanwhile (its hash or stat) is left as it is.
   */
  confirmTaken(rows: readonly (Pick<FileRow, 'id' | 'hash' | 'size' | 'mtime_ms' | 'ctime_ms' | 'ino'> & { takenAt: number })[]): void {
    this.db.transaction(() => {
      for (const r of rows) {
        this.db.run('UPDATE code_files SET taken_at = max(taken_at, ?) WHERE id = ? AND hash = ? AND size = ? AND mtime_ms = ? AND ctime_ms = ? AND ino = ? AND text_of = version', [r.takenAt, r.id, r.hash, r.size, r.mtime_ms, r.ctime_ms, r.ino]);
      }
    });
  }

  remove(path: string): void {
    const row = this.file(path);
    if (!row) return;
    this.db.transaction(() => {
      clearFileRows(this.db, row.id);
      this.db.run('DELETE FROM code_files WHERE id = ?', [row.id]);
    });
  }

  /**
   * Replaces everything known about one file. `targets[i]` is where `parsed.imports[i]` resolves.
   * `stage` (a build's bulk pass): its references and locals wait in this connection for
   * mergeStaged, the file unparsed until then (store-write.ts); returns the rows staged.
   */
  replace(meta: FileMeta, parsed: ParsedFile | undefined, targets: (string | undefined)[], stage = false): number {
    return this.db.transaction(() => {
      const existing = this.file(meta.path);
      const staged = stage && parsed !== undefined;
      let fileId: number;
      let version: number;
      if (existing) {
        fileId = existing.id;
        version = meta.version ?? existing.version;
        clearFileRows(this.db, fileId);
        // Size, mtime and hash belong to the catalogue (the text stage); the parse records what it took.
        this.db.run('UPDATE code_files SET language = ?, lines = ?, parser = ?, parsed_of = ? WHERE id = ?', [meta.language ?? null, meta.lines, meta.parser, staged ? 0 : version, fileId]);
      } else {
        version = 1;
        this.db.run('INSERT INTO code_files (path, size, mtime_ms, hash, language, lines, parser, version, parsed_of) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)', [meta.path, meta.size, meta.mtimeMs, meta.hash, meta.language ?? null, meta.lines, meta.parser, staged ? 0 : 1]);
        fileId = this.db.lastInsertRowid();
      }
      return parsed ? writeFileRows(this.db, fileId, parsed, targets, staged ? version : undefined) : 0;
    });
  }

  /** Folds the keys of the names added since the last fold once enough wait (store-names.ts); inside the caller's transaction. The keys folded. */
  foldNames(): number {
    return foldNameKeys(this.db);
  }

  /**
   * Merges the rows `replace` staged into the big tables (references and locals, then constant-table
   * keys), a range of names per write transaction
   * (other processes' reads wait for one range, not for all), then marks their files parsed in one
   * more; the files merged. `renew` runs in each transaction (a lease to keep); `pause` between them
   * (the caller's event loop: a build's parse worker is fed from its queue meanwhile, not left idle for
   * the whole merge).
   */
  async mergeStaged(renew?: () => void, pause?: () => Promise<void>): Promise<number> {
    for (const keys of [false, true]) {
      const cuts = this.db.readTransaction(() => stagedCuts(this.db, keys));
      for (let i = 0; i < cuts.length; i++) {
        await this.db.writeTransaction(() => {
          renew?.();
          (keys ? mergeStagedKeys : mergeStagedRange)(this.db, cuts[i]!, cuts[i + 1]);
        });
        await pause?.();
      }
    }
    return this.db.writeTransaction(() => {
      renew?.();
      return finishMerge(this.db);
    });
  }

  /** Forgets the rows staged and not merged (a pass that stops): their files stay unparsed for the next pass. */
  dropStaged(): void {
    clearStaged(this.db);
  }

  /** By id, as the index by name gives them; a constant table's macros (table-macros.ts) among them. */
  definitionsNamed(name: string): DefinitionRow[] {
    const rows = definitionRows(this.rows<DefinitionRow>(`SELECT ${DEF_COLUMNS} FROM ${DEF_FROM} WHERE d.name_id = ${ID_OF_NAME} LIMIT 2000`, nameBinds(name)));
    const macros = tableMacrosNamed(this.db, name);
    return macros.length ? [...rows, ...macros].sort((a, b) => a.id - b.id).slice(0, 2000) : rows;
  }

  /** Rows whose enclosing definition (def_id) is a table macro get its name and lines from the table. */
  private enclosingMacros<T extends { path: string; def_id: number | null; def_name: string | null }>(rows: T[], fill: (r: T, d: DefinitionRow) => void): T[] {
    const ids = new Map<number, string>();
    for (const r of rows) if (r.def_id !== null && r.def_name === null) ids.set(r.def_id, r.path);
    if (!ids.size) return rows;
    const found = tableMacrosById(this.db, ids);
    for (const r of rows) {
      const d = r.def_id !== null && r.def_name === null ? found.get(r.def_id) : undefined;
      if (d) fill(r, d);
    }
    return rows;
  }

  /** Declarations of `name` that are no definition of their own, with the definition each sits in. */
  localsNamed(name: string): LocalRow[] {
    const groups = this.rows<{ path: string; line: number; kind: number; def_off: number | null; also: Uint8Array | null; first_def: number | null }>(
      `SELECT f.path, l.line, l.kind, l.def_off, l.also, fr.first_def FROM code_locals l JOIN code_files f ON f.id = l.file_id LEFT JOIN code_file_rows fr ON fr.file_id = l.file_id
        WHERE l.name_id = ${ID_OF_NAME} LIMIT ${LOCALS_LIMIT}`,
      nameBinds(name),
    );
    const rows: LocalRow[] = [];
    for (const g of groups) {
      for (const o of expandLines(g.line, g.kind, g.def_off, g.also)) {
        if (rows.length === LOCALS_LIMIT) break;
        const defId = o.defOff === null || g.first_def === null ? null : g.first_def + o.defOff;
        rows.push({ path: g.path, name, line: o.line, kind: kindName(LOCAL_KINDS, o.kind), def_id: defId, def_name: null, def_kind: null, def_start: null, def_end: null });
      }
    }
    const defs = definitionsById(this.db, rows.map((r) => r.def_id));
    for (const r of rows) {
      const d = r.def_id === null ? undefined : defs.get(r.def_id);
      if (d) Object.assign(r, { def_name: d.name, def_kind: kindName(DEFINITION_KINDS, d.kind), def_start: d.start, def_end: d.end });
    }
    return this.enclosingMacros(rows, (r, d) => Object.assign(r, { def_name: d.name, def_kind: d.kind, def_start: d.start_line, def_end: d.end_line }));
  }

  definition(id: number): DefinitionRow | undefined {
    return definitionRows(this.rows<DefinitionRow>(`SELECT ${DEF_COLUMNS} FROM ${DEF_FROM} WHERE d.id = ?`, [id]))[0] ?? tableMacrosById(this.db, new Map([[id, undefined]])).get(id);
  }

  /** Definitions of a file in order; `topLevel` keeps those not nested in another. */
  definitionsIn(path: string, topLevel = false): DefinitionRow[] {
    const rows = definitionRows(
      this.rows<DefinitionRow>(`SELECT ${DEF_COLUMNS} FROM ${FILE_DEFS_FROM} WHERE f.path = ?${topLevel ? ' AND d.parent_id IS NULL' : ''} ORDER BY d.start_line, d.end_offset DESC`, [path]),
    );
    const macros = tableMacrosIn(this.db, path);
    // Table macros are top-level: merged in the same order (line, then the longer first).
    return macros.length ? [...rows, ...macros].sort((a, b) => a.start_line - b.start_line || b.end_line - b.start_line - (a.end_line - a.start_line)) : rows;
  }

  /** Definitions whose range holds `line`, innermost first. */
  definitionsAt(path: string, line: number): DefinitionRow[] {
    const rows = definitionRows(
      this.rows<DefinitionRow>(`SELECT ${DEF_COLUMNS} FROM ${FILE_DEFS_FROM} WHERE f.path = ? AND d.start_line <= ? AND d.start_line + d.end_offset >= ? ORDER BY d.end_offset, d.start_line DESC`, [path, line, line]),
    );
    const macros = tableMacrosIn(this.db, path).filter((m) => m.start_line <= line && m.end_line >= line);
    return macros.length ? [...rows, ...macros].sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line) || b.start_line - a.start_line) : rows;
  }

  referencesNamed(name: string, kinds: readonly string[]): ReferenceRow[] {
    const numbers = kinds.map((k) => kindNumber(REFERENCE_KINDS, k));
    const marks = numbers.map(() => '?').join(', ');
    const groups = this.rows<ReferenceGroup>(
      `SELECT f.path, ? AS name, ${REF_MORE_COLUMNS}, ${REFERENCE_GROUP_COLUMNS}
         FROM code_refs r JOIN code_files f ON f.id = r.file_id LEFT JOIN code_file_rows fr ON fr.file_id = r.file_id
        WHERE r.name_id = ${ID_OF_NAME} AND r.kind IN (${marks}) LIMIT ${REFERENCES_LIMIT}`,
      [name, ...nameBinds(name), ...numbers],
    );
    const rows = referenceRows(referenceLines(groups, REFERENCES_LIMIT));
    const defs = definitionsById(this.db, rows.map((r) => r.def_id));
    for (const r of rows) {
      const d = r.def_id === null ? undefined : defs.get(r.def_id);
      if (d) Object.assign(r, { def_name: d.name, def_container: d.container, def_line: d.name_line });
    }
    return this.enclosingMacros(rows, (r, d) => Object.assign(r, { def_name: d.name, def_container: null, def_line: d.name_line }));
  }

  /** References of `kind` inside a file's lines [start, end]. */
  referencesWithin(path: string, start: number, end: number, kind: string): ReferenceRow[] {
    const file = this.db.get<{ id: number; names: Uint8Array; first_def: number }>('SELECT f.id, fr.names, fr.first_def FROM code_files f JOIN code_file_rows fr ON fr.file_id = f.id WHERE f.path = ?', [path]);
    if (!file) return [];
    // A group starting before `start` may have lines inside: every group starting up to `end`, its lines then kept.
    const groups = this.rows<ReferenceGroup>(
      `SELECT ?1 AS path, n.name, ${REF_MORE_COLUMNS}, ${REFERENCE_GROUP_COLUMNS}
         FROM json_each(?4) used
           JOIN code_refs r ON r.name_id = used.value AND r.kind = ?3 AND r.file_id = ?5 AND r.line <= ?2 JOIN code_names n ON n.id = r.name_id JOIN code_file_rows fr ON fr.file_id = r.file_id`,
      [path, end, kindNumber(REFERENCE_KINDS, kind), JSON.stringify(unpackIds(file.names)), file.id],
    );
    const rows = referenceLines(groups, Number.MAX_SAFE_INTEGER, (line) => line >= start && line <= end).sort((a, b) => a.line - b.line);
    return referenceRows(rows);
  }

  /**
   * The most-called names (up to `limit`), with their call rows; `definedIn` keeps names defined in one
   * file (`isFile`) or under a folder (path ending in `/`).
   */
  mostCalled(limit: number, definedIn?: { path: string; isFile: boolean }): { name: string; n: number }[] {
    const call = kindNumber(REFERENCE_KINDS, 'call');
    const there = definedIn ? ` AND name_id IN (SELECT d.name_id FROM ${FILE_DEFS_FROM} WHERE ${definedIn.isFile ? 'f.path = ?' : 'substr(f.path, 1, ?) = ?'})` : '';
    const params = !definedIn ? [] : definedIn.isFile ? [definedIn.path] : [definedIn.path.length, definedIn.path];
    const rows = this.rows<{ name: string; n: number }>(
      `SELECT n.name AS name, c.n AS n FROM (SELECT name_id, sum(${lineCountSql('code_refs')}) AS n FROM code_refs WHERE kind = ?${there} GROUP BY name_id ORDER BY n DESC LIMIT ?) c JOIN code_names n ON n.id = c.name_id ORDER BY c.n DESC`,
      [call, ...params, limit],
    );
    // Called names that a constant table there defines (table-macros.ts), merged by their counts.
    const macros = definedIn ? calledTableMacros(this.db, definedIn, call).filter((m) => !rows.some((r) => r.name === m.name)) : [];
    return macros.length ? [...rows, ...macros].sort((a, b) => b.n - a.n).slice(0, limit) : rows;
  }

  /** The call rows of `name` per calling file, qualifier and receiver. */
  callSitesOf(name: string): { path: string; qualifier: string | null; via: string | null; n: number; calls: string | null; lines: number }[] {
    return this.rows<{ path: string; qualifier: string | null; via: string | null; n: number; calls: string | null; lines: number }>(
      `SELECT f.path AS path, r.more->>0 AS qualifier, r.more->>1 AS via, sum(CASE WHEN r.lines IS NULL THEN ${REF_N_SQL} ELSE r.lines END) AS n, r.more->>3 AS calls, sum(${lineCountSql('r')}) AS lines FROM code_refs r JOIN code_files f ON f.id = r.file_id
        WHERE r.name_id = ${ID_OF_NAME} AND r.kind = ? GROUP BY f.path, r.more->>0, r.more->>1, r.more->>3`,
      [...nameBinds(name), kindNumber(REFERENCE_KINDS, 'call')],
    );
  }

  importsOf(path: string): ImportRow[] {
    return this.rows<ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM code_files f JOIN ${IMPORTS_FROM} WHERE f.path = ? ORDER BY i.line, i.seq`, [path]);
  }

  /** Imports that resolve to `path` (or, for Go, to its folder). */
  importersOf(path: string): ImportRow[] {
    const dir = path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/` : './';
    return this.rows<ImportRow>(
      `SELECT ${IMPORT_COLUMNS} FROM code_files f JOIN ${IMPORTS_FROM} WHERE i.target_id IN (SELECT id FROM code_import_targets WHERE path IN (?, ?)) ORDER BY f.path, i.line, i.seq`,
      [path, dir],
    );
  }

  /** Every resolved import edge (file → target). */
  importEdges(): { path: string; target: string }[] {
    return this.rows<{ path: string; target: string }>('SELECT f.path, t.path AS target FROM code_imports i JOIN code_files f ON f.id = i.file_id JOIN code_import_targets t ON t.id = i.target_id');
  }

  /** Definition blocks matching an FTS5 query, best first (BM25, name weighs most). */
  searchBlocks(match: string, limit: number): (DefinitionRow & { rank: number })[] {
    return withMatchingBlocks(this.db, (matching) =>
      definitionRows(
        this.rows<DefinitionRow & { rank: number }>(
          `SELECT ${DEF_COLUMNS}, b.rank AS rank FROM (${matching} ORDER BY rank LIMIT ?2) b
             JOIN code_defs d ON d.id = b.rowid JOIN code_files f ON f.id = d.file_id JOIN code_names n ON n.id = d.name_id ${PARENT_JOIN} ORDER BY b.rank`,
          [match, limit],
        ),
      ),
    );
  }

  /** Blocks matching an FTS5 query, per file. */
  blocksPerFile(match: string): Map<string, number> {
    const rows = withMatchingBlocks(this.db, (matching) =>
      this.rows<{ path: string; n: number }>(`SELECT f.path, count(*) AS n FROM (${matching}) b JOIN code_defs d ON d.id = b.rowid JOIN code_files f ON f.id = d.file_id GROUP BY f.path`, [match]),
    );
    return new Map(rows.map((r) => [r.path, Number(r.n)]));
  }

  meta(key: string): string | undefined {
    const v = this.db.value('SELECT value FROM code_meta WHERE key = ?', [key]);
    return v === undefined || v === null ? undefined : String(v);
  }

  setMeta(key: string, value: string): void {
    this.db.run('INSERT INTO code_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  counts(): { files: number; parsed: number; definitions: number; references: number; imports: number; locals: number; names: number } {
    const n = (sql: string) => Number(this.db.value(sql) ?? 0);
    return {
      files: n('SELECT count(*) FROM code_files'),
      parsed: n('SELECT count(*) FROM code_files WHERE language IS NOT NULL'),
      definitions: n('SELECT count(*) FROM code_defs') + tableMacroCount(this.db),
      references: n(`SELECT coalesce(sum(${lineCountSql('r')}), 0) FROM code_refs r`),
      imports: n('SELECT count(*) FROM code_imports'),
      locals: n(`SELECT coalesce(sum(${lineCountSql('l')}), 0) FROM code_locals l`),
      names: n('SELECT count(*) FROM code_names'),
    };
  }
}
