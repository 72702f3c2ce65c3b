// The definition blocks' full-text tables (schema.ts, migrations 1 and 11). Since schema 11 the body
// words are code_blocks' first column; an index upgraded from schema 10 keeps its old table, renamed,
// beside the new one until every file has been parsed again: both answer meanwhile, each row from the
// table that holds it, ranked by its own table's BM25 with the same weights per column.
import type { Database } from '../storage/database.ts';

/** Schema 10's blocks (name, signature, doc, body), renamed by migration 11. */
const OLD_BLOCKS = 'code_blocks_v10';

/** BM25 weights per column, in each table's column order: a name weighs most, then the signature, the doc comment, the body. */
const RANK = 'bm25(code_blocks, 1.0, 8.0, 4.0, 2.0)';
const OLD_RANK = `bm25(${OLD_BLOCKS}, 8.0, 4.0, 2.0, 1.0)`;

/** Whether schema 10's blocks are still there (a question per call: another process may have dropped them). */
export function hasOldBlocks(db: Database): boolean {
  return db.value('SELECT 1 FROM sqlite_schema WHERE name = ?', [OLD_BLOCKS]) !== undefined;
}

/**
 * Runs `query` on the rowid and BM25 rank (negative, lower is better) of every block matching an
 * FTS5 query (bound once per table, `?1`): from the new table and, while it exists, the old one. The
 * pass of another process may drop the old table between the check and the query: then once more
 * without it.
 */
export function withMatchingBlocks<T>(db: Database, query: (matching: string) => T): T {
  const current = `SELECT rowid, ${RANK} AS rank FROM code_blocks WHERE code_blocks MATCH ?1`;
  if (!hasOldBlocks(db)) return query(current);
  try {
    return query(`${current} UNION ALL SELECT rowid, ${OLD_RANK} AS rank FROM ${OLD_BLOCKS} WHERE ${OLD_BLOCKS} MATCH ?1`);
  } catch (error) {
    if (hasOldBlocks(db)) throw error;
    return query(current);
  }
}

/** Deletes the blocks of the definitions first..last (one file's), from either table; inside the caller's transaction. */
export function clearBlocks(db: Database, first: number, last: number): void {
  db.run('DELETE FROM code_blocks WHERE rowid IN (SELECT id FROM code_defs WHERE id BETWEEN ? AND ?)', [first, last]);
  if (hasOldBlocks(db)) db.run(`DELETE FROM ${OLD_BLOCKS} WHERE rowid IN (SELECT id FROM code_defs WHERE id BETWEEN ? AND ?)`, [first, last]);
}

/** Drops schema 10's blocks once every file has been parsed again (a complete pass); true if it did. Inside the caller's transaction. */
export function dropOldBlocks(db: Database): boolean {
  if (!hasOldBlocks(db)) return false;
  db.exec(`DROP TABLE ${OLD_BLOCKS}`);
  return true;
}

/** Empties every block table (the index starts again from nothing). */
export const CLEAR_BLOCKS_SQL = `INSERT INTO code_blocks(code_blocks) VALUES ('delete-all'); DROP TABLE IF EXISTS ${OLD_BLOCKS};`;
