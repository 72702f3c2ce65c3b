// Names no row uses any more (issue 21 item 8). code_names holds every name a definition, reference
// or local carries, once; clearing a file's rows leaves the names only it used. Those are noted as
// candidates (code_name_sweep) when the rows go, and swept in chunks after a pass: a candidate that
// no definition, reference or local names is deleted, its pages freed for the pass to give back.
import type { Database } from '../storage/database.ts';
import { nameHash } from './row-formats.ts';

/**
 * Finding a name (schema 13). A name is found by its hash (row-formats.ts), and the hashes are keys of
 * their own, not an index on code_names: a name's key is random in any order, so an index on the
 * table took new keys all over it — each batch of a build rewrote most of its pages, with their
 * journal copies (230 of the 390 MB a `drivers/net` build wrote in its batches; the Linux tree's ~20
 * GB). New keys go to code_name_keys_new, small, and are folded into code_name_keys in key order once
 * there are FOLD_KEYS of them: one pass over the big table per fold, not one per batch. Both are real
 * tables: every process finds every committed name, and a new name is added once (looked up in both).
 */
export const FOLD_KEYS = 50_000;

/** A name's id: bound as nameBinds(name). */
export const ID_OF_NAME =
  'coalesce((SELECT n.id FROM code_name_keys k JOIN code_names n ON n.id = k.id WHERE k.h = ? AND n.name = ?), (SELECT n.id FROM code_name_keys_new k JOIN code_names n ON n.id = k.id WHERE k.h = ? AND n.name = ?))';

/** ID_OF_NAME's parameters. */
export function nameBinds(name: string): [number, string, number, string] {
  const h = nameHash(name);
  return [h, name, h, name];
}

/** Folds the new names' keys into code_name_keys once there are `atLeast` (inside the caller's transaction); the keys folded. */
export function foldNameKeys(db: Database, atLeast = FOLD_KEYS): number {
  const waiting = Number(db.value('SELECT count(*) FROM code_name_keys_new'));
  if (waiting === 0 || waiting < atLeast) return 0;
  db.run('INSERT INTO code_name_keys (h, id) SELECT h, id FROM code_name_keys_new ORDER BY h, id');
  db.run('DELETE FROM code_name_keys_new');
  return waiting;
}

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
  // The unused names with their keys, as one JSON value: judged once, deleted from the three tables.
  const unused = String(db.value(`SELECT json_group_array(json_array(h, id)) FROM code_names WHERE id IN (SELECT id FROM code_name_sweep WHERE id <= ?1) AND ${UNUSED}`, [upTo]));
  for (const keys of ['code_name_keys', 'code_name_keys_new']) db.run(`DELETE FROM ${keys} WHERE (h, id) IN (SELECT value->>0, value->>1 FROM json_each(?1))`, [unused]);
  const deleted = db.run('DELETE FROM code_names WHERE id IN (SELECT value->>1 FROM json_each(?1))', [unused]);
  const checked = db.run('DELETE FROM code_name_sweep WHERE id <= ?1', [upTo]);
  return { checked, deleted };
}
