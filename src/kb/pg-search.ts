// Knowledge-base search on Postgres, with the same steps and reply shape as search.ts on SQLite:
// stemmed full text (the weighted tsvector, ranked by ts_rank_cd; every word first, any word when
// that finds little) and substrings — the project's words that contain the term (pg_trgm index on
// the vocabulary, pg-vocabulary.ts), their chunks through the stemmed index, each confirmed against
// the text — fused by reciprocal rank and reranked by the shared rerank(). When nothing matches,
// each word is corrected to the closest word of the vocabulary (trigram similarity narrows, edit
// distance decides) and the search runs once more. User text reaches SQL only as bound parameters.
import { sep } from 'node:path';
import type { Sql } from '../storage/postgres/connection.ts';
import type { SharedPaths } from './shared-paths.ts';
import { CANDIDATES, type ChunkRow, editDistance, queryTerms, RERANK, RRF_K, rerank, type SearchHit, type SearchRequest, type SearchResponse, type StatFn } from './search.ts';

interface Scope {
  paths: SharedPaths;
  sql: Sql;
  projectKey: string;
  req: SearchRequest;
}

/**
 * The source filter as the rows hold it. A hit shows this machine's key and path (`file:/home/me/proj/docs/a.md`),
 * while files under the project root are stored relative to it (`file:docs/a.md`): a key or an
 * absolute path under the root is translated as saving translates it, so what a hit shows finds it again.
 */
function storedFilter(source: string, paths: SharedPaths): { contains: string; keyPrefix?: string } {
  const contains = source.toLowerCase();
  const key = paths.sharedKey(source);
  if (key !== source) return { contains, keyPrefix: key.toLowerCase() };
  const asPath = paths.sharedPath(source);
  if (asPath !== source) return { contains, keyPrefix: `file:${asPath}`.toLowerCase() };
  // The project root itself: every file under it.
  if (paths.sharedPath(source + sep) === '') return { contains, keyPrefix: 'file:' };
  return { contains };
}

function filter({ sql, req, paths }: Scope) {
  const source = req.source ? storedFilter(req.source, paths) : undefined;
  const translated = source?.keyPrefix !== undefined ? sql`OR starts_with(lower(s.key), ${source.keyPrefix})` : sql``;
  return sql`${source ? sql`AND (strpos(lower(s.label), ${source.contains}) > 0 OR strpos(lower(s.key), ${source.contains}) > 0 ${translated})` : sql``}
    ${req.sourceIds ? sql`AND s.id = ANY(${req.sourceIds.map(Number)}::bigint[])` : sql``}`;
}

/** Words of the vocabulary a substring probe looks for at most (the shortest: closest to the term). */
const SUBSTRING_WORDS = 200;

const likeEscape = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One round trip: every candidate list, their fusion and the fused candidates' text. The lists:
 * chunks holding every word (ts_rank_cd order); chunks holding any word, only when that found too
 * little; and per word, chunks holding it as a substring (the vocabulary's words that contain it,
 * their chunks through the stemmed index, confirmed against the text) — every word when the stemmed
 * side found little, else only words it does not know whole ("rderHandl" finds "OrderHandler").
 * They are fused by reciprocal rank exactly as fuse() does on SQLite (search.ts): the stemmed list
 * is the every-word hits then the other any-word hits, the substring list is ordered by how many
 * words a chunk matched; ties keep the order fuse() sees ids in (stemmed first). A search was two
 * round trips (the ids, then their text); on a busy machine each wait for the server costs more
 * than the query itself.
 */
async function fusedCandidates(scope: Scope, terms: string[]): Promise<{ rows: ChunkRow[]; top: [number, number][] }> {
  const { sql, projectKey, req } = scope;
  const enough = req.limit * 2;
  const probes = terms.filter((t) => t.length >= 3);
  const found = await sql`
    WITH q AS (SELECT plainto_tsquery('english', ${terms.join(' ')}) AS every, websearch_to_tsquery('english', ${terms.join(' or ')}) AS some),
    every_word AS (
      SELECT c.id, row_number() OVER (ORDER BY ts_rank_cd(c.tsv, q.every) DESC, c.id) AS rank
      FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id, q
      WHERE c.project_key = ${projectKey} AND c.tsv @@ q.every ${filter(scope)}
      ORDER BY rank LIMIT ${CANDIDATES}),
    some_word AS (
      SELECT c.id, row_number() OVER (ORDER BY ts_rank_cd(c.tsv, q.some) DESC, c.id) AS rank
      FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id, q
      WHERE ${terms.length > 1} AND (SELECT count(*) FROM every_word) < ${enough}
        AND c.project_key = ${projectKey} AND c.tsv @@ q.some ${filter(scope)}
      ORDER BY rank LIMIT ${CANDIDATES}),
    probe AS (
      SELECT p.term, p.pattern FROM unnest(${probes}::text[], ${probes.map((t) => `%${likeEscape(t)}%`)}::text[]) AS p(term, pattern)
      WHERE (SELECT count(*) FROM every_word) + (SELECT count(*) FROM some_word) < ${enough}
         OR NOT EXISTS (SELECT 1 FROM kb_chunks k WHERE k.project_key = ${projectKey} AND k.tsv @@ plainto_tsquery('english', p.term))),
    probe_query AS (
      SELECT p.term, (SELECT to_tsquery('english', string_agg(w.word, ' | ')) FROM (
        SELECT v.word FROM kb_words v WHERE v.project_key = ${projectKey} AND v.word LIKE p.pattern ORDER BY length(v.word), v.word LIMIT ${SUBSTRING_WORDS}) AS w) AS query
      FROM probe p),
    substring_match AS (
      SELECT m.id FROM probe_query p CROSS JOIN LATERAL (
        SELECT c.id FROM kb_chunks c JOIN kb_sources s ON s.id = c.source_id
        WHERE c.project_key = ${projectKey} AND c.tsv @@ p.query AND strpos(lower(c.title || E'\n' || c.body), p.term) > 0 ${filter(scope)}
        LIMIT ${CANDIDATES}) AS m),
    stemmed AS (
      SELECT id, row_number() OVER (ORDER BY list, rank) AS pos FROM (
        SELECT id, 0 AS list, rank FROM every_word
        UNION ALL SELECT id, 1, rank FROM some_word WHERE id NOT IN (SELECT id FROM every_word)) AS l),
    substring_list AS (
      SELECT id, row_number() OVER (ORDER BY count(*) DESC, id) AS pos FROM substring_match GROUP BY id),
    fused AS (
      SELECT id, sum(1.0::float8 / (${RRF_K}::int + pos)) AS score, min(seen) AS seen FROM (
        SELECT id, pos, pos AS seen FROM stemmed WHERE pos <= ${CANDIDATES}
        UNION ALL SELECT id, pos, ${CANDIDATES}::int + pos FROM substring_list) AS f
      GROUP BY id ORDER BY score DESC, seen LIMIT ${RERANK})
    SELECT f.score, c.id, c.title, c.body, c.line_start, c.line_end, s.key, s.kind, s.label, s.path, s.mtime_ms, s.size, s.digest
    FROM fused f JOIN kb_chunks c ON c.id = f.id JOIN kb_sources s ON s.id = c.source_id
    ORDER BY f.score DESC, f.seen`;
  const rows: ChunkRow[] = found.map((r) => ({
    id: Number(r.id),
    title: String(r.title),
    body: String(r.body),
    line_start: r.line_start === null ? null : Number(r.line_start),
    line_end: r.line_end === null ? null : Number(r.line_end),
    key: scope.paths.localKey(String(r.key)),
    kind: r.kind,
    label: String(r.label),
    path: r.path === null ? null : scope.paths.localPath(String(r.path)),
    mtime_ms: r.mtime_ms === null ? null : Number(r.mtime_ms),
    size: r.size === null ? null : Number(r.size),
    digest: r.digest === null ? null : String(r.digest),
  }));
  return { rows, top: found.map((r) => [Number(r.id), Number(r.score)]) };
}

async function runSearch(scope: Scope, terms: string[], stat: StatFn | undefined): Promise<SearchHit[]> {
  const { rows, top } = await fusedCandidates(scope, terms);
  if (!top.length) return [];
  return rerank(rows, top, terms, scope.req.limit, stat);
}

/** The closest word of the project's vocabulary, when `term` is not one of its words and one is close enough. */
async function correctTerm(scope: Scope, term: string): Promise<string | undefined> {
  if (term.length < 4 || /^\d+$/.test(term)) return undefined;
  const max = term.length <= 5 ? 1 : 2;
  const rows = await scope.sql`SELECT word, similarity(word, ${term}) AS score FROM kb_words
    WHERE project_key = ${scope.projectKey} AND word % ${term} AND abs(length(word) - ${term.length}) <= ${max}
    ORDER BY score DESC, word LIMIT 50`;
  if (rows.some((r) => r.word === term)) return undefined;
  let best: { word: string; distance: number; score: number } | undefined;
  for (const r of rows) {
    const word = String(r.word);
    const d = editDistance(term, word, max);
    if (d > max) continue;
    const score = Number(r.score);
    if (!best || d < best.distance || (d === best.distance && score > best.score)) best = { word, distance: d, score };
  }
  return best?.word;
}

export async function searchPostgres(sql: Sql, projectKey: string, req: SearchRequest, stat: StatFn | undefined, paths: SharedPaths): Promise<SearchResponse> {
  const terms = queryTerms(req.query);
  if (!terms.length) return { terms, hits: [] };
  const scope = { sql, projectKey, req, paths };
  const hits = await runSearch(scope, terms, stat);
  if (hits.length) return { terms, hits };
  const corrected: string[] = [];
  for (const t of terms) corrected.push((await correctTerm(scope, t)) ?? t);
  if (corrected.every((t, i) => t === terms[i])) return { terms, hits: [] };
  const query = corrected.join(' ');
  const retry = await runSearch({ ...scope, req: { ...req, query } }, corrected, stat);
  return retry.length ? { terms, hits: retry, corrected: query } : { terms, hits: [] };
}
