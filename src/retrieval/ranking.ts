// Ranking: scores hits by BM25 over the candidate lines plus kind weight, proximity of the query's
// words, shape of the match and file recency, with the configured weights. Weights sum to 1, every
// part is 0–1, so a score means the same across queries and minRelevance is a real threshold.
import type { Config } from '../config/schema.ts';
import { KIND_WEIGHT } from './kinds.ts';
import { indentOf, wholeWord } from './query.ts';
import type { Hit, ResultItem } from './types.ts';

export interface RankInput {
  hits: Hit[];
  /** Lower-case words of the query (one for a symbol). */
  terms: string[];
  /** The exact symbol, for symbol queries. */
  symbol?: string;
  /** File modification times, for recency. */
  mtimes: Map<string, number>;
}

const K1 = 1.2;
const B = 0.75;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_$]+/gu) ?? [];
}

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** BM25 of each line for the terms, normalized to 0–1 by the best line. */
function bm25(lines: string[], terms: string[]): number[] {
  const lower = lines.map((l) => l.toLowerCase());
  const lengths = lines.map((l) => Math.max(1, words(l).length));
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const n = lines.length;
  const idf = terms.map((t) => {
    const df = lower.filter((l) => l.includes(t)).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const raw = lower.map((l, i) =>
    terms.reduce((sum, t, k) => {
      const tf = count(l, t);
      return sum + (idf[k]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / avg));
    }, 0),
  );
  const max = Math.max(...raw, 0);
  return raw.map((r) => (max > 0 ? r / max : 0));
}

/**
 * For a symbol every candidate line holds the one term once, so line BM25 only measures line
 * length. What tells files apart is how much of each file is about the symbol: BM25's saturating
 * term frequency over files, normalized to 0–1.
 */
function fileWeight(hits: Hit[]): number[] {
  // Definitions are weighed among definitions: a file that only uses a name a lot must not
  // outweigh the file that defines it.
  const weights = (group: Hit[]) => {
    const perFile = new Map<string, number>();
    for (const h of group) perFile.set(h.file, (perFile.get(h.file) ?? 0) + 1);
    const weight = (tf: number) => (tf * (K1 + 1)) / (tf + K1);
    const max = Math.max(...[...perFile.values()].map(weight), 0);
    return (h: Hit) => (max > 0 ? weight(perFile.get(h.file)!) / max : 0);
  };
  const ofDefinitions = weights(hits.filter((h) => h.kind === 'definition'));
  const ofAll = weights(hits);
  return hits.map((h) => (h.kind === 'definition' ? ofDefinitions(h) : 0.7 * ofAll(h)));
}

/** How close together the query's words sit on the line (1 for one word). */
function proximity(line: string, terms: string[]): number {
  if (terms.length <= 1) return 1;
  const lower = line.toLowerCase();
  const at = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  if (!at.length) return 0;
  const coverage = at.length / terms.length;
  const span = Math.max(...at) - Math.min(...at);
  return coverage * (1 / (1 + span / 40));
}

/**
 * How exactly the line matches (the identifier itself, other case, inside a longer name), how strong
 * a definition it is (exported or top level beats a nested member), and whether the file is named
 * after the query (printk.h for printk).
 */
function shape(hit: Hit, terms: string[], symbol: string | undefined): number {
  const text = hit.text;
  let exact: number;
  if (symbol) {
    exact = wholeWord(symbol).test(text) ? 1 : wholeWord(symbol, true).test(text) ? 0.7 : 0.4;
  } else {
    const lower = text.toLowerCase();
    exact = terms.length ? terms.filter((t) => lower.includes(t)).length / terms.length : 0.5;
  }
  if (hit.kind === 'definition' && hit.def) exact *= hit.def.strength;
  else if (hit.kind === 'definition') {
    const indent = indentOf(text);
    exact *= /^\s*export\b/.test(text) || indent === 0 ? 1 : indent <= 4 ? 0.75 : 0.5;
  }
  const base = (hit.file.split('/').pop() ?? '').toLowerCase().replace(/\.[^.]*$/, '').replace(/[^a-z0-9]/g, '');
  // A local's file is named after what holds it, never after the local: no bonus that could lift it over a definition.
  const named = !hit.def?.local && terms.some((t) => base.includes(t.replace(/[^a-z0-9]/g, ''))) ? 1 : 0;
  return 0.8 * exact + 0.2 * named;
}

export function rankHits(input: RankInput, config: Config): ResultItem[] {
  const w = config.scoring.weights;
  const total = w.kind + w.lexical + w.proximity + w.shape + w.recency || 1;
  // A definition from the code index is weighed by what it is (kind, top level, exported), not by
  // how many same-named lines its file holds.
  const lexical = (input.symbol ? fileWeight(input.hits) : bm25(input.hits.map((h) => h.text), input.terms)).map((v, i) => input.hits[i]!.def?.strength ?? v);
  const times = [...input.mtimes.values()];
  const oldest = Math.min(...times);
  const newest = Math.max(...times);
  const items = input.hits.map((hit, i) => {
    const mtime = input.mtimes.get(hit.file) ?? oldest;
    // A definition from the code index is ranked by what it is, not by when its file was written.
    const recency = hit.def ? 1 : newest > oldest ? (mtime - oldest) / (newest - oldest) : 1;
    const score =
      (w.kind * KIND_WEIGHT[hit.kind] +
        w.lexical * lexical[i]! +
        w.proximity * proximity(hit.text, input.terms) +
        w.shape * shape(hit, input.terms, input.symbol) +
        w.recency * recency) /
      total;
    return { ...hit, score: Math.round(score * 1000) / 1000 };
  });
  return items.sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * Definitions ahead of every other hit, each group in its ranked order: asked for a bare name, the
 * place that defines it comes before the lines that use it, however many uses another class's
 * same-named method has. Nothing moves when the name has no definition.
 */
export function definitionsFirst<T extends { kind: string }>(items: T[]): T[] {
  return [...items.filter((i) => i.kind === 'definition'), ...items.filter((i) => i.kind !== 'definition')];
}

/** Estimated tokens of returning an item compactly (path, line, text). */
export function itemTokens(item: { file: string; text: string }, charsPerToken: number): number {
  return Math.ceil((item.file.length + item.text.length + 8) / charsPerToken);
}

/** Keeps items while they fit the budget; says how many were cut. */
export function fitToBudget<T extends { file: string; text: string }>(items: T[], maxTokens: number, charsPerToken: number): { kept: T[]; cut: number; tokens: number } {
  const kept: T[] = [];
  let tokens = 0;
  for (const item of items) {
    const t = itemTokens(item, charsPerToken);
    if (tokens + t > maxTokens && kept.length) break;
    kept.push(item);
    tokens += t;
  }
  return { kept, cut: items.length - kept.length, tokens };
}
