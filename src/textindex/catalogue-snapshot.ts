// The catalogue as the text index's reader needs it (every path, its document id, whether its
// current version is taken), kept in a file beside the database. A new process reads it instead of
// the code_files table: on the Linux tree that first read of 77k rows cost a new server's main
// thread 0.14–0.27 s (most of it SQLite's WASM code compiled as it first runs), the file ~10 ms.
// The file says which state of the catalogue it holds: the database's epoch (a random id made with
// it, made anew when the index starts again from nothing), its schema version, the change counter
// every writer bumps (text_state.gen) and the highest file id. It is used only when all four match
// what the database says now, in the same read transaction; otherwise the table is read and the file
// written again (atomically) for the next process.
import type { RuntimeFs } from '../runtime/types.ts';

/** The catalogue in table order: paths, document ids (-1: none), taken flags, sizes. */
export interface CatalogueRows {
  paths: string[];
  docs: Int32Array;
  taken: Uint8Array;
  /** Each file's size when catalogued, in bytes (at most 2³² − 1: larger files are never searched). */
  sizes: Uint32Array;
}

/** Which state of which database a snapshot holds. */
export interface SnapshotKey {
  epoch: string;
  schema: number;
  gen: number;
  maxId: number;
}

export interface CatalogueSnapshot {
  /** The rows when the file holds exactly the state `key` names; undefined otherwise (or unreadable). */
  read(key: SnapshotKey): CatalogueRows | undefined;
  /** Writes the rows of state `key`; failures are ignored (the table stays the truth). */
  write(key: SnapshotKey, rows: CatalogueRows): void;
}

const MAGIC = 'ctxgate-catalogue 2\n';
/** Larger files are not read (a catalogue of millions of files reads its table). */
const MAX_BYTES = 256 * 1024 * 1024;

function sameKey(a: SnapshotKey, b: Partial<SnapshotKey>): boolean {
  return a.epoch === b.epoch && a.schema === b.schema && a.gen === b.gen && a.maxId === b.maxId;
}

export function encodeSnapshot(key: SnapshotKey, rows: CatalogueRows): Uint8Array | undefined {
  // Paths are joined by newlines: a path holding one is not kept in a snapshot.
  if (rows.paths.some((p) => p.includes('\n'))) return undefined;
  const paths = new TextEncoder().encode(rows.paths.join('\n'));
  const n = rows.paths.length;
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify({ ...key, n, pathBytes: paths.length })}\n`);
  const out = new Uint8Array(head.length + n * 9 + paths.length);
  out.set(head, 0);
  const view = new DataView(out.buffer, head.length, n * 8);
  for (let i = 0; i < n; i++) {
    view.setInt32(i * 8, rows.docs[i]!, true);
    view.setUint32(i * 8 + 4, rows.sizes[i]!, true);
  }
  out.set(rows.taken.subarray(0, n), head.length + n * 8);
  out.set(paths, head.length + n * 9);
  return out;
}

export function decodeSnapshot(bytes: Uint8Array, key: SnapshotKey): CatalogueRows | undefined {
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) return undefined;
  const eol = bytes.indexOf(10, magic.length);
  if (eol < 0) return undefined;
  let header: Partial<SnapshotKey> & { n?: unknown; pathBytes?: unknown };
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(magic.length, eol)));
  } catch {
    return undefined;
  }
  const { n, pathBytes } = header;
  if (!sameKey(key, header) || typeof n !== 'number' || typeof pathBytes !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
  const start = eol + 1;
  if (bytes.length !== start + n * 9 + pathBytes) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, n * 8);
  const docs = new Int32Array(n);
  const sizes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    docs[i] = view.getInt32(i * 8, true);
    sizes[i] = view.getUint32(i * 8 + 4, true);
  }
  const taken = bytes.slice(start + n * 8, start + n * 9);
  const text = new TextDecoder().decode(bytes.subarray(start + n * 9));
  const paths = n === 0 ? [] : text.split('\n');
  return paths.length === n ? { paths, docs, taken, sizes } : undefined;
}

/** The snapshot kept in `file` (beside the database, 0600). */
export function catalogueSnapshot(fs: RuntimeFs, file: string): CatalogueSnapshot {
  return {
    read(key) {
      // Missing, not a regular file or past MAX_BYTES: undefined, unread.
      const bytes = fs.readRegularFileSync(file, MAX_BYTES);
      return bytes ? decodeSnapshot(bytes, key) : undefined;
    },
    write(key, rows) {
      const bytes = encodeSnapshot(key, rows);
      if (!bytes) return;
      try {
        fs.writeFileAtomicSync(file, bytes, 0o600);
      } catch {
        // A read-only or full data folder: the next process reads the table.
      }
    },
  };
}
