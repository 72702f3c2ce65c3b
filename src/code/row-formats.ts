// How code.db writes two things compactly (schema 9, issue 21 item 8):
// - a name is found by a 23-bit hash of it (code_names.h, indexed) rather than by an index on its text,
//   which on the Linux tree repeated every one of its 3 M names (107 MB); the hash is computed here, in
//   JavaScript, where rows are written and where names are looked up, and the name itself is compared;
// - a signature starting with one of a few common texts (`#define NAME `, `static int NAME(`: two
//   million of the kernel's definitions) stores a one-character code for it instead. The list is part
//   of the format: changing it takes a schema migration.

/** The character standing for a definition's own name in its stored signature (the store puts the name back). */
export const NAME_MARK = '\u0001';

/** A name's hash as code_names.h holds it: FNV-1a over its UTF-16 units, folded to 23 bits (3 bytes in a row). */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 23)) & 0x7fffff;
}

/**
 * Signature beginnings stored as one character, 0x02 + their place (the name as NAME_MARK). The first is
 * empty: it marks a signature that starts with a code character of its own. At most 30 (0x02…0x1f).
 */
const PREFIXES: readonly string[] = [
  '',
  '#define \u0001 ',
  '#define \u0001(',
  '#define \u0001',
  '# define \u0001 ',
  '\u0001 ',
  'struct \u0001',
  'enum \u0001',
  'union \u0001',
  'void \u0001(',
  'int \u0001(',
  'extern void \u0001(',
  'extern int \u0001(',
  'static int \u0001(',
  'static void \u0001(',
  'static bool \u0001(',
  'static ssize_t \u0001(',
  'static int __init \u0001(',
  'static void __exit \u0001(',
  'static inline void \u0001(',
  'static inline int \u0001(',
  'static inline bool \u0001(',
  'static const unsigned int \u0001[',
  'static const struct \u0001',
  'static struct \u0001',
  'pub fn \u0001(',
  'fn \u0001(',
  'function \u0001(',
  'def \u0001(',
  'func \u0001(',
];
const FIRST_CODE = 2;
/** Longest first, so `#define NAME ` wins over `#define NAME`. */
const BY_LENGTH = PREFIXES.map((text, i) => ({ text, code: String.fromCharCode(FIRST_CODE + i) })).sort((a, b) => b.text.length - a.text.length);

/** A signature (its name already marked) as it is stored. */
export function packSignature(signature: string): string {
  const first = signature.charCodeAt(0);
  for (const p of BY_LENGTH) {
    if (p.text && signature.startsWith(p.text)) return `${p.code}${signature.slice(p.text.length)}`;
  }
  // A signature that itself starts with a code character keeps it behind the empty prefix.
  return first >= FIRST_CODE && first < FIRST_CODE + PREFIXES.length ? `${String.fromCharCode(FIRST_CODE)}${signature}` : signature;
}

/** The stored signature back (its name still marked): packSignature's inverse. */
export function unpackSignature(stored: string): string {
  const code = stored.charCodeAt(0) - FIRST_CODE;
  return code >= 0 && code < PREFIXES.length ? `${PREFIXES[code]}${stored.slice(1)}` : stored;
}

/** An SQL string literal of a prefix (NAME_MARK as char(1)). */
function literal(text: string): string {
  return `(${text
    .split(NAME_MARK)
    .map((part) => `'${part.replaceAll("'", "''")}'`)
    .join(' || char(1) || ')})`;
}

/** SQL for a stored signature column unpacked, with `name` (an SQL expression) put back for its mark. */
export function signatureSql(column: string, name: string): string {
  const cases = PREFIXES.map((text, i) => `WHEN ${FIRST_CODE + i} THEN ${literal(text)}`).join(' ');
  const code = `unicode(${column})`;
  return `replace(CASE WHEN ${code} BETWEEN ${FIRST_CODE} AND ${FIRST_CODE + PREFIXES.length - 1} THEN (CASE ${code} ${cases} END) || substr(${column}, 2) ELSE ${column} END, char(${NAME_MARK.charCodeAt(0)}), ${name})`;
}

/**
 * The name ids a file's references and locals carry (code_file_rows.names), ascending, as varint gaps:
 * 2–3 bytes an id where a JSON array took 8 (schema 9).
 */
export function packIds(ids: Iterable<number>): Uint8Array {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: number[] = [];
  let previous = 0;
  for (const id of sorted) {
    if (!Number.isInteger(id) || id < 1 || id > 0xffffffff) throw new RangeError(`a name id must be a positive 32-bit integer, not ${id}`);
    let v = id - previous;
    previous = id;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return Uint8Array.from(out);
}

/** packIds' inverse. */
export function unpackIds(data: Uint8Array): number[] {
  const ids: number[] = [];
  let previous = 0;
  for (let pos = 0; pos < data.length; ) {
    let v = 0;
    let scale = 1;
    for (;;) {
      const byte = data[pos++];
      if (byte === undefined) throw new RangeError("truncated name ids in code.db's code_file_rows");
      v += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
    }
    previous += v;
    ids.push(previous);
  }
  return ids;
}
