// dispatch → shape → gate, shared by locate and search.
import * as path from 'node:path';
import type { SafePath } from '../security/resolve-safe.ts';
import { type Dispatched, dispatch } from './dispatcher.ts';
import { type GateDecision, gate, type RefusalCounter } from './gatekeeper.ts';
import type { GraphAdapter } from './graph.ts';
import type { Kind } from './kinds.ts';
import { definitionsFirst, rankHits } from './ranking.ts';
import type { ResultItem, RetrievalDeps } from './types.ts';

export interface GateRequest {
  tool: string;
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
  dispatched: Dispatched;
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
  let dispatched = await dispatch(deps, graph, { ...dispatchRequest, refuseAt });
  // A call of the same session (parallel tool calls) may have reached the deadlock cap meanwhile: the
  // gate will open, and an answer from a sample would be the sample's hits only. Nothing awaits from
  // here to the gate, so no other call can change the count in between.
  if (dispatched.sampled && !canRefuse()) dispatched = await dispatch(deps, graph, dispatchRequest);
  const hits = req.kinds ? dispatched.hits.filter((h) => req.kinds!.includes(h.kind)) : dispatched.hits;
  const mtimes = new Map<string, number>();
  for (const file of new Set(hits.map((h) => h.file))) {
    mtimes.set(file, deps.runtime.fs.statSync(path.join(req.scope.workdir, file))?.mtimeMs ?? 0);
  }
  // Definition blocks come scored by the backend's full-text ranking; line hits are ranked here.
  const items =
    dispatched.strategy === 'graph_blocks'
      ? hits.map((h) => ({ ...h, score: h.blockScore ?? 0 })).sort((a, b) => b.score - a.score)
      : rankHits({ hits, terms: dispatched.terms, symbol: dispatched.symbol, mtimes }, deps.config);
  // Kind filters apply to the collected hits only; whole-scope counts describe every match.
  const counts = req.kinds ? undefined : dispatched.counts;
  const decision = gate(
    { items, counts, estimate: dispatched.estimate, capped: dispatched.capped, force: req.force, query: req.query, scope: req.scope.relative, shape: dispatched.shape, regex: req.regex, maxHits: req.maxHits, relevanceOnly: req.relevanceOnly },
    deps.config,
    refusals,
  );
  deps.logger.log('gate', { tool: req.tool, pass: decision.pass, reason: decision.pass ? null : decision.envelope.reason });
  // After the gate: it judges the best score, wherever the answer then lists it.
  const symbolic = dispatched.strategy === 'graph_symbol' || dispatched.strategy === 'fileio_symbol';
  return { dispatched, items: req.definitionsFirst && symbolic ? definitionsFirst(items) : items, decision };
}
