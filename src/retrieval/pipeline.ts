// dispatch → shape → gate, shared by locate and search.
import * as path from 'node:path';
import type { SafePath } from '../security/resolve-safe.ts';
import { compilePattern } from '../workspace/grep/matcher.ts';
import { type Dispatched, dispatch } from './dispatcher.ts';
import { dispatchExact, type ExactDispatched } from './exact.ts';
import { scopeTotals } from './estimate.ts';
import { scan } from './fileio.ts';
import { type GateDecision, gate, type RefusalCounter } from './gatekeeper.ts';
import type { GraphAdapter } from './graph.ts';
import type { Kind } from './kinds.ts';
import { definitionsFirst, rankHits } from './ranking.ts';
import type { Hit, ResultItem, RetrievalDeps } from './types.ts';
import type { WordsDispatched } from './words.ts';

export interface GateRequest {
  tool: string;
  /** The query is a literal (search with regex false): its exact lines, then in another case (issue 20). */
  exact?: boolean;
  query: string;
  regex: boolean;
  wholeWord: boolean;
  scope: SafePath;
  exclude: readonly string[];
  force: boolean;
  /** Only these kinds count (locate kind=definition|reference). */
  kinds?: readonly Kind[];
  maxHits?: number;
  relevanceOnly?: boolean;
  /** A symbol's definitions come before its uses in the answer (locate's default kind). */
  definitionsFirst?: boolean;
  ignoreCase?: boolean;
  signal?: AbortSignal;
}

export interface GateOutcome {
  dispatched: Dispatched | ExactDispatched;
  items: ResultItem[];
  decision: GateDecision;
}

export async function runGated(deps: RetrievalDeps & { graph: GraphAdapter }, refusals: RefusalCounter, req: GateRequest): Promise<GateOutcome> {
  const graph = deps.graph;
  // Where the gate will refuse whatever else the scan finds: more matching files and more hits than
  // it allows (both axes broken is a compound refusal). Not when it will open anyway (force, the
  // deadlock cap) or judges something else (kinds, relevance only).
  const gates = deps.config.gates;
  const canRefuse = () => !req.force && !req.kinds && !req.relevanceOnly && refusals.refusals < deps.config.limits.maxRefusals;
  const refuseAt = canRefuse() ? { files: gates.maxFiles, hits: req.maxHits ?? gates.maxHits } : undefined;
  const dispatchRequest = { query: req.query, regex: req.regex, wholeWord: req.wholeWord, ignoreCase: req.ignoreCase ?? false, scope: req.scope, exclude: req.exclude, definitionsOnly: req.kinds?.length === 1 && req.kinds[0] === 'definition', signal: req.signal };
  const route = req.exact ? dispatchExact : dispatch;
  let dispatched: Dispatched | ExactDispatched = await route(deps, graph, { ...dispatchRequest, refuseAt });
  // An exact word too common to answer: what whole-word matching would yield is worth a second count
  // (only when a refusal is likely; the same refusal bounds keep it cheap).
  const probe = req.exact && refuseAt && !('caseFolded' in dispatched && dispatched.caseFolded) && WORD.test(req.query) && tooBroad(dispatched, refuseAt) && !wholeWordHopeless(dispatched, req.query, refuseAt);
  const wholeWord = probe ? await wholeWordCount(deps, req, refuseAt) : undefined;
  // A call of the same session (parallel tool calls) may have reached the deadlock cap meanwhile: the
  // gate will open, and an answer from a sample would be the sample's hits only. Once the cap is
  // reached, no other call can make this one refusable again but by a pass (full counts then).
  if (dispatched.sampled && !canRefuse()) dispatched = await route(deps, graph, dispatchRequest);
  const hits = req.kinds ? dispatched.hits.filter((h) => req.kinds!.includes(h.kind)) : dispatched.hits;
  const mtimes = modified(deps, req.scope.workdir, hits);
  const items = ranked(deps, hits, dispatched, mtimes);
  // Kind filters apply to the collected hits only; whole-scope counts describe every match.
  const counts = req.kinds ? undefined : dispatched.counts;
  const input = { items, counts, estimate: dispatched.estimate, capped: dispatched.capped, force: req.force, query: req.query, scope: req.scope.relative, shape: dispatched.shape, regex: req.regex, maxHits: req.maxHits, relevanceOnly: req.relevanceOnly, exact: req.exact };
  const decision = gate({ ...input, ...(wholeWord ? { wholeWord } : {}) }, deps.config, refusals);
  deps.logger.log('gate', { tool: req.tool, pass: decision.pass, reason: decision.pass ? null : decision.envelope.reason });
  // After the gate: it judges the best score, wherever the answer then lists it.
  const symbolic = dispatched.strategy === 'graph_symbol' || dispatched.strategy === 'fileio_symbol';
  return { dispatched, items: req.definitionsFirst && symbolic ? definitionsFirst(items) : items, decision };
}

/** Each hit's file's modification time (recency). */
function modified(deps: RetrievalDeps, workdir: string, hits: readonly Hit[]): Map<string, number> {
  const mtimes = new Map<string, number>();
  for (const file of new Set(hits.map((h) => h.file))) mtimes.set(file, deps.runtime.fs.statSync(path.join(workdir, file))?.mtimeMs ?? 0);
  return mtimes;
}

/** Definition blocks come scored by the backend's full-text ranking; line hits are ranked here. */
function ranked(deps: RetrievalDeps, hits: Hit[], dispatched: Pick<Dispatched, 'strategy' | 'terms' | 'symbol'>, mtimes: Map<string, number>): ResultItem[] {
  if (dispatched.strategy === 'graph_blocks') return hits.map((h) => ({ ...h, score: h.blockScore ?? 0 })).sort((a, b) => b.score - a.score);
  return rankHits({ hits, terms: dispatched.terms, symbol: dispatched.symbol, mtimes }, deps.config);
}

/** The hits of an answer in words, ranked (not gated: the best few are shown). */
export function rankWords(deps: RetrievalDeps, workdir: string, dispatched: WordsDispatched): ResultItem[] {
  return ranked(deps, dispatched.hits, dispatched, modified(deps, workdir, dispatched.hits));
}

/** Whether the scan found more matching files or hits than the gate allows (a refusal is likely). */
function tooBroad(d: Dispatched, limits: { files: number; hits: number }): boolean {
  if (d.sampled) return true;
  const { hits, files } = d.counts ? scopeTotals(d.counts) : { hits: d.hits.length, files: new Set(d.hits.map((h) => h.file)).size };
  return files > limits.files || hits > limits.hits;
}

/**
 * Whether a refusal's sample shows that whole-word matching could not pass the gate (its suggestion
 * is offered only then): the share of the sample's lines and files holding the word whole, applied
 * to the estimate, is still over twice both limits — then it is not counted (a second scan of the
 * same sample, ~10 % of a new server's first refusal).
 */
function wholeWordHopeless(d: Dispatched, word: string, limits: { files: number; hits: number }): boolean {
  if (!d.sampled || !d.counts || !d.hits.length) return false;
  // The word boundary the whole-word count would scan with (ripgrep's: any script's letters and digits).
  const whole = compilePattern({ pattern: word, literal: true, ignoreCase: false, wordBoundary: true });
  const files = new Set<string>();
  const wholeFiles = new Set<string>();
  let wholeLines = 0;
  for (const h of d.hits) {
    files.add(h.file);
    if (!whole.test(h.text)) continue;
    wholeLines++;
    wholeFiles.add(h.file);
  }
  const all = scopeTotals(d.counts, d.estimate?.expected);
  return all.hits * (wholeLines / d.hits.length) > 2 * limits.hits && all.files * (wholeFiles.size / files.size) > 2 * limits.files;
}

/** A word whole-word matching can narrow (`\b` sees only letters, digits and underscores). */
const WORD = /^\w+$/;

/** Matches and matching files of the query as a whole word over the scope (estimated when a sample proves it too broad). */
async function wholeWordCount(deps: RetrievalDeps, req: GateRequest, refuseAt: { files: number; hits: number }): Promise<{ hits: number; files: number; estimated: boolean }> {
  const r = await scan(deps, { pattern: req.query, literal: true, wordBoundary: true, ignoreCase: false, scope: req.scope, exclude: req.exclude, refuseAt, signal: req.signal });
  if (!r.counts) return { hits: r.hits.length, files: new Set(r.hits.map((h) => h.file)).size, estimated: false };
  const { hits, files } = scopeTotals(r.counts, r.estimate?.expected);
  return { hits: Math.round(hits), files: Math.round(files), estimated: r.estimate !== undefined };
}
