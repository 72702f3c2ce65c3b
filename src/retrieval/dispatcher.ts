// The dispatcher routes by query shape: a symbol goes to the graph first and to the file scan on a
// miss; a phrase goes to both, merged and deduplicated by file:line; a pattern is a regex file scan.
import type { SafePath } from '../security/resolve-safe.ts';
import { escapeRegex } from '../text/linear-regex.ts';
import { scan } from './fileio.ts';
import type { GraphAdapter } from './graph.ts';
import { leafSymbol, phraseTerms, type QueryShape, queryShape } from './query.ts';
import type { Hit, RetrievalDeps } from './types.ts';

export interface DispatchRequest {
  query: string;
  regex: boolean;
  /** Symbols match whole identifiers only (locate, read); search matches them inside names too. */
  wholeWord: boolean;
  ignoreCase: boolean;
  scope: SafePath;
  exclude: readonly string[];
  signal?: AbortSignal;
}

export interface Dispatched {
  shape: QueryShape;
  hits: Hit[];
  capped: boolean;
  /** Matches per file over the whole scope, when the scan was capped. */
  counts?: Map<string, number>;
  strategy: 'graph_symbol' | 'fileio_symbol' | 'fileio_only' | 'fileio+graph_merged' | 'fileio_regex';
  symbol?: string;
  terms: string[];
}

/** A regex (ripgrep and RE2 syntax alike) for lines that may define `symbol`. */
export function definitionProbe(symbol: string): string {
  const s = escapeRegex(symbol);
  return `(?:\\b(?:class|interface|type|struct|enum|union|trait|impl|fn|func|function|def|module|namespace|record|const|let|var|val|macro_rules!)\\s+|#\\s*define\\s+|^[A-Za-z_][\\w \\t*&:<>,]*[ \\t*&])${s}\\b`;
}

export async function dispatch(deps: RetrievalDeps, graph: GraphAdapter, req: DispatchRequest): Promise<Dispatched> {
  const shape = queryShape(req.query, req.regex);
  deps.logger.log('dispatch', { query: req.query, shape, graphAvailable: graph.available });
  let out: Dispatched;
  if (shape === 'symbol') {
    const symbol = leafSymbol(req.query);
    const fromGraph = graph.available ? await graph.searchSymbol(symbol) : [];
    if (fromGraph.length) {
      out = { shape, hits: fromGraph, capped: false, strategy: 'graph_symbol', symbol, terms: [symbol.toLowerCase()] };
    } else {
      deps.logger.log('dispatch_graph_miss', { query: req.query, shape });
      const r = await scan(deps, { pattern: symbol, literal: true, wordBoundary: req.wholeWord, ignoreCase: req.ignoreCase, scope: req.scope, exclude: req.exclude, symbol, signal: req.signal });
      let hits = r.hits;
      if (r.capped) {
        // Too common to collect every use: make sure its definitions are among the hits anyway.
        const defs = await scan(deps, { pattern: definitionProbe(symbol), literal: false, wordBoundary: false, ignoreCase: false, scope: req.scope, exclude: req.exclude, symbol, signal: req.signal });
        const seen = new Set(hits.map((h) => `${h.file}:${h.line}`));
        hits = [...hits, ...defs.hits.filter((h) => h.kind === 'definition' && !seen.has(`${h.file}:${h.line}`))];
      }
      out = { shape, hits, capped: r.capped, counts: r.counts, strategy: 'fileio_symbol', symbol, terms: [symbol.toLowerCase()] };
    }
  } else if (shape === 'phrase') {
    const terms = phraseTerms(req.query);
    const pattern = terms.map(escapeRegex).join('|') || escapeRegex(req.query.trim());
    const r = await scan(deps, { pattern, literal: false, wordBoundary: false, ignoreCase: true, scope: req.scope, exclude: req.exclude, signal: req.signal });
    const fromGraph = graph.available ? await graph.searchSymbol(req.query) : [];
    const seen = new Set(r.hits.map((h) => `${h.file}:${h.line}`));
    const merged = [...r.hits, ...fromGraph.filter((h) => !seen.has(`${h.file}:${h.line}`))];
    out = { shape, hits: merged, capped: r.capped, counts: r.counts, strategy: fromGraph.length ? 'fileio+graph_merged' : 'fileio_only', terms };
  } else {
    const r = await scan(deps, { pattern: req.query, literal: false, wordBoundary: false, ignoreCase: req.ignoreCase, scope: req.scope, exclude: req.exclude, signal: req.signal });
    out = { shape, hits: r.hits, capped: r.capped, counts: r.counts, strategy: 'fileio_regex', terms: phraseTerms(req.query) };
  }
  deps.logger.log('dispatch_result', { query: req.query, strategy: out.strategy, count: out.hits.length });
  return out;
}
