// A name's id in code_names is where its hash points (schema 8): the table is its own index by name,
// with no second copy of every name in an index. A name whose place is taken by another goes to the
// next free place within NAME_PROBES; finding a name reads that short run of ids.

/** How far past its hash a name's id may lie. */
export const NAME_PROBES = 64;
/** Hashes stay below this, so every id fits in 4 bytes of a record (31 bits). */
const NAME_SPACE = 2 ** 31 - NAME_PROBES;

/** The place a name's id starts from: FNV-1a over its UTF-16 code units, in [0, 2^31 − 64). */
export function nameKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % NAME_SPACE;
}

/** SQL for a name's id given its key and itself (`?`, `?`, `?`: key, key + probes − 1, name; NULL when absent). */
export const ID_OF_NAME = '(SELECT id FROM code_names WHERE id BETWEEN ? AND ? AND name = ?)';

/** The values ID_OF_NAME binds. */
export function idOfNameBinds(name: string): [number, number, string] {
  const key = nameKey(name);
  return [key, key + NAME_PROBES - 1, name];
}

/** A file's name ids as code_file_rows keeps them: 4 bytes each (a JSON list of 10-digit ids would be 11). */
export function packNameIds(ids: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(ids.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < ids.length; i++) view.setUint32(i * 4, ids[i]!);
  return bytes;
}

/** The ids packNameIds packed, as a JSON list for json_each. */
export function unpackNameIds(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ids: number[] = [];
  for (let at = 0; at + 4 <= bytes.byteLength; at += 4) ids.push(view.getUint32(at));
  return JSON.stringify(ids);
}
