// A literal search (issue 20): the lines that hold the text exactly as typed, as `rg -F` prints
// them — then, only when there are none, ignoring case. Each line stays a row of its own; the code
// index may say what a line is (the definition of the name, a call, a type use) and give a
// definition's range, never replace the line.
import { languageOf } from '../code/languages.ts';
import { type Dispatched, type DispatchRequest, definitionInfo, fromScan, useKinds } from './dispatcher.ts';
import { kindsByLine, scan } from './fileio.ts';
import type { GraphAdapter } from './graph.ts';
import { isTestPath, type Kind } from './kinds.ts';
import type { Hit, RetrievalDeps } from './types.ts';

/** A name the code index knows definitions and uses of (a bare identifier). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export interface ExactDispatched extends Dispatched {
  /** Nothing held the text as typed: these lines hold it in another case. */
  caseFolded: boolean;
}

export async function dispatchExact(deps: RetrievalDeps, graph: GraphAdapter, req: DispatchRequest): Promise<ExactDispatched> {
  const text = req.query;
  const symbol = IDENTIFIER.test(text) ? text : undefined;
  deps.logger.log('dispatch', { query: text, shape: 'literal', graph: graph.name });
  const base = { pattern: text, literal: true, wordBoundary: false, scope: req.scope, exclude: req.exclude, refuseAt: req.refuseAt, signal: req.signal, ...(symbol ? { symbol, definitionsByIndex: true } : {}) };
  let r = await scan(deps, { ...base, ignoreCase: false });
  let caseFolded = false;
  if (!r.hits.length && !r.capped && !req.signal?.aborted) {
    const folded = await scan(deps, { ...base, ignoreCase: true });
    if (folded.hits.length || folded.capped) {
      r = folded;
      caseFolded = true;
    }
  }
  // A refusal's sample (its kinds give only the top score) asks neither the index nor the definition
  // pattern (compiled per name on RE2: ~20 ms of a new server's first search): in files with a
  // grammar its lines are calls, references, strings or comments as the line says.
  const hits = symbol && !r.sampled ? (await classified(graph, symbol, r.hits)) || kindsByLine(r.hits, symbol) : r.hits;
  deps.logger.log('dispatch_result', { query: text, strategy: 'fileio_literal', count: hits.length, caseFolded });
  return { shape: symbol ? 'symbol' : 'phrase', hits, ...fromScan(r), strategy: 'fileio_literal', ...(symbol ? { symbol } : {}), terms: [text.toLowerCase()], caseFolded };
}

/**
 * The scanned lines as the code index sees them: a definition line of the name (or one of its
 * overload signatures) is a definition with its range; other lines take the kind of their use.
 * Undefined when the index cannot answer (the line heuristics' kinds stand).
 */
async function classified(graph: GraphAdapter, symbol: string, scanned: Hit[]): Promise<Hit[] | undefined> {
  if (!scanned.length) return scanned;
  // Locals and parameters too: their declaration line is a (local) definition, not a use.
  const defs = await graph.definitions(symbol, undefined, { locals: true });
  if (!defs) return undefined;
  // What each line does with the name, unresolved: a call of another `f` is a call of the name too.
  const uses = await graph.uses(symbol, undefined, new Set(scanned.map((h) => h.file)), { kindsOnly: true });
  const defAt = new Map<string, (typeof defs)[number]>();
  const overloadLines = new Set<string>();
  for (const d of defs) {
    defAt.set(`${d.file}:${d.line}`, d);
    for (const o of d.overloads) overloadLines.add(`${d.file}:${o.line}`);
  }
  const useKind = useKinds(uses);
  return scanned.map((h) => {
    const key = `${h.file}:${h.line}`;
    const test = isTestPath(h.file);
    const d = defAt.get(key);
    if (d) return { ...h, kind: (test ? 'test' : 'definition') as Kind, def: definitionInfo(d) };
    // An overload signature declares the name too; its range is the implementation's, not its own.
    if (overloadLines.has(key)) return { ...h, kind: (test ? 'test' : 'definition') as Kind };
    // Files without a grammar keep the line heuristics' verdict.
    if (!languageOf(h.file)) return h;
    // The others were scanned without the definition heuristics (definitionsByIndex): a line the
    // index knows no use on keeps what the line says (a call, a string, a comment).
    const known = useKind.get(key);
    return { ...h, kind: test ? 'test' : (known ?? h.kind) };
  });
}
