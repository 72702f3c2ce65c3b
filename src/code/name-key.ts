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
