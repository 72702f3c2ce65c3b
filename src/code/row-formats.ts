// How code.db writes two things compactly (schema 9, issue 21 item 8):
// - a name is found by a 23-bit hash of it (code_names.h, keyed: store-names.ts) rather than by an index on its text,
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

/**
 * Words that a stored definition signature (code_defs.signature, schema 12) holds as one character
 * each after its first (the first is a prefix code or its own): the most frequent in the Linux tree's
 * signatures, 14 of their 52 MB. The characters are control characters a signature does not hold
 * (tab, line feed, carriage return and NAME_MARK stay themselves); one that holds any of them anyway,
 * or starts with WORDS_ESCAPE, is stored as WORDS_ESCAPE and its packSignature form. Part of the
 * format: changing the list takes a schema migration.
 */
const WORDS: readonly string[] = [
  'struct ', 'static ', 'unsigned ', ', ', 'const ', 'int ', 'void *', 'char *', 'net_device *', 'u32 ', 'long ', 'device *', 'inline ', 'bool ',
  'enum ', 'platform_device *', 'size_t ', 'sk_buff *', 'device_attribute *', 'typedef ', 'uint32_t ', 'extern ', 'void', 'u16 ', 'u8 ', 'u64 ', '__init ',
];
const WORD_CODES: readonly string[] = [2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, ...Array.from({ length: 18 }, (_, i) => 0x0e + i)].map((c) => String.fromCharCode(c));
const WORDS_ESCAPE = '\u007f';
/** Longest first, so `net_device *` is taken before `device *`; each then stands for itself alone. */
const WORDS_BY_LENGTH = WORDS.map((word, i) => ({ word, code: WORD_CODES[i]! })).sort((a, b) => b.word.length - a.word.length);

/** A packSignature form with its common words as characters (code_defs.signature). */
export function packWords(packed: string): string {
  if (!packed) return packed;
  let rest = packed.slice(1);
  if (packed.startsWith(WORDS_ESCAPE) || WORD_CODES.some((c) => rest.includes(c))) return `${WORDS_ESCAPE}${packed}`;
  for (const { word, code } of WORDS_BY_LENGTH) rest = rest.replaceAll(word, code);
  return `${packed[0]}${rest}`;
}

/** packWords' inverse: the packSignature form. */
export function unpackWords(stored: string): string {
  if (stored.startsWith(WORDS_ESCAPE)) return stored.slice(1);
  let rest = stored.slice(1);
  for (const { word, code } of WORDS_BY_LENGTH) rest = rest.replaceAll(code, word);
  return `${stored.slice(0, 1)}${rest}`;
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** SQL for packWords of a packSignature form (the migration of schema 11's rows). */
export function packWordsSql(column: string): string {
  const rest = `substr(${column}, 2)`;
  const literal = `unicode(${column}) = 127 OR ${WORD_CODES.map((c) => `instr(${rest}, char(${c.charCodeAt(0)})) > 0`).join(' OR ')}`;
  const replaced = WORDS_BY_LENGTH.reduce((sql, { word, code }) => `replace(${sql}, ${sqlText(word)}, char(${code.charCodeAt(0)}))`, rest);
  return `CASE WHEN ${column} = '' THEN '' WHEN ${literal} THEN char(127) || ${column} ELSE substr(${column}, 1, 1) || ${replaced} END`;
}

/** SQL for unpackWords of a stored column. */
export function unpackWordsSql(column: string): string {
  const replaced = WORDS_BY_LENGTH.reduce((sql, { word, code }) => `replace(${sql}, char(${code.charCodeAt(0)}), ${sqlText(word)})`, `substr(${column}, 2)`);
  return `CASE WHEN unicode(${column}) = 127 THEN substr(${column}, 2) ELSE substr(${column}, 1, 1) || ${replaced} END`;
}
