// Query planning: the trigrams a match must contain, as an AND/OR tree over the index (after Russ
// Cox's "Regular Expression Matching with a Trigram Index"). Each part of the pattern is summarized
// by what every text it matches satisfies: the exact set of strings it can be (when small), or the
// strings it must start and end with; concatenation adds the trigrams that span the seam.
// Strings here are byte strings (one char per UTF-8 byte, ASCII letters folded as the index folds
// them). A part the planner cannot bound (., \w, large or negated classes, a cased non-ASCII letter
// under case folding, a line break, U+FFFD) is "any character": the plan stays a superset.
import { literalNode, type Node, parseRegex, Unsupported } from './regex-syntax.ts';
import { FOLD, isIndexedWord, wordKey } from './trigrams.ts';
import type { TextQuery } from './types.ts';

/**
 * `word`: the files holding the word (its key), where every live segment holds word keys; else
 * `otherwise` (its trigrams).
 */
export type Plan = { op: 'all' } | { op: 'gram'; gram: number } | { op: 'and' | 'or'; subs: Plan[] } | { op: 'word'; key: number; word: string; otherwise: Plan };

const ALL: Plan = { op: 'all' };
/** Exact sets larger than this become prefix/suffix sets; those are cut to this size too. */
const MAX_EXACT = 7;
const MAX_SET = 20;
/** Exact strings longer than this become prefix/suffix sets (their trigrams join the plan). */
const MAX_EXACT_LENGTH = 16;

interface Info {
  canEmpty: boolean;
  /** Every match is one of these (null: unknown). */
  exact: Set<string> | null;
  /** Every match starts with one of these / ends with one of these (used when exact is null). */
  prefix: Set<string>;
  suffix: Set<string>;
  /** What every text holding a match satisfies. */
  match: Plan;
}

/** The plan for a query, or undefined when it needs no particular trigram (scan everything). */
export function planQuery(query: TextQuery): Plan | undefined {
  let node: Node;
  try {
    node = query.literal ? literalNode(query.pattern, query.ignoreCase) : parseRegex(query.pattern, query.ignoreCase);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const info = analyze(node);
  const plan = info.exact ? and(info.match, orTrigrams(info.exact)) : and(info.match, and(orTrigrams(info.prefix), orTrigrams(info.suffix)));
  if (plan.op === 'all') return undefined;
  // A whole identifier, case-sensitive (case-insensitive matching folds k and s to non-ASCII letters, which end an indexed word).
  if (query.word && query.literal && !query.ignoreCase && isIndexedWord(query.pattern)) return { op: 'word', key: wordKey(query.pattern), word: query.pattern, otherwise: plan };
  return plan;
}

function utf8Bytes(cp: number): string {
  return String.fromCharCode(...new TextEncoder().encode(String.fromCodePoint(cp)));
}

const KELVIN = utf8Bytes(0x212a);
const LONG_S = utf8Bytes(0x17f);

/** The byte strings a character can be in the text, or undefined for "any character". */
function variants(cp: number, fold: boolean): string[] | undefined {
  // Line breaks never sit inside an indexed trigram; U+FFFD is what a scan decodes invalid bytes to,
  // and a lone surrogate has no UTF-8 form of its own.
  if (cp === 0x0a || cp === 0xfffd || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  if (cp < 0x80) {
    const b = FOLD[cp]!;
    // RE2 and ripgrep fold k and s to the Kelvin sign and the long s as well.
    if (fold && b === 0x6b) return ['k', KELVIN];
    if (fold && b === 0x73) return ['s', LONG_S];
    return [String.fromCharCode(b)];
  }
  if (fold) {
    const c = String.fromCodePoint(cp);
    if (c.toLowerCase() !== c || c.toUpperCase() !== c) return undefined;
  }
  return [utf8Bytes(cp)];
}

function anyChar(): Info {
  return { canEmpty: false, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}

function anyMatch(): Info {
  return { canEmpty: true, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}

function emptyString(): Info {
  return { canEmpty: true, exact: new Set(['']), prefix: new Set(), suffix: new Set(), match: ALL };
}

function analyze(node: Node): Info {
  switch (node.t) {
    case 'empty':
      return emptyString();
    case 'any':
      return anyChar();
    case 'chars': {
      const exact = new Set<string>();
      for (const cp of node.cps) {
        const v = variants(cp, node.fold);
        if (!v) return anyChar();
        for (const s of v) exact.add(s);
      }
      return simplify({ canEmpty: false, exact, prefix: new Set(), suffix: new Set(), match: ALL });
    }
    case 'cat':
      return node.subs.reduce((acc, sub) => concat(acc, analyze(sub)), emptyString());
    case 'alt':
      return node.subs.map(analyze).reduce((a, b) => alternate(a, b));
    case 'rep': {
      if (node.max === 0) return emptyString();
      if (node.min === 0) return node.max === 1 ? alternate(analyze(node.sub), emptyString()) : anyMatch();
      const info = analyze(node.sub);
      if (node.min === 1 && node.max === 1) return info;
      // At least one: every match holds one, and starts and ends like one.
      if (info.exact) {
        info.match = and(info.match, orTrigrams(info.exact));
        info.prefix = info.exact;
        info.suffix = new Set(info.exact);
        info.exact = null;
      }
      return simplify(info);
    }
  }
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function concat(x: Info, y: Info): Info {
  let match = and(x.match, y.match);
  if (x.exact && y.exact && x.exact.size * y.exact.size <= MAX_SET * MAX_SET) {
    return simplify({ canEmpty: x.canEmpty && y.canEmpty, exact: cross(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match });
  }
  const xs = x.exact ?? x.suffix;
  const yp = y.exact ?? y.prefix;
  // The trigrams across the seam.
  if (xs.size * yp.size <= MAX_SET * MAX_SET) match = and(match, orTrigrams(cross(xs, yp)));
  if (x.exact) match = and(match, orTrigrams(x.exact));
  if (y.exact) match = and(match, orTrigrams(y.exact));
  return simplify({
    canEmpty: x.canEmpty && y.canEmpty,
    exact: null,
    prefix: x.exact ? cross(x.exact, yp) : x.canEmpty ? union(x.prefix, yp) : x.prefix,
    suffix: y.exact ? cross(xs, y.exact) : y.canEmpty ? union(y.suffix, xs) : y.suffix,
    match,
  });
}

function alternate(x: Info, y: Info): Info {
  const info: Info = { canEmpty: x.canEmpty || y.canEmpty, exact: null, prefix: new Set(), suffix: new Set(), match: ALL };
  if (x.exact && y.exact) {
    info.exact = union(x.exact, y.exact);
    info.match = or(x.match, y.match);
  } else {
    // An exact side's own trigrams join its side of the OR.
    const xm = x.exact ? and(x.match, orTrigrams(x.exact)) : x.match;
    const ym = y.exact ? and(y.match, orTrigrams(y.exact)) : y.match;
    info.match = or(xm, ym);
    info.prefix = union(x.exact ?? x.prefix, y.exact ?? y.prefix);
    info.suffix = union(x.exact ?? x.suffix, y.exact ?? y.suffix);
  }
  return simplify(info);
}

function union(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a, ...b]);
}

/** Keeps the sets small: what a set says moves into `match`, and the set keeps only what a seam needs. */
function simplify(info: Info): Info {
  if (info.exact) {
    let minLen = Number.POSITIVE_INFINITY;
    for (const s of info.exact) minLen = Math.min(minLen, s.length);
    if (info.exact.size <= MAX_EXACT && minLen < MAX_EXACT_LENGTH) return info;
    info.match = and(info.match, orTrigrams(info.exact));
    info.prefix = info.exact;
    info.suffix = info.exact;
    info.exact = null;
  }
  info.prefix = trimSet(info, info.prefix, (s) => s.slice(0, 2));
  info.suffix = trimSet(info, info.suffix, (s) => s.slice(-2));
  return info;
}

function trimSet(info: Info, set: Set<string>, keep: (s: string) => string): Set<string> {
  let long = false;
  for (const s of set) if (s.length > 2) long = true;
  if (!long && set.size <= MAX_SET) return set;
  info.match = and(info.match, orTrigrams(set));
  const trimmed = new Set<string>();
  for (const s of set) trimmed.add(keep(s));
  return trimmed.size <= MAX_SET ? trimmed : new Set(['']);
}

/** Some string of the set occurs: OR over the strings of the AND of their trigrams. */
function orTrigrams(set: Set<string>): Plan {
  if (set.size === 0) return ALL;
  const alternatives: Plan[] = [];
  for (const s of set) {
    if (s.length < 3) return ALL;
    const grams: Plan[] = [];
    const seen = new Set<number>();
    for (let i = 0; i + 3 <= s.length; i++) {
      const gram = (s.charCodeAt(i) << 16) | (s.charCodeAt(i + 1) << 8) | s.charCodeAt(i + 2);
      if (!seen.has(gram)) {
        seen.add(gram);
        grams.push({ op: 'gram', gram });
      }
    }
    alternatives.push(grams.length === 1 ? grams[0]! : { op: 'and', subs: grams });
  }
  return alternatives.reduce<Plan>((a, b) => or(a, b), { op: 'or', subs: [] });
}

export function and(a: Plan, b: Plan): Plan {
  if (a.op === 'all') return b;
  if (b.op === 'all') return a;
  const subs = [...(a.op === 'and' ? a.subs : [a]), ...(b.op === 'and' ? b.subs : [b])];
  return { op: 'and', subs: dedupe(subs) };
}

export function or(a: Plan, b: Plan): Plan {
  if (a.op === 'all' || b.op === 'all') return ALL;
  // An empty OR (no alternatives yet) is the identity here.
  if (a.op === 'or' && a.subs.length === 0) return b;
  if (b.op === 'or' && b.subs.length === 0) return a;
  const subs = dedupe([...(a.op === 'or' ? a.subs : [a]), ...(b.op === 'or' ? b.subs : [b])]);
  return subs.length === 1 ? subs[0]! : { op: 'or', subs };
}

function dedupe(subs: Plan[]): Plan[] {
  const seen = new Set<string>();
  return subs.filter((p) => {
    const key = JSON.stringify(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The plan as text, for logs and tests: trigrams in quotes, & and |. */
export function describePlan(plan: Plan): string {
  switch (plan.op) {
    case 'all':
      return '*';
    case 'gram':
      return JSON.stringify(String.fromCharCode(plan.gram >> 16, (plan.gram >> 8) & 255, plan.gram & 255));
    case 'word':
      return `word ${JSON.stringify(plan.word)} else ${describePlan(plan.otherwise)}`;
    default:
      return `(${plan.subs.map(describePlan).join(plan.op === 'and' ? ' & ' : ' | ')})`;
  }
}
