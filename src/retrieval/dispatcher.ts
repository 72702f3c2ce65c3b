// The dispatcher routes by query shape. A symbol: the file scan finds every line that names it, and
// the graph (when it can answer) supplies the definitions — true ranges, overloads folded into their
// implementation, documentation never a definition — and says what each other line is (a call, a
// type use, an import, a mention). A phrase: definition blocks ranked by the graph's full-text index
// when it has any, else the file scan. A pattern is a regex file scan.
import { languageOf } from '../code/languages.ts';
import type { SafePath } from '../security/resolve-safe.ts';
import { escapeRegex } from '../text/linear-regex.ts';
import type { SkippedFile } from '../workspace/grep/types.ts';
import type { Estimate } from './estimate.ts';
import { type ScanResult, scan } from './fileio.ts';
import type { Definition, Definitions, GraphAdapter, Uses } from './graph.ts';
import { isTestPath, type Kind, mayDefineByLine } from './kinds.ts';
import { leafSymbol, ownerSymbol, phraseTerms, type QueryShape, queryShape } from './query.ts';
import { definitionStrength, localLabel } from '../code/graph.ts';
import type { Hit, RetrievalDeps } from './types.ts';

export interface DispatchRequest {
  query: string;
  regex: boolean;
  /** Symbols match whole identifiers only (locate, read); search matches them inside names too. */
  wholeWord: boolean;
  ignoreCase: boolean;
  scope: SafePath;
  exclude: readonly string[];
  /** Only definitions are wanted (locate kind=definition): the other lines need no classifying. */
  definitionsOnly?: boolean;
  /** The gate will refuse past these (see ScanRequest.refuseAt). */
  refuseAt?: { files: number; hits: number };
  signal?: AbortSignal;
}

export interface Dispatched {
  shape: QueryShape;
  hits: Hit[];
  capped: boolean;
  /** Matches per file over the whole scope, when the scan was capped (or blocks per file). */
  counts?: Map<string, number>;
  /** The scan read a sample that proved a refusal: counts are the files read, this estimates the rest. */
  estimate?: Estimate;
  /** The hits are the lines of a sample of the files only (a refusal proved; see ScanResult.sampled). */
  sampled?: boolean;
  /** Files the built-in engine could not search in time: their matches are missing. */
  skipped?: SkippedFile[];
  /** The graph's definitions came from part of the files naming the symbol (Definitions.partial): more may exist. */
  partial?: boolean;
  strategy: 'graph_symbol' | 'fileio_symbol' | 'fileio_only' | 'graph_blocks' | 'fileio_regex' | 'fileio_literal' | 'fileio_words';
  symbol?: string;
  terms: string[];
}

/** A regex (ripgrep and RE2 syntax alike) for lines that may define `symbol`. */
export function definitionProbe(symbol: string): string {
  const s = escapeRegex(symbol);
  return `(?:\\b(?:class|interface|type|struct|enum|union|trait|impl|fn|func|function|def|module|namespace|record|const|let|var|val|macro_rules!)\\s+|#\\s*define\\s+|^[A-Za-z_][\\w \\t*&:<>,]*[ \\t*&])${s}\\b`;
}

/** A definition from the graph as a hit (its text is the signature). */
export function definitionHit(d: Definition): Hit {
  return {
    file: d.file,
    line: d.line,
    text: d.signature,
    matchIndex: Math.max(-1, d.signature.indexOf(d.name)),
    kind: isTestPath(d.file) ? 'test' : 'definition',
    source: 'graph',
    def: definitionInfo(d),
  };
}

/** What a hit carries of the definition it is: its range, strength, overloads, container, local label, declarations. */
export function definitionInfo(d: Definition): NonNullable<Hit['def']> {
  return {
    start: d.start,
    end: d.end,
    strength: definitionStrength(d),
    overloads: d.overloads.length,
    name: d.name,
    ...(d.container ? { container: d.container } : {}),
    ...(d.local ? { local: localLabel(d) } : {}),
    ...(d.declarations?.length ? { declarations: d.declarations.map(({ file, line }) => ({ file, line })) } : {}),
  };
}

const USE_KIND: Record<string, Kind> = { call: 'call', type: 'reference', import: 'reference', mention: 'comment' };

/** The kind of each line (`file:line`) the index records a use of the name on; a line that calls it is a call, whatever else it does. */
export function useKinds(uses: Uses | undefined): Map<string, Kind> {
  const useKind = new Map<string, Kind>();
  for (const u of uses?.uses ?? []) {
    const key = `${u.file}:${u.line}`;
    if (useKind.get(key) !== 'call') useKind.set(key, USE_KIND[u.kind] ?? 'reference');
  }
  return useKind;
}

export function inScope(req: Pick<DispatchRequest, 'scope' | 'exclude'>, file: string): boolean {
  const rel = req.scope.relative;
  const under = (dir: string) => file === dir || file.startsWith(`${dir}/`);
  return (!rel || under(rel)) && !req.exclude.some(under);
}

/** Scan hits with the graph's knowledge: its definitions in place of guessed ones, its kinds for the rest. */
async function withGraph(graph: GraphAdapter, req: DispatchRequest, symbol: string, scanned: Hit[], known?: Definitions): Promise<{ hits: Hit[]; partial: boolean } | undefined> {
  const owner = ownerSymbol(req.query);
  const all = known ?? (await graph.definitions(symbol, undefined, { locals: true }));
  if (!all) return undefined;
  const own = owner ? ((await graph.definitions(symbol, owner, { locals: true })) ?? []) : all;
  // Only the scanned lines are classified: the uses in their files are all that is needed.
  const uses = req.definitionsOnly ? undefined : await graph.uses(symbol, undefined, new Set(scanned.map((h) => h.file)));
  const defLines = new Set<string>();
  for (const d of all) {
    defLines.add(`${d.file}:${d.line}`);
    for (const o of d.overloads) defLines.add(`${d.file}:${o.line}`);
    for (const o of d.declarations ?? []) defLines.add(`${o.file}:${o.line}`);
  }
  const useKind = useKinds(uses);
  const defs = own.filter((d) => inScope(req, d.file)).map(definitionHit);
  const shown = new Set(defs.map((d) => `${d.file}:${d.line}`));
  const rest: Hit[] = [];
  for (const h of scanned) {
    const key = `${h.file}:${h.line}`;
    // Definition lines (and overload signatures) are answered by the graph's own rows.
    if (defLines.has(key) || shown.has(key)) continue;
    // Files without a grammar keep the line heuristics' verdict.
    if (!languageOf(h.file)) {
      rest.push(h);
      continue;
    }
    const known = useKind.get(key);
    // A name the index knows no declaration of keeps the line heuristics' definitions (the last resort).
    const kind: Kind = isTestPath(h.file) ? 'test' : (known ?? (h.kind === 'definition' && all.length ? 'reference' : h.kind));
    rest.push({ ...h, kind });
  }
  return { hits: [...defs, ...rest], partial: all.partial === true };
}

export async function dispatch(deps: RetrievalDeps, graph: GraphAdapter, req: DispatchRequest): Promise<Dispatched> {
  const shape = queryShape(req.query, req.regex);
  deps.logger.log('dispatch', { query: req.query, shape, graph: graph.name });
  let out: Dispatched | undefined;
  if (shape === 'symbol') {
    const symbol = leafSymbol(req.query);
    // Definitions only, and the graph knows them: in a file it parses, a scanned line is never a
    // definition (the graph's rows are), so only the files it cannot parse are scanned.
    // Declarations that are no definition of their own count (a local, a parameter): when the index
    // knows none at all, every file is scanned and the line heuristics judge.
    // Looked up first also when no refusal can come (read's and explore's symbol, no refuseAt): the
    // graph is asked anyway then, and before the first build its scan for the name serves the one below.
    const declared = req.definitionsOnly || !req.refuseAt ? await graph.definitions(symbol, undefined, { locals: true }) : undefined;
    const known = req.definitionsOnly && declared?.length ? declared : undefined;
    const onlyFiles = known ? (file: string) => !languageOf(file) && mayDefineByLine(file) : undefined;
    // Before the first build, the lookup scanned for the files naming it: those are all the scan needs to read.
    const naming = declared?.naming && req.scope.workdir === deps.workdirs.dirs[0] ? { naming: declared.naming } : {};
    const r = await scan(deps, { pattern: symbol, literal: true, wordBoundary: req.wholeWord, ignoreCase: req.ignoreCase, scope: req.scope, exclude: req.exclude, symbol, refuseAt: req.refuseAt, onlyFiles, signal: req.signal, ...naming });
    // A refusal proved from a sample shows no hit: the graph's view of the sample is not worth asking for.
    const fromGraph = r.sampled ? undefined : await withGraph(graph, req, symbol, r.hits, declared);
    if (fromGraph) {
      out = { shape, hits: fromGraph.hits, ...fromScan(r), ...(fromGraph.partial ? { partial: true } : {}), strategy: 'graph_symbol', symbol, terms: [symbol.toLowerCase()] };
    } else {
      if (!r.sampled) deps.logger.log('dispatch_graph_miss', { query: req.query, shape });
      let hits = r.hits;
      let skipped = r.skipped;
      // A refusal proved (sampled) shows no hit: its definitions need not be looked for.
      if (r.capped && !r.sampled) {
        // Too common to collect every use: make sure its definitions are among the hits anyway. A
        // definition line names the symbol as a whole word, so only files the first scan counted can
        // hold one: the probe reads those instead of the scope (it used to be a second full scan).
        const within = r.counts ? [...r.counts.keys()] : undefined;
        const defs = await scan(deps, { pattern: definitionProbe(symbol), literal: false, wordBoundary: false, ignoreCase: false, scope: req.scope, exclude: req.exclude, symbol, signal: req.signal, within });
        const seen = new Set(hits.map((h) => `${h.file}:${h.line}`));
        hits = [...hits, ...defs.hits.filter((h) => h.kind === 'definition' && !seen.has(`${h.file}:${h.line}`))];
        skipped = [...(skipped ?? []), ...(defs.skipped ?? []).filter((d) => !skipped?.some((s) => s.path === d.path))];
      }
      out = { shape, hits, ...fromScan({ ...r, skipped }), strategy: 'fileio_symbol', symbol, terms: [symbol.toLowerCase()] };
    }
  } else if (shape === 'phrase') {
    const terms = phraseTerms(req.query);
    const blocks = await graph.searchBlocks(req.query, (f) => inScope(req, f), 200);
    if (blocks?.hits.length) {
      const hits = blocks.hits.map((b) => ({ ...definitionHit(b), blockScore: b.score }));
      out = { shape, hits, capped: false, counts: blocks.perFile, strategy: 'graph_blocks', terms };
    } else {
      const pattern = terms.map(escapeRegex).join('|') || escapeRegex(req.query.trim());
      const r = await scan(deps, { pattern, literal: false, wordBoundary: false, ignoreCase: true, scope: req.scope, exclude: req.exclude, refuseAt: req.refuseAt, signal: req.signal });
      out = { shape, hits: r.hits, ...fromScan(r), strategy: 'fileio_only', terms };
    }
  }
  if (!out) {
    const r = await scan(deps, { pattern: req.query, literal: false, wordBoundary: false, ignoreCase: req.ignoreCase, scope: req.scope, exclude: req.exclude, refuseAt: req.refuseAt, signal: req.signal });
    out = { shape, hits: r.hits, ...fromScan(r), strategy: 'fileio_regex', terms: phraseTerms(req.query) };
  }
  deps.logger.log('dispatch_result', { query: req.query, strategy: out.strategy, count: out.hits.length });
  return out;
}

/** What a dispatch answer carries over from the scan behind it (sampled and skipped only when so). */
export function fromScan(r: ScanResult): Pick<Dispatched, 'capped' | 'counts' | 'estimate' | 'sampled' | 'skipped'> {
  return { capped: r.capped, counts: r.counts, estimate: r.estimate, ...(r.sampled ? { sampled: true } : {}), ...(r.skipped?.length ? { skipped: r.skipped } : {}) };
}
