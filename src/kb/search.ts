// Knowledge-base search: the Porter-stemmed index (bm25, titles weighted) and the trigram index
// (substrings and exact phrases: "rderHandl" finds "OrderHandler") are queried together and merged
// by reciprocal rank fusion; multi-word queries are then reranked by how many words a chunk holds and how close
// together. User text only ever reaches FTS5 as quoted words and trigrams, so no query
// can be a syntax error. When nothing matches, the words are corrected against the index's own
// vocabulary and the search runs once more.
import { stemmer } from 'stemmer';
import { type StatFn, sourceChanged } from './file-digest.ts';
import { type KnowledgeBase, type SourceKind, type SourceRow, wordsOf } from './store.ts';

export interface SearchRequest {
  query: string;
  limit: number;
  /** Only sources whose label or key contains this text. */
  source?: string;
  /** Only these sources (e.g. one batch run's outputs). */
  sourceIds?: readonly number[];
}

export interface SearchHit {
  chunkId: number;
  sourceKey: string;
  sourceKind: SourceKind;
  label: string;
  path: string | null;
  title: string;
  snippet: string;
  score: number;
  lines?: [number, number];
  /** The file changed since it was indexed. */
  stale: boolean;
}

export interface SearchResponse {
  terms: string[];
  hits: SearchHit[];
  /** The corrected query, when the original matched nothing and a correction did. */
  corrected?: string;
}

export type { StatFn } from './file-digest.ts';

/** Reciprocal rank fusion's k (pg-search.ts fuses in SQL with it too). */
export const RRF_K = 60;
/** Candidates each index gives at most (both backends). */
export const CANDIDATES = 100;
/** Trigram candidates confirmed per probe at most. */
export const TRIGRAM_CANDIDATES = 1000;
/** Fused candidates reranked by coverage and proximity. */
export const RERANK = 40;
const MAX_TERMS = 12;
const SNIPPET_CHARS = 360;

export function queryTerms(query: string): string[] {
  return [...new Set(wordsOf(query))].slice(0, MAX_TERMS);
}

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

interface Filter {
  sql: string;
  bind: (string | number)[];
}

function sourceFilter(req: SearchRequest): Filter {
  const parts: string[] = [];
  const bind: (string | number)[] = [];
  if (req.source) {
    parts.push("(instr(lower(s.label), ?) > 0 OR instr(lower(s.key), ?) > 0)");
    bind.push(req.source.toLowerCase(), req.source.toLowerCase());
  }
  if (req.sourceIds) {
    parts.push(req.sourceIds.length ? `s.id IN (${req.sourceIds.map(() => '?').join(',')})` : '0');
    bind.push(...req.sourceIds);
  }
  return { sql: parts.length ? ` AND ${parts.join(' AND ')}` : '', bind };
}

function porterQuery(kb: KnowledgeBase, match: string, filter: Filter): number[] {
  const rows = kb.db.all(
    `SELECT f.rowid AS id FROM fts_porter f JOIN chunks c ON c.id = f.rowid JOIN sources s ON s.id = c.source_id
     WHERE fts_porter MATCH ?${filter.sql} ORDER BY bm25(fts_porter, 3.0, 1.0) LIMIT ${CANDIDATES}`,
    [match, ...filter.bind],
  );
  return rows.map((r) => Number(r.id));
}

/** Chunks holding every word first (few, precise); any word only when that finds too little. */
function porterRanks(kb: KnowledgeBase, terms: string[], filter: Filter, limit: number): number[] {
  if (!terms.length) return [];
  const all = porterQuery(kb, terms.map(quote).join(' '), filter);
  if (terms.length === 1 || all.length >= limit * 2) return all;
  const seen = new Set(all);
  return [...all, ...porterQuery(kb, terms.map(quote).join(' OR '), filter).filter((id) => !seen.has(id))].slice(0, CANDIDATES);
}

/** The trigram tokens of some words, as an FTS5 query that every candidate must satisfy. */
function trigramMatch(words: string[]): string | undefined {
  const grams = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length; i++) grams.add(w.slice(i, i + 3));
  return grams.size ? [...grams].map(quote).join(' AND ') : undefined;
}

/** A whole word of the Porter index: the Porter side finds it already. */
function knownWord(kb: KnowledgeBase, term: string): boolean {
  return kb.db.value('SELECT 1 FROM porter_vocab WHERE term = ?', [stemmer(term)]) !== undefined;
}

/**
 * Substring matches from the trigram index: words the Porter index does not know whole (a piece of
 * an identifier: "rderHandl" finds "OrderHandler"), and every word when the Porter side found
 * little ("handler" then finds "OrderHandler" too). Trigrams narrow the candidates; the chunk's text
 * confirms them, so only real substrings count.
 */
function trigramRanks(kb: KnowledgeBase, terms: string[], filter: Filter, porterFound: number, limit: number): number[] {
  const wide = porterFound < limit * 2;
  const probes = terms.filter((t) => t.length >= 3 && (wide || !knownWord(kb, t)));
  const weights = new Map<number, number>();
  for (const term of probes) {
    const match = trigramMatch([term]);
    if (!match) continue;
    const rows = kb.db.all(
      `SELECT c.id AS id FROM chunks c JOIN sources s ON s.id = c.source_id
       WHERE c.id IN (SELECT rowid FROM fts_trigram WHERE fts_trigram MATCH ? LIMIT ${TRIGRAM_CANDIDATES})
         AND instr(lower(c.title || char(10) || c.body), ?) > 0${filter.sql} LIMIT ${CANDIDATES}`,
      [match, term, ...filter.bind],
    );
    for (const r of rows) weights.set(Number(r.id), (weights.get(Number(r.id)) ?? 0) + 1);
  }
  return [...weights.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/** Reciprocal rank fusion of ranked id lists. */
export function fuse(lists: number[][]): Map<number, number> {
  const scores = new Map<number, number>();
  for (const list of lists) {
    for (const [rank, id] of list.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
  }
  return scores;
}

/** Where in `text` each term occurs (case-insensitive; long words also by their stem-like prefix). */
function occurrences(text: string, terms: string[]): number[][] {
  const lower = text.toLowerCase();
  return terms.map((t) => {
    const needle = t.length > 5 ? t.slice(0, t.length - 2) : t;
    const at: number[] = [];
    for (let i = lower.indexOf(needle); i >= 0 && at.length < 50; i = lower.indexOf(needle, i + 1)) at.push(i);
    return at;
  });
}

/** Smallest window (in characters) holding one occurrence of every term that occurs. */
function smallestSpan(positions: number[][]): { span: number; start: number } {
  const lists = positions.filter((p) => p.length);
  if (!lists.length) return { span: Number.POSITIVE_INFINITY, start: 0 };
  const events = lists.flatMap((p, li) => p.map((pos) => ({ pos, li }))).sort((a, b) => a.pos - b.pos);
  const seen = new Map<number, number>();
  let best = { span: Number.POSITIVE_INFINITY, start: events[0]!.pos };
  let left = 0;
  for (const e of events) {
    seen.set(e.li, (seen.get(e.li) ?? 0) + 1);
    while (seen.size === lists.length) {
      const l = events[left]!;
      const span = e.pos - l.pos;
      if (span < best.span) best = { span, start: l.pos };
      const n = seen.get(l.li)! - 1;
      if (n) seen.set(l.li, n);
      else seen.delete(l.li);
      left++;
    }
  }
  return best;
}

function snippetAt(body: string, at: number): string {
  let start = Math.max(0, at - Math.floor(SNIPPET_CHARS / 3));
  let end = Math.min(body.length, start + SNIPPET_CHARS);
  const lineStart = body.lastIndexOf('\n', at);
  if (lineStart >= start - 40 && lineStart >= 0) start = lineStart + 1;
  const cut = body.lastIndexOf('\n', end);
  if (cut > at + 40) end = cut;
  const text = body.slice(start, end).replace(/\n{3,}/g, '\n\n').trim();
  return `${start > 0 ? '…' : ''}${text}${end < body.length ? '…' : ''}`;
}

/** A candidate chunk with its source, as both backends read it for reranking. */
export interface ChunkRow extends Pick<SourceRow, 'key' | 'kind' | 'label' | 'path' | 'mtime_ms' | 'size' | 'digest'> {
  id: number;
  title: string;
  body: string;
  line_start: number | null;
  line_end: number | null;
}

function runSearch(kb: KnowledgeBase, req: SearchRequest, terms: string[], stat: StatFn | undefined): SearchHit[] {
  const filter = sourceFilter(req);
  const porter = porterRanks(kb, terms, filter, req.limit);
  const fused = fuse([porter, trigramRanks(kb, terms, filter, porter.length, req.limit)]);
  const top = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, RERANK);
  if (!top.length) return [];
  const rows = kb.db.all(
    `SELECT c.id, c.title, c.body, c.line_start, c.line_end, s.key, s.kind, s.label, s.path, s.mtime_ms, s.size, s.digest
     FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.id IN (${top.map(() => '?').join(',')})`,
    top.map(([id]) => id),
  ) as unknown as ChunkRow[];
  return rerank(rows, top, terms, req.limit, stat);
}

/**
 * The fused candidates (id and fused score, best first) reranked by how many query words a chunk
 * holds, how close together and whether in its title; scores scaled so the best is 1.
 */
export function rerank(rows: readonly ChunkRow[], top: readonly [number, number][], terms: string[], limit: number, stat: StatFn | undefined): SearchHit[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const staleBySource = new Map<string, boolean>();
  const hits: SearchHit[] = [];
  for (const [id, rrf] of top) {
    const row = byId.get(id);
    if (!row) continue;
    const where = occurrences(`${row.title}\n${row.body}`, terms);
    const found = where.filter((p) => p.length).length;
    const coverage = terms.length ? found / terms.length : 0;
    const { span } = smallestSpan(where);
    const proximity = terms.length > 1 && Number.isFinite(span) ? 1 / (1 + span / 80) : 0;
    const titleHit = occurrences(row.title, terms).filter((p) => p.length).length / Math.max(1, terms.length);
    const score = rrf * (1 + coverage) * (1 + proximity) * (1 + 0.25 * titleHit);
    const bodyAt = smallestSpan(occurrences(row.body, terms)).start;
    let stale = false;
    if (row.kind === 'file' && row.path && stat) {
      if (!staleBySource.has(row.key)) {
        staleBySource.set(row.key, sourceChanged(row, stat(row.path)));
      }
      stale = staleBySource.get(row.key)!;
    }
    const hit: SearchHit = {
      chunkId: id,
      sourceKey: row.key,
      sourceKind: row.kind,
      label: row.label,
      path: row.path,
      title: row.title,
      snippet: snippetAt(row.body, bodyAt),
      score,
      stale,
    };
    if (row.line_start && row.line_end) hit.lines = [row.line_start, row.line_end];
    hits.push(hit);
  }
  hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  const best = hits[0]?.score ?? 1;
  return hits.slice(0, limit).map((h) => ({ ...h, score: Math.round((h.score / best) * 1000) / 1000 }));
}

export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The index's closest known word to `term`, if close enough. The vocabulary holds Porter stems, so
 * the term is compared stemmed (SQLite's porter tokenizer and `stemmer` implement the same
 * algorithm) and, for misspellings the stemmer cannot undo, by its prefix of the stem's length.
 */
function correctTerm(kb: KnowledgeBase, term: string): string | undefined {
  if (term.length < 4 || /^\d+$/.test(term)) return undefined;
  const max = term.length <= 5 ? 1 : 2;
  const stem = stemmer(term);
  const candidates = kb.db.all('SELECT term, doc FROM porter_vocab WHERE term >= ? AND term < ? LIMIT 5000', [term.slice(0, 1), `${term.slice(0, 1)}\uffff`]);
  let best: { term: string; distance: number; docs: number } | undefined;
  for (const c of candidates) {
    const word = String(c.term);
    if (word === stem) return undefined; // the word is known: nothing to correct
    const byStem = editDistance(stem, word, max);
    const byPrefix = word.length >= 4 && word.length >= term.length / 2 ? editDistance(term.slice(0, word.length), word, max) + 1 : max + 1;
    const d = Math.min(byStem, byPrefix);
    if (d > max) continue;
    const docs = Number(c.doc);
    if (!best || d < best.distance || (d === best.distance && docs > best.docs)) best = { term: word, distance: d, docs };
  }
  return best?.term;
}

export function searchKnowledge(kb: KnowledgeBase, req: SearchRequest, stat?: StatFn): SearchResponse {
  const terms = queryTerms(req.query);
  if (!terms.length) return { terms, hits: [] };
  const hits = runSearch(kb, req, terms, stat);
  if (hits.length) return { terms, hits };
  const corrected = terms.map((t) => correctTerm(kb, t) ?? t);
  if (corrected.every((t, i) => t === terms[i])) return { terms, hits: [] };
  const query = corrected.join(' ');
  const retry = runSearch(kb, { ...req, query }, corrected, stat);
  return retry.length ? { terms, hits: retry, corrected: query } : { terms, hits: [] };
}
