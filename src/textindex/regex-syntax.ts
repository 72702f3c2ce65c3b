// A small reader of RE2 regex syntax (what re2js and ripgrep accept) for one purpose: finding the
// literal text a match must contain. re2js keeps its parser private, so this reads the pattern
// itself, conservatively: anything it does not fully understand throws `Unsupported`, and the
// caller then does not narrow at all. It never has to reject what RE2 rejects (the pattern is
// compiled by RE2 first); it must only never read a valid pattern as something narrower than it is.

export type Node =
  | { t: 'empty' }
  /** Any one character (., \d, \w, a negated or large class, …). */
  | { t: 'any' }
  /** One of these code points (a literal is a class of one), `fold` when case-insensitive. */
  | { t: 'chars'; cps: number[]; fold: boolean }
  | { t: 'cat'; subs: Node[] }
  | { t: 'alt'; subs: Node[] }
  /** `max` -1: unbounded. */
  | { t: 'rep'; sub: Node; min: number; max: number };

export class Unsupported extends Error {}

/** Classes with more code points than this are treated as any character. */
const MAX_CLASS = 16;

const ESCAPED_CHARS: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
const ANY_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'C']);
const EMPTY_ESCAPES = new Set(['b', 'B', 'A', 'z']);
const PUNCT = /^[!-/:-@[-`{-~]$/;

export function parseRegex(pattern: string, ignoreCase: boolean): Node {
  let pos = 0;
  const cps = Array.from(pattern);
  const peek = (k = 0) => cps[pos + k];
  const fail = (why: string): never => {
    throw new Unsupported(why);
  };

  function alternation(fold: { on: boolean }): Node {
    const subs = [concatenation(fold)];
    while (peek() === '|') {
      pos++;
      subs.push(concatenation(fold));
    }
    return subs.length === 1 ? subs[0]! : { t: 'alt', subs };
  }

  function concatenation(fold: { on: boolean }): Node {
    const subs: Node[] = [];
    for (;;) {
      const c = peek();
      if (c === undefined || c === '|' || c === ')') break;
      if (c === '(' && peek(1) === '?' && isFlagGroup()) {
        // (?flags) changes the flags until the end of the enclosing group.
        pos++;
        fold.on = readFlags(fold.on);
        continue;
      }
      let atom = single(fold);
      atom = repetitions(atom);
      subs.push(atom);
    }
    return subs.length === 1 ? subs[0]! : { t: 'cat', subs };
  }

  function repeatAt(at: number): { min: number; max: number; length: number } | undefined {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(cps.slice(at, at + 24).join(''));
    if (!m) return undefined;
    const min = Number(m[1]);
    return { min, max: m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]), length: m[0].length };
  }

  function isFlagGroup(): boolean {
    let k = 2;
    while (peek(k) !== undefined && /[imsU-]/.test(peek(k)!)) k++;
    return peek(k) === ')';
  }

  /** Reads `?flags)` or the `?flags` of `(?flags:`; returns the new case-folding state. */
  function readFlags(current: boolean): boolean {
    pos++;
    let on = current;
    let negate = false;
    while (peek() !== ')' && peek() !== ':') {
      const f = peek() ?? fail('unterminated flags');
      if (f === '-') negate = true;
      else if (f === 'i') on = !negate;
      else if (!/[msU]/.test(f)) fail(`flag ${f}`);
      pos++;
    }
    if (peek() === ')') pos++;
    return on;
  }

  function repetitions(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, -1];
      else if (c === '+') [min, max] = [1, -1];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        // A { that does not open a repetition is a literal (RE2), read by the next atom.
        const m = repeatAt(pos);
        if (!m) return node;
        min = m.min;
        max = m.max;
        pos += m.length - 1;
      } else return node;
      pos++;
      if (peek() === '?') pos++; // lazy: matches the same texts
      node = { t: 'rep', sub: node, min, max };
    }
  }

  function single(fold: { on: boolean }): Node {
    const c = cps[pos++]!;
    switch (c) {
      case '(':
        return group(fold);
      case '[':
        return charClass(fold.on);
      case '.':
        return { t: 'any' };
      case '^':
      case '$':
        return { t: 'empty' };
      case '\\':
        return escapeAtom(fold.on);
      case '*':
      case '+':
      case '?':
        return fail('a repetition with nothing to repeat');
      case '{':
        if (repeatAt(pos - 1)) fail('a repetition with nothing to repeat');
        return { t: 'chars', cps: [0x7b], fold: fold.on };
      default:
        return { t: 'chars', cps: [c.codePointAt(0)!], fold: fold.on };
    }
  }

  function group(fold: { on: boolean }): Node {
    const inner = { on: fold.on };
    if (peek() === '?') {
      const rest = cps.slice(pos, pos + 3).join('');
      if (rest.startsWith('?:')) pos += 2;
      else if (rest.startsWith('?P<') || (rest.startsWith('?<') && rest[2] !== '=' && rest[2] !== '!')) {
        const close = cps.indexOf('>', pos);
        if (close < 0) fail('unterminated group name');
        pos = close + 1;
      } else if (/^\?[imsU-]/.test(rest)) {
        inner.on = readFlagsWithColon(fold.on);
      } else fail('look-around or an unknown group');
    }
    const node = alternation(inner);
    if (cps[pos++] !== ')') fail('unbalanced (');
    return node;
  }

  function readFlagsWithColon(current: boolean): boolean {
    const on = readFlags(current);
    if (cps[pos - 1] === ')') fail('flags group read as a group');
    if (peek() !== ':') fail('flags without :');
    pos++;
    return on;
  }

  function escapeAtom(fold: boolean): Node {
    const c = cps[pos++] ?? fail('trailing backslash');
    if (ANY_ESCAPES.has(c)) return { t: 'any' };
    if (EMPTY_ESCAPES.has(c)) return { t: 'empty' };
    if (c === 'p' || c === 'P') {
      if (peek() === '{') {
        const close = cps.indexOf('}', pos);
        if (close < 0) fail('unterminated \\p{');
        pos = close + 1;
      } else pos++;
      return { t: 'any' };
    }
    if (c === 'Q') {
      const subs: Node[] = [];
      while (pos < cps.length && !(cps[pos] === '\\' && cps[pos + 1] === 'E')) subs.push({ t: 'chars', cps: [cps[pos++]!.codePointAt(0)!], fold });
      if (pos < cps.length) pos += 2;
      return { t: 'cat', subs };
    }
    const cp = escapedChar(c);
    return { t: 'chars', cps: [cp], fold };
  }

  /** The code point of an escape that stands for one character (after the backslash and `c`). */
  function escapedChar(c: string): number {
    if (c in ESCAPED_CHARS) return ESCAPED_CHARS[c]!;
    if (c === 'x') {
      if (peek() === '{') {
        const close = cps.indexOf('}', pos);
        const hex = close < 0 ? '' : cps.slice(pos + 1, close).join('');
        if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) fail('bad \\x{…}');
        pos = close + 1;
        return Number.parseInt(hex, 16);
      }
      const hex = cps.slice(pos, pos + 2).join('');
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail('bad \\x');
      pos += 2;
      return Number.parseInt(hex, 16);
    }
    if (PUNCT.test(c)) return c.charCodeAt(0);
    return fail(`escape \\${c}`);
  }

  function charClass(fold: boolean): Node {
    let negated = false;
    if (peek() === '^') {
      negated = true;
      pos++;
    }
    const points: number[] = [];
    let big = false;
    let first = true;
    for (;;) {
      const c = cps[pos] ?? fail('unterminated [');
      if (c === ']' && !first) {
        pos++;
        break;
      }
      first = false;
      if (c === '[' && peek(1) === ':') {
        const close = cps.indexOf(']', pos + 2);
        if (close < 0 || cps[close - 1] !== ':') fail('bad [:class:]');
        pos = close + 1;
        big = true;
        continue;
      }
      // ripgrep's engine reads a nested [ and &&, --, ~~ as class operations; RE2 as characters.
      if (c === '[' || ((c === '&' || c === '-' || c === '~') && peek(1) === c)) fail('a class RE2 and ripgrep read differently');
      let lo: number;
      if (c === '\\') {
        pos++;
        const e = cps[pos++] ?? fail('trailing backslash in a class');
        if (ANY_ESCAPES.has(e)) {
          big = true;
          continue;
        }
        if (e === 'p' || e === 'P') {
          if (peek() === '{') {
            const close = cps.indexOf('}', pos);
            if (close < 0) fail('unterminated \\p{');
            pos = close + 1;
          } else pos++;
          big = true;
          continue;
        }
        lo = escapedChar(e);
      } else {
        lo = c.codePointAt(0)!;
        pos++;
      }
      let hi = lo;
      if (peek() === '-' && peek(1) !== undefined && peek(1) !== ']') {
        pos++;
        const d = cps[pos]!;
        if (d === '\\') {
          pos++;
          hi = escapedChar(cps[pos++] ?? fail('trailing backslash in a class'));
        } else {
          if (d === '[') fail('[ as a range end');
          hi = d.codePointAt(0)!;
          pos++;
        }
        if (hi < lo) fail('reversed range');
      }
      if (hi - lo + 1 + points.length > MAX_CLASS) big = true;
      else for (let p = lo; p <= hi; p++) points.push(p);
    }
    if (negated || big) return { t: 'any' };
    return { t: 'chars', cps: [...new Set(points)], fold };
  }

  const root = alternation({ on: ignoreCase });
  if (pos < cps.length) fail(`unexpected ${cps[pos]}`);
  return root;
}

/** A literal search string as a node: each character as itself. */
export function literalNode(text: string, ignoreCase: boolean): Node {
  return { t: 'cat', subs: Array.from(text, (c) => ({ t: 'chars', cps: [c.codePointAt(0)!], fold: ignoreCase }) as Node) };
}
