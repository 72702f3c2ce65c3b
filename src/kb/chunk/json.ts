// JSON: chunks of key paths ("dependencies.zod: \"4.6.7\""), grouped under a shared parent path so
// a search for a key finds where it sits. Unparseable JSON is chunked as text.
import { chunkText, lineSlices } from './text.ts';
import { byteLength, type Chunk, MAX_CHUNK_BYTES } from './types.ts';

const LEAF_BYTES = 256;
/** Objects this shallow are always opened up, so top-level and second-level keys get their own lines. */
const OPEN_DEPTH = 2;

interface Entry {
  path: string;
  group: string;
  text: string;
}

function keyPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return parent ? `${parent}.${plain}` : plain;
}

function flatten(value: unknown, path: string, depth: number, out: Entry[], group: string): void {
  const serialized = JSON.stringify(value) ?? 'null';
  if (value === null || typeof value !== 'object' || (depth >= OPEN_DEPTH && byteLength(serialized) <= LEAF_BYTES) || depth > 12) {
    out.push({ path: path || '(root)', group: group || '(root)', text: serialized });
    return;
  }
  const nextGroup = depth < 2 ? path : group;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) flatten(v, keyPath(path, i), depth + 1, out, nextGroup);
  } else for (const [k, v] of Object.entries(value)) flatten(v, keyPath(path, k), depth + 1, out, nextGroup);
}

export function chunkJson(text: string, label: string): Chunk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return chunkText(text, label);
  }
  const entries: Entry[] = [];
  flatten(parsed, '', 0, entries, '');
  const chunks: Chunk[] = [];
  let lines: string[] = [];
  let bytes = 0;
  let group = '';
  const flush = () => {
    if (lines.length) chunks.push({ title: group === '(root)' ? label : group, body: lines.join('\n'), lineStart: 0, lineEnd: 0 });
    lines = [];
    bytes = 0;
  };
  for (const e of entries) {
    const line = `${e.path}: ${e.text}`;
    const size = byteLength(line) + 1;
    if (size > MAX_CHUNK_BYTES) {
      // A long value is cut into overlapping pieces, each under its key path: none of it is dropped.
      flush();
      const room = MAX_CHUNK_BYTES - byteLength(e.path) - 2;
      for (const piece of lineSlices(e.text, Math.max(MAX_CHUNK_BYTES / 2, room))) chunks.push({ title: e.path, body: `${e.path}: ${piece}`, lineStart: 0, lineEnd: 0 });
      group = e.group;
      continue;
    }
    if (lines.length && (e.group !== group || bytes + size > MAX_CHUNK_BYTES)) flush();
    group = e.group;
    lines.push(line);
    bytes += size;
  }
  flush();
  return chunks;
}
