// The text of a search answer (not a refusal): a first line with counts, then per file its path and
// one row per hit. The search tool sends it; the PreToolUse hook measures it against what grep would
// print, so both must build it here, the same way.
import { fitToBudget } from '../../retrieval/ranking.ts';
import type { SkippedFile } from '../../workspace/grep/types.ts';
import { skippedNote } from '../skipped-note.ts';

export interface ReplyHit {
  file: string;
  line: number;
  text: string;
  def?: { end: number };
}

export interface SearchReplyInput<T extends ReplyHit> {
  /** Ranked, best first, already cut to max_hits. */
  items: T[];
  /** Every hit found (the counts line's "of"). */
  total: number;
  capped: boolean;
  /** The rows are definitions (blocks from the code index), not lines. */
  definitions: boolean;
  budget: number;
  charsPerToken: number;
  forced?: boolean;
  openedAfterRefusals?: boolean;
  skipped?: readonly SkippedFile[];
}

/** Hits grouped by file, files in the order of their best hit. */
export function groupByFile<T extends ReplyHit>(items: T[]): { file: string; hits: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const i of items) groups.set(i.file, [...(groups.get(i.file) ?? []), i]);
  return [...groups.entries()].map(([file, hits]) => ({ file, hits: hits.sort((a, b) => a.line - b.line) }));
}

export function searchReply<T extends ReplyHit>(input: SearchReplyInput<T>): { text: string; kept: T[]; cut: number; tokens: number } {
  const { kept, cut, tokens } = fitToBudget(input.items, input.budget, input.charsPerToken);
  const groups = groupByFile(kept);
  const lines = [
    `${kept.length} of ${input.total}${input.capped ? '+' : ''} ${input.definitions ? 'definitions' : 'hits'} in ${groups.length} files (~${tokens} tokens)${input.forced ? ', forced past the gate' : ''}${input.openedAfterRefusals ? ', gate opened after repeated refusals' : ''}`,
  ];
  for (const g of groups) {
    lines.push(g.file);
    for (const h of g.hits) lines.push(`  ${h.line}${h.def && h.def.end > h.line ? `-${h.def.end}` : ''}: ${h.text.trim()}`);
  }
  if (cut) lines.push(`(${cut} more hits cut to fit ${input.budget} tokens; narrow with scope or raise max_tokens)`);
  if (input.skipped?.length) lines.push(skippedNote(input.skipped));
  return { text: lines.join('\n'), kept, cut, tokens };
}
