// The gatekeeper: lets a result set through, or refuses it with a `refine` envelope that says why
// (breadth, volume, relevance, compound), where the hits are (per-directory distribution, split
// deeper when one folder holds them all) and what to do next (suggestions whose wouldYield is what
// following them really returns). Near-misses on one axis within the compound margin pass; after
// maxRefusals refusals in a row the gate opens; force bypasses it; absoluteMaxTokens always holds.
import type { Config } from '../config/schema.ts';
import { type Estimate, scopeTotals } from './estimate.ts';
import { escapeRegex } from '../text/linear-regex.ts';
import { wholeWord } from './query.ts';
import { itemTokens } from './ranking.ts';
import type { ResultItem } from './types.ts';
import { createRefusalCounter, type RefusalCounter } from './refusal-counter.ts';

export type RefusalReason = 'breadth' | 'volume' | 'relevance' | 'compound';

export interface Suggestion {
  action: 'narrow_scope' | 'add_exclude' | 'use_regex' | 'use_literal' | 'use_force';
  arg?: string;
  wouldYield?: number;
  /** wouldYield is estimated from a sample of the files (use_regex, where the envelope's counts are exact). */
  estimated?: true;
  hint?: string;
}

export interface RefineEnvelope {
  status: 'refine';
  reason: RefusalReason;
  summary: { totalFound: number; files: number; estTokens: number; topScore: number };
  distribution: { dir: string; hits: number }[];
  suggestions: Suggestion[];
  refusalCount: number;
  /** The counts are estimates: `read` of the index's `of` candidate files were read (see estimate.ts). */
  estimate?: { read: number; of: number };
}

export interface GateInput {
  items: ResultItem[];
  /** Matches per file over the whole scope when the items are only the first part (capped scan). */
  counts?: Map<string, number>;
  /** A refusal proved from a sample: `counts` are the files read, this estimates the unread ones. */
  estimate?: Estimate;
  /** More hits exist than were collected: counts are lower bounds. */
  capped: boolean;
  force: boolean;
  query: string;
  /** The scope searched, relative to the root ('' for all). */
  scope: string;
  shape: 'symbol' | 'phrase' | 'pattern';
  regex: boolean;
  /** The caller's own hit cap (search max_hits) instead of gates.maxHits. */
  maxHits?: number;
  /** Judge relevance only: the reply is bounded anyway (locate returns a few paths). */
  relevanceOnly?: boolean;
  /**
   * Every item holds the exact text searched for (a literal search): relevance is not judged — an
   * exact match is what was asked for — and only breadth and volume can refuse (issue 20).
   */
  exact?: boolean;
  /** For an exact identifier: what whole-word matching would yield over the scope (the use_regex suggestion). */
  wholeWord?: { hits: number; files: number; estimated: boolean };
}

/** `afterRefusal`: this answer came right after a refusal in the same session (a suggestion followed, or a rephrasing). */
export type GateDecision = { pass: true; openedAfterRefusals: boolean; forced: boolean; afterRefusal: boolean } | { pass: false; envelope: RefineEnvelope };

/** One client session's consecutive refusals (the deadlock cap counts them). */
export { createRefusalCounter, type RefusalCounter };

/** The folder of `file` `depth` levels down (its own folder when it is shallower; '.' at the top). */
function dirAt(file: string, depth: number): string {
  let cut = -1;
  for (let i = 0; i < depth; i++) {
    const next = file.indexOf('/', cut + 1);
    if (next < 0) return cut < 0 ? '.' : file.slice(0, cut);
    cut = next;
  }
  return file.slice(0, cut);
}

function slashes(file: string): number {
  let n = 0;
  for (let at = file.indexOf('/'); at >= 0; at = file.indexOf('/', at + 1)) n++;
  return n;
}

/** Hits per file: the whole-scope counts when there are (with the expected hits of unread files), else the collected items. */
export function perFile(items: { file: string }[], counts?: Map<string, number>, expected?: Estimate['expected']): Map<string, number> {
  if (counts && !expected?.size) return counts;
  if (counts) {
    const out = new Map(counts);
    for (const [file, e] of expected!) out.set(file, (out.get(file) ?? 0) + e.hits);
    return out;
  }
  const out = new Map<string, number>();
  for (const i of items) out.set(i.file, (out.get(i.file) ?? 0) + 1);
  return out;
}

/** Hits per directory at `depth` (a file shallower than that counts for its own folder). */
function hitsByDir(files: Map<string, number>, depth: number): Map<string, number> {
  const byDir = new Map<string, number>();
  for (const [file, n] of files) {
    const dir = dirAt(file, depth);
    byDir.set(dir, (byDir.get(dir) ?? 0) + n);
  }
  return byDir;
}

/** Hits per directory, one level deeper while a single directory holds nearly everything. */
export function distribution(items: { file: string }[], base: string, counts?: Map<string, number>, expected?: Estimate['expected']): { dir: string; hits: number }[] {
  const files = perFile(items, counts, expected);
  const total = [...files.values()].reduce((a, b) => a + b, 0);
  let depth = (base ? base.split('/').length : 0) + 1;
  let deepest = 0;
  for (const f of files.keys()) deepest = Math.max(deepest, slashes(f));
  for (;;) {
    const sorted = [...hitsByDir(files, depth).entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = sorted[0];
    const deeper = deepest > depth;
    if (top && sorted.length === 1 && deeper && depth < 8) {
      depth++;
      continue;
    }
    if (top && top[1] > total * 0.8 && deeper && depth < 8 && top[0] !== '.') {
      depth++;
      continue;
    }
    // Estimated hits are fractions: shown rounded, a folder expected to hold less than one left out.
    return sorted
      .filter(([, hits]) => hits >= 0.5)
      .slice(0, 10)
      .map(([dir, hits]) => ({ dir, hits: Math.round(hits) }));
  }
}

interface Axes {
  files: number;
  hits: number;
  estTokens: number;
  topScore: number;
}

/** The tokens a hit costs on average among `items`. */
function tokensPerHit(items: readonly ResultItem[], charsPerToken: number): number {
  return items.reduce((n, i) => n + itemTokens(i, charsPerToken), 0) / Math.max(1, items.length);
}

function measure(items: ResultItem[], charsPerToken: number, counts?: Map<string, number>, sample: ResultItem[] = items, expected?: Estimate['expected']): Axes {
  const collected = items.reduce((n, i) => n + itemTokens(i, charsPerToken), 0);
  if (!counts) return { files: new Set(items.map((i) => i.file)).size, hits: items.length, estTokens: collected, topScore: items[0]?.score ?? 0 };
  // A capped scan: totals from the counts; tokens and the best score from the collected sample
  // (a folder the sample did not reach is judged by the sample as a whole). Unread files (a refusal
  // proved from a sample) add what they are expected to hold.
  const { hits, files } = scopeTotals(counts, expected);
  const basis = items.length ? items : sample;
  const perHit = tokensPerHit(basis, charsPerToken);
  return { files: Math.round(files), hits: Math.round(hits), estTokens: Math.round(perHit * hits), topScore: basis[0]?.score ?? 0 };
}

/** The entries of `map` for the files under `dir` (undefined when there are no whole-scope counts). */
function under<T>(map: ReadonlyMap<string, T> | undefined, dir: string): Map<string, T> | undefined {
  if (!map) return undefined;
  return new Map([...map].filter(([f]) => f === dir || f.startsWith(`${dir}/`)));
}

/** Which axes fail, and whether each failure is within the compound margin. */
function failures(a: Axes, config: Config, exact = false): { reason: 'breadth' | 'volume' | 'relevance'; near: boolean }[] {
  const g = config.gates;
  const m = g.compoundMargin;
  const out: { reason: 'breadth' | 'volume' | 'relevance'; near: boolean }[] = [];
  if (a.files > g.maxFiles) out.push({ reason: 'breadth', near: a.files <= g.maxFiles * (1 + m) });
  if (a.hits > g.maxHits || a.estTokens > config.limits.absoluteMaxTokens) {
    const near = a.hits <= g.maxHits * (1 + m) && a.estTokens <= config.limits.absoluteMaxTokens * (1 + m);
    out.push({ reason: 'volume', near });
  }
  if (!exact && a.hits > 0 && a.topScore < g.minRelevance) out.push({ reason: 'relevance', near: a.topScore >= g.minRelevance * (1 - m) });
  return out;
}

function passes(a: Axes, config: Config, exact = false): boolean {
  const f = failures(a, config, exact);
  return f.length === 0 || (f.length === 1 && f[0]!.near);
}

function suggestions(input: GateInput, dist: { dir: string; hits: number }[], config: Config, reason: RefusalReason): Suggestion[] {
  const out: Suggestion[] = [];
  const cpt = config.estimation.charsPerToken;
  if (reason !== 'relevance') {
    // Only directories that would pass the gate on their own: following the suggestion works. When
    // none at the distribution's depth does (a huge repository), look deeper for the biggest that do.
    const passing = (d: { dir: string; hits: number }) => {
      if (d.dir === '.') return false;
      const inside = input.items.filter((i) => i.file === d.dir || i.file.startsWith(`${d.dir}/`));
      return passes(measure(inside, cpt, under(input.counts, d.dir), input.items, under(input.estimate?.expected, d.dir)), config, input.exact);
    };
    let candidates = dist.filter(passing);
    if (!candidates.length) {
      const files = perFile(input.items, input.counts, input.estimate?.expected);
      const baseDepth = dist[0] ? dist[0].dir.split('/').length : 1;
      const deeper = new Map<string, number>();
      for (let depth = baseDepth + 1; depth <= baseDepth + 4; depth++) {
        // As in the distribution: a folder expected to hold less than one hit is no place to look.
        for (const [dir, n] of hitsByDir(files, depth)) if (dir.split('/').length === depth && n >= 0.5) deeper.set(dir, Math.round(n));
      }
      const ranked = [...deeper.entries()].map(([dir, hits]) => ({ dir, hits })).sort((a, b) => b.hits - a.hits || a.dir.length - b.dir.length);
      candidates = [];
      for (const d of ranked) {
        if (candidates.length >= 3) break;
        // A folder inside one already suggested adds nothing.
        if (candidates.some((c) => d.dir.startsWith(`${c.dir}/`))) continue;
        if (passing(d)) candidates.push(d);
      }
    }
    for (const d of candidates.slice(0, 3)) out.push({ action: 'narrow_scope', arg: d.dir, wouldYield: d.hits });
    // Every folder's hits, not only the ten the distribution shows.
    const total = [...perFile(input.items, input.counts, input.estimate?.expected).values()].reduce((a, b) => a + b, 0);
    const noise = dist.find((d) => /(^|\/)(tests?|__tests__|spec|docs?|examples?|fixtures?|testdata|third_party|generated)$/i.test(d.dir));
    if (noise) out.push({ action: 'add_exclude', arg: noise.dir, wouldYield: Math.round(total - noise.hits) });
    if (input.wholeWord) {
      // Counted over the scope by a whole-word scan; offered only when following it passes the gate.
      const w = input.wholeWord;
      const wholeAxes = { files: w.files, hits: w.hits, estTokens: Math.round(tokensPerHit(input.items, cpt) * w.hits), topScore: 1 };
      if (w.hits > 0 && passes(wholeAxes, config, true)) {
        out.push({ action: 'use_regex', arg: `\\b${escapeRegex(input.query)}\\b`, wouldYield: w.hits, hint: 'whole-word matches only', ...(w.estimated ? { estimated: true as const } : {}) });
      }
    } else if (!input.exact && input.shape !== 'pattern' && !input.regex) {
      const word = input.query.trim();
      if (/^[\w$]+$/.test(word)) {
        const whole = wholeWord(word);
        const yieldWhole = input.items.filter((i) => whole.test(i.text)).length;
        // From a capped sample the count would be a guess: then only the suggestion, no number.
        if (input.counts) out.push({ action: 'use_regex', arg: `\\b${word}\\b`, hint: 'whole-word matches only' });
        else if (yieldWhole < input.items.length) out.push({ action: 'use_regex', arg: `\\b${word}\\b`, wouldYield: yieldWhole });
      }
    }
    if (input.regex && /[.]/.test(input.query) && !/[\\[\](){}|*+?^$]/.test(input.query)) {
      out.push({ action: 'use_literal', arg: input.query, hint: 'the pattern has "." which matches any character; search it literally' });
    }
  } else {
    out.push({ action: 'use_regex', hint: 'the best match is weak: name the symbol exactly, or use locate with kind "definition"' });
  }
  out.push({ action: 'use_force', hint: 'Set force:true to bypass gating' });
  return out;
}

export function gate(input: GateInput, baseConfig: Config, counter: RefusalCounter): GateDecision {
  const config = input.maxHits === undefined ? baseConfig : { ...baseConfig, gates: { ...baseConfig.gates, maxHits: input.maxHits } };
  const axes = measure(input.items, config.estimation.charsPerToken, input.counts, input.items, input.estimate?.expected);
  const failing = failures(axes, config, input.exact).filter((f) => !input.relevanceOnly || f.reason === 'relevance');
  const refuse = failing.length > 1 || (failing.length === 1 && !failing[0]!.near);
  const previous = counter.refusals;
  if (!refuse || input.force) {
    counter.refusals = 0;
    return { pass: true, openedAfterRefusals: false, forced: refuse && input.force, afterRefusal: previous > 0 };
  }
  // Deadlock cap: an agent refused maxRefusals times in a row gets through on the next try.
  if (previous >= config.limits.maxRefusals) {
    counter.refusals = 0;
    return { pass: true, openedAfterRefusals: true, forced: false, afterRefusal: true };
  }
  const refusalCount = previous + 1;
  counter.refusals = refusalCount;
  const reason: RefusalReason = failing.length > 1 ? 'compound' : failing[0]!.reason;
  const dist = distribution(input.items, input.scope, input.counts, input.estimate?.expected);
  return {
    pass: false,
    envelope: {
      status: 'refine',
      reason,
      summary: { totalFound: axes.hits, files: axes.files, estTokens: axes.estTokens, topScore: axes.topScore },
      distribution: dist,
      suggestions: suggestions(input, dist, config, reason),
      refusalCount,
      ...(input.estimate ? { estimate: { read: input.estimate.read, of: input.estimate.of } } : {}),
    },
  };
}
