// A chunk: a self-contained piece of a document, at most about MAX_CHUNK_BYTES, with the title that
// tells where it sits (a heading breadcrumb, a key path, a first line) and the lines it spans.
export interface Chunk {
  title: string;
  body: string;
  lineStart: number;
  lineEnd: number;
}

export const MAX_CHUNK_BYTES = 4096;

export function byteLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** First non-empty line, trimmed and shortened: a title for a chunk that has no heading. */
export function firstLineTitle(body: string, fallback: string): string {
  const line = body.split('\n').find((l) => l.trim())?.trim() ?? '';
  if (!line) return fallback;
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
