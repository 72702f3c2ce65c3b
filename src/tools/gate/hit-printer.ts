// Hits as the model reads them: per file a line with its path, then one row per hit (`  LINE: text`,
// or `  START-END: text` for a definition whose range is known). A row never carries a huge line
// whole (minified code, a data line): it shows the part around the match and says how to get it all.
import { fitToBudget } from '../../retrieval/ranking.ts';

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
export function hitRows(items: readonly { file: string; line: number; text: string; def?: { end: number } }[]): string[] {
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

/** What the first line of an answer of lines says. */
export interface AnswerHead {
  match: 'exact' | 'ignore-case' | 'regex';
  shown: number;
  total: number;
  /** The total is a lower bound (the scan stopped counting). */
  lowerBound: boolean;
  files: number;
  tokens: number;
  forced?: boolean;
  openedAfterRefusals?: boolean;
}

function countText(shown: number, total: number, lowerBound: boolean): string {
  const all = `${total}${lowerBound ? '+' : ''}`;
  const noun = total === 1 && !lowerBound ? 'hit' : 'hits';
  return shown === total && !lowerBound ? `${all} ${noun}` : `${shown} of ${all} ${noun}`;
}

/** An answer of lines: its first line (counts), then the rows (notes on what was left out follow). */
export function answerLines(head: AnswerHead, kept: Parameters<typeof hitRows>[0]): string[] {
  const count = countText(head.shown, head.total, head.lowerBound);
  const first = [
    head.match === 'ignore-case' ? `no exact-case match; ${count} ignoring case` : count,
    head.files > 1 ? ` in ${head.files} files` : '',
    head.shown < head.total ? ` (~${head.tokens} tokens)` : '',
    head.forced ? ', forced past the gate' : '',
    head.openedAfterRefusals ? ', gate opened after repeated refusals' : '',
  ].join('');
  return [first, ...hitRows(kept)];
}

/**
 * The text search sends for these exact lines when the gate lets them all through (the PreToolUse
 * hook measures it against what grep prints), and how many its token budget would cut.
 */
export function exactAnswer(input: { items: { file: string; line: number; text: string; matchIndex: number }[]; budget: number; charsPerToken: number }): { text: string; cut: number } {
  const { kept, cut, tokens } = fitToBudget(asShown(input.items), input.budget, input.charsPerToken);
  const head = { match: 'exact' as const, shown: kept.length, total: input.items.length, lowerBound: false, files: groupByFile(kept).length, tokens };
  return { text: answerLines(head, kept).join('\n'), cut };
}
