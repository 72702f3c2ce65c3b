// Knowledge-base search on Postgres, with the same steps and reply shape as search.ts on SQLite:
// stemmed full text (the weighted tsvector, ranked by ts_rank_cd; every word first, any word when
// that finds little) and substrings through the pg_trgm index on each chunk's distinct words, fused
// by reciprocal rank and reranked by the shared rerank(). When nothing matches, each word is
// corrected to the closest word the chunks hold (pg_trgm's word similarity narrows, edit distance
// decides) and the search runs once more. User text reaches SQL only as bound parameters.
import type { Sql } from '../storage/postgres/connection.ts';
import { CANDIDATES, type ChunkRow, editDistance, fuse, queryTerms, RERANK, rerank, type SearchHit, type SearchRequest, type SearchResponse, type StatFn } from './search.ts';

interface Scope {
  sql: Sql;
  projectKey: string;
  req: SearchRequest;
}

function filter({ sql, req }: Scope) {
  const source = req.source?.toLowerCase();
  return sql`${source ? sql`AND (strpos(lower(s.label), ${source}) > 0 OR strpos(lower(s.key), ${source}) > 0)` : sql``}
    ${req.sourceIds ? sql`AND s.id = ANY(${req.sourceIds.map(Number)}::bigint[])` : sql``}`;
}

async function textQuery(scope: Scope, query: string, websearch: boolean): Promise<number[]> {
  const { sql, projectKey } = scope;
  const q = websearch ? sql`websearch_to_tsquery('english', ${query})` : sql`plainto_tsquery('english', ${query})`;
  const rows = await sql`SELECT c.id FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id
    WHERE c.project_key = ${projectKey} AND c.tsv @@ ${q} ${filter(scope)}
    ORDER BY ts_rank_cd(c.tsv, ${q}) DESC, c.id LIMIT ${CANDIDATES}`;
  return rows.map((r) => Number(r.id));
}

/** Chunks holding every word first (few, precise); any word only when that finds too little. */
async function stemmedRanks(scope: Scope, terms: string[]): Promise<number[]> {
  const all = await textQuery(scope, terms.join(' '), false);
  if (terms.length === 1 || all.length >= scope.req.limit * 2) return all;
  const seen = new Set(all);
  const any = await textQuery(scope, terms.join(' or '), true);
  return [...all, ...any.filter((id) => !seen.has(id))].slice(0, CANDIDATES);
}

const likeEscape = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Substring matches (a piece of an identifier), confirmed against the chunk's text. */
async function substringRanks(scope: Scope, terms: string[], stemmedFound: number): Promise<number[]> {
  const { sql, projectKey, req } = scope;
  const wide = stemmedFound < req.limit * 2;
  const weights = new Map<number, number>();
  for (const term of terms) {
    if (term.length < 3) continue;
    if (!wide) {
      // A whole word the stemmed side knows already needs no substring probe.
      const [known] = await sql`SELECT 1 AS one FROM kb_chunks WHERE project_key = ${projectKey} AND tsv @@ plainto_tsquery('english', ${term}) LIMIT 1`;
      if (known) continue;
    }
    const rows = await sql`SELECT c.id FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id
      WHERE c.project_key = ${projectKey} AND c.words LIKE ${`%${likeEscape(term)}%`}
        AND strpos(lower(c.title || E'\n' || c.body), ${term}) > 0 ${filter(scope)}
      LIMIT ${CANDIDATES}`;
    for (const r of rows) weights.set(Number(r.id), (weights.get(Number(r.id)) ?? 0) + 1);
  }
  return [...weights.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

async function runSearch(scope: Scope, terms: string[], stat: StatFn | undefined): Promise<SearchHit[]> {
  const { sql } = scope;
  const stemmed = await stemmedRanks(scope, terms);
  const fused = fuse([stemmed, await substringRanks(scope, terms, stemmed.length)]);
  const top = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, RERANK);
  if (!top.length) return [];
  const rows = await sql`SELECT c.id, c.title, c.body, c.line_start, c.line_end, s.key, s.kind, s.label, s.path, s.mtime_ms, s.size
    FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id WHERE c.id = ANY(${top.map(([id]) => id)}::bigint[])`;
  const chunks: ChunkRow[] = rows.map((r) => ({
    id: Number(r.id),
    title: String(r.title),
    body: String(r.body),
    line_start: r.line_start === null ? null : Number(r.line_start),
    line_end: r.line_end === null ? null : Number(r.line_end),
    key: String(r.key),
    kind: r.kind,
    label: String(r.label),
    path: r.path === null ? null : String(r.path),
    mtime_ms: r.mtime_ms === null ? null : Number(r.mtime_ms),
    size: r.size === null ? null : Number(r.size),
  }));
  return rerank(chunks, top, terms, scope.req.limit, stat);
}

/** The closest word the project's chunks hold, when `term` is not one of them and one is close enough. */
async function correctTerm(scope: Scope, term: string): Promise<string | undefined> {
  if (term.length < 4 || /^\d+$/.test(term)) return undefined;
  const max = term.length <= 5 ? 1 : 2;
  const rows = await scope.sql`SELECT words FROM kb_chunks WHERE project_key = ${scope.projectKey} AND ${term} <% words LIMIT 50`;
  const counts = new Map<string, number>();
  for (const r of rows) for (const w of String(r.words).split(' ')) if (Math.abs(w.length - term.length) <= max) counts.set(w, (counts.get(w) ?? 0) + 1);
  if (counts.has(term)) return undefined;
  let best: { word: string; distance: number; docs: number } | undefined;
  for (const [word, docs] of counts) {
    const d = editDistance(term, word, max);
    if (d > max) continue;
    if (!best || d < best.distance || (d === best.distance && docs > best.docs)) best = { word, distance: d, docs };
  }
  return best?.word;
}

export async function searchPostgres(sql: Sql, projectKey: string, req: SearchRequest, stat?: StatFn): Promise<SearchResponse> {
  const terms = queryTerms(req.query);
  if (!terms.length) return { terms, hits: [] };
  const scope = { sql, projectKey, req };
  const hits = await runSearch(scope, terms, stat);
  if (hits.length) return { terms, hits };
  const corrected: string[] = [];
  for (const t of terms) corrected.push((await correctTerm(scope, t)) ?? t);
  if (corrected.every((t, i) => t === terms[i])) return { terms, hits: [] };
  const query = corrected.join(' ');
  const retry = await runSearch({ ...scope, req: { ...req, query } }, corrected, stat);
  return retry.length ? { terms, hits: retry, corrected: query } : { terms, hits: [] };
}
