// Markdown: one chunk per heading section, titled by its heading breadcrumb ("Guide > Install >
// Linux"); a long section is split between paragraphs, never inside a code fence.
import { lineWindows } from './text.ts';
import { byteLength, type Chunk, MAX_CHUNK_BYTES } from './types.ts';

/** A fence larger than this is cut after all: one chunk of megabytes would defeat the index. */
const MAX_FENCE_BYTES = 8 * MAX_CHUNK_BYTES;

interface Block {
  lines: string[];
  start: number;
  fence: boolean;
}

interface Section {
  title: string;
  lines: string[];
  start: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;

function splitSections(lines: string[], label: string): Section[] {
  const out: Section[] = [];
  const trail: string[] = [];
  let current: Section = { title: label, lines: [], start: 1 };
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (f) {
      const marker = f[1]!;
      if (!fence) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    }
    const h = !fence && !f ? HEADING.exec(line) : null;
    if (h) {
      if (current.lines.some((l) => l.trim())) out.push(current);
      const level = h[1]!.length;
      trail.length = level - 1;
      trail[level - 1] = h[2]!.trim() || '(untitled)';
      current = { title: trail.filter(Boolean).join(' > '), lines: [line], start: i + 1 };
      return;
    }
    current.lines.push(line);
  });
  if (current.lines.some((l) => l.trim())) out.push(current);
  return out;
}

/** Paragraph and fence blocks of a section; blank lines stay with the block before them. */
function blocks(section: Section): Block[] {
  const out: Block[] = [];
  let current: Block | undefined;
  let fence: string | undefined;
  section.lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (!fence && f) {
      if (current) out.push(current);
      fence = f[1]!;
      current = { lines: [line], start: section.start + i, fence: true };
      return;
    }
    if (fence) {
      current!.lines.push(line);
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) {
        out.push(current!);
        current = undefined;
        fence = undefined;
      }
      return;
    }
    if (line.trim() === '') {
      if (current) current.lines.push(line);
      else if (out.length) out[out.length - 1]!.lines.push(line);
      if (current) {
        out.push(current);
        current = undefined;
      }
      return;
    }
    current ??= { lines: [], start: section.start + i, fence: false };
    current.lines.push(line);
  });
  if (current) out.push(current);
  return out;
}

function trimTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(0, end);
}

function toChunk(title: string, lines: string[], start: number): Chunk {
  const kept = trimTrailingBlank(lines);
  return { title, body: kept.join('\n'), lineStart: start, lineEnd: start + Math.max(kept.length, 1) - 1 };
}

export function chunkMarkdown(text: string, label: string): Chunk[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const chunks: Chunk[] = [];
  for (const section of splitSections(lines, label)) {
    if (byteLength(section.lines.join('\n')) <= MAX_CHUNK_BYTES) {
      chunks.push(toChunk(section.title, section.lines, section.start));
      continue;
    }
    let pending: Block | undefined;
    let pendingBytes = 0;
    const flush = () => {
      if (pending) chunks.push(toChunk(section.title, pending.lines, pending.start));
      pending = undefined;
      pendingBytes = 0;
    };
    for (const block of blocks(section)) {
      const size = byteLength(block.lines.join('\n')) + 1;
      if (size > MAX_CHUNK_BYTES) {
        flush();
        if (block.fence && size <= MAX_FENCE_BYTES) chunks.push(toChunk(section.title, block.lines, block.start));
        else for (const w of lineWindows(block.lines, block.start)) chunks.push(toChunk(section.title, w.lines, w.start));
        continue;
      }
      if (pending && pendingBytes + size > MAX_CHUNK_BYTES) flush();
      if (pending) {
        pending.lines.push(...block.lines);
        pendingBytes += size;
      } else {
        pending = { lines: [...block.lines], start: block.start, fence: block.fence };
        pendingBytes = size;
      }
    }
    flush();
  }
  return chunks.filter((c) => c.body.trim());
}
