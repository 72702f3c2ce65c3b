// Hits as the model reads them: per file a line with its path, then one row per hit (`  LINE: text`,
// or `  START-END: text` for a definition whose range is known). A row never carries a huge line
// whole (minified code, a data line): it shows the part around the match and says how to get it all.
import type { ResultItem } from '../../retrieval/types.ts';

/** A row's text past this many characters shows the part around the match. */
export const ROW_MAX_CHARS = 400;

/** Hits grouped by file, files in the order of their best hit, hits in line order. */
export function groupByFile<T extends { file: string; line: number }>(items: readonly T[]): { file: string; hits: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const i of items) {
    const group = groups.get(i.file);
    if (group) group.push(i);
    else groups.set(i.file, [i]);
  }
  return [...groups.entries()].map(([file, hits]) => ({ file, hits: hits.sort((a, b) => a.line - b.line) }));
}

/** A line as a row: trimmed, and around its match when it is too long to show whole. */
export function rowText(text: string, matchIndex: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= ROW_MAX_CHARS) return trimmed;
  const lead = text.length - text.trimStart().length;
  const at = Math.max(0, Math.max(0, matchIndex) - lead);
  const start = Math.max(0, Math.min(at - 120, trimmed.length - ROW_MAX_CHARS));
  const end = start + ROW_MAX_CHARS;
  return `${start > 0 ? '…' : ''}${trimmed.slice(start, end)}${end < trimmed.length ? '…' : ''} [line of ${trimmed.length} chars, columns ${lead + start + 1}-${lead + Math.min(end, trimmed.length)} shown]`;
}

/**
 * Lines of an exact or regex answer in the order rg would print them (by path, then line), except
 * that the files holding a definition come first: the floor an agent knows from rg, with the
 * definition on top. Which lines are kept is the ranking's business; this is only their order.
 */
export function inGrepOrder<T extends { file: string; line: number; kind: string }>(items: readonly T[]): T[] {
  const defines = new Set(items.filter((h) => h.kind === 'definition').map((h) => h.file));
  return [...items].sort((a, b) => Number(defines.has(b.file)) - Number(defines.has(a.file)) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/** Hits with the text their rows show (trimmed, long lines cut around the match): what the budget is spent on. */
export function asShown<T extends { text: string; matchIndex: number }>(items: readonly T[]): T[] {
  return items.map((h) => ({ ...h, text: rowText(h.text, h.matchIndex) }));
}

/** The rows of a set of hits (as `asShown` made them): a path line per file, then its hits. */
export function hitRows(items: readonly ResultItem[]): string[] {
  const lines: string[] = [];
  for (const g of groupByFile(items)) {
    lines.push(g.file);
    for (const h of g.hits) lines.push(`  ${h.line}${h.def && h.def.end > h.line ? `-${h.def.end}` : ''}: ${h.text}`);
  }
  return lines;
}

/** The bytes `rg -n` prints for these hits (`path:line:text` each, no heading when not on a terminal). */
export function rgLineBytes(hits: readonly { file: string; line: number; text: string }[]): number {
  const encoder = new TextEncoder();
  return hits.reduce((n, h) => n + encoder.encode(`${h.file}:${h.line}:${h.text}\n`).length, 0);
}
