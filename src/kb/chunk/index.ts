// Picks the chunker by file name: markdown by headings, JSON by key paths, everything else as text.
import { chunkJson } from './json.ts';
import { chunkMarkdown } from './markdown.ts';
import { chunkText } from './text.ts';
import type { Chunk } from './types.ts';

export type ChunkFormat = 'markdown' | 'json' | 'text';

export function formatFor(name: string): ChunkFormat {
  const lower = name.toLowerCase();
  if (/\.(md|markdown|mdx|mdown)$/.test(lower)) return 'markdown';
  if (/\.(json|jsonc|geojson|har)$/.test(lower) || lower.endsWith('.json5')) return 'json';
  return 'text';
}

export function chunkDocument(text: string, label: string, format: ChunkFormat): Chunk[] {
  if (format === 'markdown') return chunkMarkdown(text, label);
  if (format === 'json') return chunkJson(text, label);
  return chunkText(text, label);
}

export type { Chunk } from './types.ts';
