// Plain text and code: blank-line sections merged up to the chunk size; a section too large for one
// chunk is cut into line windows that overlap, so a match near a cut still has its context.
import { byteLength, type Chunk, firstLineTitle, MAX_CHUNK_BYTES } from './types.ts';

const OVERLAP_LINES = 5;

interface Section {
  lines: string[];
  start: number;
}

function sections(lines: string[], firstLine: number): Section[] {
  const out: Section[] = [];
  let current: Section | undefined;
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      if (current) out.push(current);
      current = undefined;
      return;
    }
    current ??= { lines: [], start: firstLine + i };
    current.lines.push(line);
  });
  if (current) out.push(current);
  return out;
}

/** Cuts one oversized run of lines into windows of at most maxBytes, overlapping by a few lines. */
export function lineWindows(lines: string[], start: number, maxBytes = MAX_CHUNK_BYTES): { lines: string[]; start: number }[] {
  const out: { lines: string[]; start: number }[] = [];
  let i = 0;
  while (i < lines.length) {
    let bytes = 0;
    let j = i;
    while (j < lines.length) {
      let line = lines[j]!;
      const size = byteLength(line) + 1;
      if (j > i && bytes + size > maxBytes) break;
      if (size > maxBytes) {
        // One huge line (minified code, a data blob): cut it, it cannot be kept whole.
        line = line.slice(0, Math.floor(maxBytes / 3));
        lines[j] = line;
      }
      bytes += byteLength(line) + 1;
      j++;
    }
    out.push({ lines: lines.slice(i, j), start: start + i });
    if (j >= lines.length) break;
    i = Math.max(i + 1, j - OVERLAP_LINES);
  }
  return out;
}

export function chunkText(text: string, label: string, firstLine = 1): Chunk[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const chunks: Chunk[] = [];
  let pending: Section | undefined;
  let pendingBytes = 0;

  const flush = () => {
    if (!pending) return;
    const body = pending.lines.join('\n');
    chunks.push({ title: firstLineTitle(body, label), body, lineStart: pending.start, lineEnd: pending.start + pending.lines.length - 1 });
    pending = undefined;
    pendingBytes = 0;
  };

  for (const section of sections(lines, firstLine)) {
    const size = byteLength(section.lines.join('\n'));
    if (size > MAX_CHUNK_BYTES) {
      flush();
      for (const w of lineWindows(section.lines, section.start)) {
        const body = w.lines.join('\n');
        chunks.push({ title: firstLineTitle(body, label), body, lineStart: w.start, lineEnd: w.start + w.lines.length - 1 });
      }
      continue;
    }
    if (pending && pendingBytes + size + 1 > MAX_CHUNK_BYTES) flush();
    if (pending) {
      // Keep the blank lines between merged sections so line numbers stay true.
      const gap = section.start - (pending.start + pending.lines.length);
      for (let g = 0; g < gap; g++) pending.lines.push('');
      pending.lines.push(...section.lines);
      pendingBytes += size + gap;
    } else {
      pending = { lines: [...section.lines], start: section.start };
      pendingBytes = size;
    }
  }
  flush();
  return chunks;
}
