// Names no row uses any more (issue 21 item 8). code_names holds every name a definition, reference
// or local carries, once; clearing a file's rows leaves the names only it used. Those are noted as
// candidates (code_name_sweep) when the rows go, and swept in chunks after a pass: a candidate that
// no definition, reference or local names is deleted, its pages freed for the pass to give back.
import type { Database } from '../storage/database.ts';

/** Candidates checked per write transaction: other processes wait for the write lock about that long. */
export const SWEEP_CHUNK = 20_000;

/** Notes a file's names as candidates before its rows are cleared: those its references and locals use (JSON ids) and its definitions' (first..last). */
export function noteClearedNames(db: Database, usedIds: string, firstDef: number, lastDef: number): void {
  db.run('INSERT OR IGNORE INTO code_name_sweep (id) SELECT value FROM json_each(?1) UNION SELECT name_id FROM code_defs WHERE id BETWEEN ?2 AND ?3', [usedIds, firstDef, lastDef]);
}

const UNUSED = `NOT EXISTS (SELECT 1 FROM code_defs d WHERE d.name_id = code_names.id)
  AND NOT EXISTS (SELECT 1 FROM code_refs r WHERE r.name_id = code_names.id)
  AND NOT EXISTS (SELECT 1 FROM code_locals l WHERE l.name_id = code_names.id)`;

/**
 * Checks the next `chunk` candidates and deletes the names no row uses; inside the caller's
 * transaction, with no staged rows waiting (they may name them). Returns the candidates checked (0:
 * none left) and the names deleted.
 */
export function sweepNames(db: Database, chunk = SWEEP_CHUNK): { checked: number; deleted: number } {
  const last = db.value('SELECT id FROM code_name_sweep ORDER BY id LIMIT 1 OFFSET ?', [chunk - 1]);
  const upTo = typeof last === 'number' || typeof last === 'bigint' ? Number(last) : Number.MAX_SAFE_INTEGER;
  const deleted = db.run(`DELETE FROM code_names WHERE id IN (SELECT id FROM code_name_sweep WHERE id <= ?1) AND ${UNUSED}`, [upTo]);
  const checked = db.run('DELETE FROM code_name_sweep WHERE id <= ?1', [upTo]);
  return { checked, deleted };
}
