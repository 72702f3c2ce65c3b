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

/** Characters each piece of a cut line shares with the next, so a word at a cut is whole in one of them. */
export const LINE_OVERLAP_CHARS = 256;

/**
 * One line too large for a chunk (minified code, a data blob, a long log line) as pieces of at most
 * maxBytes, each overlapping the next by LINE_OVERLAP_CHARS: every byte of it stays searchable.
 */
export function lineSlices(line: string, maxBytes = MAX_CHUNK_BYTES): string[] {
  const out: string[] = [];
  let from = 0;
  while (from < line.length) {
    let bytes = 0;
    let to = from;
    while (to < line.length) {
      const c = line.charCodeAt(to);
      const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
      if (bytes + size > maxBytes) break;
      bytes += size;
      to += size === 4 ? 2 : 1;
    }
    out.push(line.slice(from, to));
    if (to >= line.length) break;
    // Step back for the overlap, but always move forward.
    from = Math.max(from + 1, to - LINE_OVERLAP_CHARS);
  }
  return out;
}

/**
 * Cuts one oversized run of lines into windows of at most maxBytes, overlapping by a few lines; a line
 * larger than a window is cut into overlapping pieces of its own (never shortened).
 */
export function lineWindows(lines: string[], start: number, maxBytes = MAX_CHUNK_BYTES): { lines: string[]; start: number }[] {
  const out: { lines: string[]; start: number }[] = [];
  const huge = (j: number) => byteLength(lines[j]!) + 1 > maxBytes;
  let i = 0;
  while (i < lines.length) {
    if (huge(i)) {
      for (const piece of lineSlices(lines[i]!, maxBytes)) out.push({ lines: [piece], start: start + i });
      i++;
      continue;
    }
    let bytes = 0;
    let j = i;
    while (j < lines.length && !huge(j)) {
      const size = byteLength(lines[j]!) + 1;
      if (j > i && bytes + size > maxBytes) break;
      bytes += size;
      j++;
    }
    out.push({ lines: lines.slice(i, j), start: start + i });
    if (j >= lines.length) break;
    // The next window repeats the last few lines, never reaching back past a cut line or to the start.
    let back = j;
    while (back > i + 1 && j - back < OVERLAP_LINES && !huge(back - 1)) back--;
    i = huge(j) ? j : back;
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
