// The catalogue as the text index's reader needs it, read from the code_files table in one pass, or
// from the snapshot a process before this one left (catalogue-snapshot.ts) when it holds the very
// state the database is in.
import type { Database } from '../storage/database.ts';
import type { CatalogueRows, CatalogueSnapshot, SnapshotKey } from './catalogue-snapshot.ts';
import { pathListJoined, pathListOf } from './path-list.ts';

/** code_meta key: the database's epoch, a random id made with it (see catalogue-snapshot.ts). */
export const TEXT_EPOCH = 'text_epoch';
/** A process writes the catalogue's snapshot at most this often. */
const SNAPSHOT_EVERY_MS = 30_000;

/** A file's size as CatalogueRows.sizes holds it. */
const SIZE = 'min(max(size, 0), 4294967295)';

/**
 * The catalogue in table order, with each file's document id (-1: none), whether the text index
 * has taken its current version, and its size. Read as four concatenated columns in one row, in one
 * pass over the table: materializing 80,000 row objects through the WASM binding costs a second,
 * this ~25 ms on the Linux tree (in path order, through the path index, it was ~100 ms: a row
 * lookup per path).
 */
function catalogueRows(db: Database): CatalogueRows {
  const row = db.get<{ p: string | null; d: string | null; t: string | null; s: string | null; nl: number | null }>(
    `SELECT group_concat(path, char(10)) AS p, group_concat(coalesce(text_doc, -1)) AS d, group_concat(text_of = version) AS t, group_concat(${SIZE}) AS s, sum(instr(path, char(10)) > 0) AS nl FROM code_files`,
  );
  const split = (list: string | null | undefined) => (list ? list.split(',') : []);
  if (Number(row?.nl ?? 0) === 0) {
    const docs = Int32Array.from(split(row?.d), Number);
    const paths = pathListJoined(row?.p ?? '', docs.length);
    if (paths) return { paths, docs, taken: Uint8Array.from(split(row?.t), Number), sizes: Uint32Array.from(split(row?.s), Number) };
  }
  // A path holding a newline: row by row.
  const rows = db.all<{ path: string; d: number; t: number; s: number }>(`SELECT path, coalesce(text_doc, -1) AS d, text_of = version AS t, ${SIZE} AS s FROM code_files`);
  return { paths: pathListOf(rows.map((r) => r.path)), docs: Int32Array.from(rows, (r) => r.d), taken: Uint8Array.from(rows, (r) => r.t), sizes: Uint32Array.from(rows, (r) => r.s) };
}

/** Which state of the catalogue the database holds now (inside the caller's read transaction); undefined without an epoch. */
function snapshotKey(db: Database, gen: number): SnapshotKey | undefined {
  const epoch = db.value(`SELECT value FROM code_meta WHERE key = '${TEXT_EPOCH}'`);
  if (typeof epoch !== 'string') return undefined;
  return { epoch, schema: Number(db.value('PRAGMA user_version') ?? 0), gen, maxId: Number(db.value('SELECT coalesce(max(id), 0) FROM code_files') ?? 0) };
}

export interface CatalogueReader {
  /**
   * The catalogue's rows at change counter `gen` (inside the caller's read transaction): from the
   * snapshot when `first` (this process has read none yet) and it matches; a table read is kept as
   * the next process's snapshot, written at a quiet moment.
   */
  rows(db: Database, gen: number, first: boolean): CatalogueRows;
}

export function createCatalogueReader(snapshot?: { file: CatalogueSnapshot; whenQuiet(): Promise<void> }): CatalogueReader {
  /** When this process last wrote (or read) the snapshot, and whether a write waits for a quiet moment. */
  let snapshotAt = 0;
  let snapshotDue = false;
  return {
    rows(db, gen, first) {
      const key = snapshot ? snapshotKey(db, gen) : undefined;
      const kept = first && key ? snapshot!.file.read(key) : undefined;
      if (kept) {
        snapshotAt = Date.now();
        return kept;
      }
      const rows = catalogueRows(db);
      if (snapshot && key && !snapshotDue && Date.now() - snapshotAt >= SNAPSHOT_EVERY_MS) {
        snapshotDue = true;
        void snapshot.whenQuiet().then(() => {
          snapshotDue = false;
          snapshotAt = Date.now();
          snapshot.file.write(key, rows);
        });
      }
      return rows;
    },
  };
}
