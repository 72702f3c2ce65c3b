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
import { type PathList, pathList } from './path-list.ts';

/** The catalogue in table order: paths, document ids (-1: none), taken flags, sizes. */
export interface CatalogueRows {
  paths: PathList;
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

// Format 3: the header line (padded with spaces to a multiple of 4 bytes), then the document ids,
// the sizes and the paths' ends (each n little-endian 32-bit words: taken as they are, no decoding),
// the taken flags (n bytes) and the paths (PathList.bytes).
const MAGIC = 'ctxgate-catalogue 3\n';
/** Larger files are not read (a catalogue of millions of files reads its table). */
const MAX_BYTES = 256 * 1024 * 1024;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function sameKey(a: SnapshotKey, b: Partial<SnapshotKey>): boolean {
  return a.epoch === b.epoch && a.schema === b.schema && a.gen === b.gen && a.maxId === b.maxId;
}

function putWords(out: Uint8Array, at: number, words: Int32Array | Uint32Array): void {
  const view = new DataView(out.buffer, out.byteOffset + at, words.length * 4);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i]! >>> 0, true);
}

/** n little-endian words at `at`: a view of the bytes where the host and the alignment allow, else a copy. */
function wordsAt(bytes: Uint8Array, at: number, n: number): Uint32Array {
  if (LITTLE_ENDIAN) {
    if ((bytes.byteOffset + at) % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset + at, n);
    return new Uint32Array(bytes.slice(at, at + n * 4).buffer);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, n * 4);
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint32(i * 4, true);
  return words;
}

export function encodeSnapshot(key: SnapshotKey, rows: CatalogueRows): Uint8Array {
  const { paths } = rows;
  const n = paths.length;
  let head = `${MAGIC}${JSON.stringify({ ...key, n, pathBytes: paths.bytes.length })}`;
  head += ' '.repeat((4 - ((new TextEncoder().encode(head).length + 1) % 4)) % 4);
  const headBytes = new TextEncoder().encode(`${head}\n`);
  const start = headBytes.length;
  const out = new Uint8Array(start + n * 13 + paths.bytes.length);
  out.set(headBytes, 0);
  putWords(out, start, rows.docs.subarray(0, n));
  putWords(out, start + n * 4, rows.sizes.subarray(0, n));
  putWords(out, start + n * 8, paths.ends);
  out.set(rows.taken.subarray(0, n), start + n * 12);
  out.set(paths.bytes, start + n * 13);
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
  if (!sameKey(key, header) || typeof n !== 'number' || typeof pathBytes !== 'number' || !Number.isInteger(n) || n < 0 || !Number.isInteger(pathBytes) || pathBytes < 0) return undefined;
  const start = eol + 1;
  if (start % 4 !== 0 || bytes.length !== start + n * 13 + pathBytes) return undefined;
  const docs = wordsAt(bytes, start, n);
  const sizes = wordsAt(bytes, start + n * 4, n);
  const paths = pathList(bytes.subarray(start + n * 13), wordsAt(bytes, start + n * 8, n));
  if (!paths) return undefined;
  return { paths, docs: new Int32Array(docs.buffer, docs.byteOffset, n), taken: bytes.subarray(start + n * 12, start + n * 13), sizes };
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
      try {
        fs.writeFileAtomicSync(file, bytes, 0o600);
      } catch {
        // A read-only or full data folder: the next process reads the table.
      }
    },
  };
}
