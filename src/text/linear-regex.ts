// Every regular expression that user input reaches runs here, on RE2 (re2js): matching time grows
// linearly with the text, so no pattern can freeze the server the way JavaScript's backtracking
// RegExp does (`(a+)+b` over 28 `a`s takes seconds there). The syntax is RE2's, which is close to
// ripgrep's (Rust regex): `(?i)`, `\b`, classes, `\p{L}`, `(?P<name>…)`. Like ripgrep, it has no
// look-around and no backreferences; those get an error that names them (issue 11).
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { AppError, ErrorCode } from '../errors.ts';

export interface LinearRegex {
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
  /** Where the first match starts (a string index), or -1 when nothing matches. */
  indexIn(text: string): number;
}

export interface RegexOptions {
  ignoreCase?: boolean;
  /** The pattern is plain text, not a regex. */
  literal?: boolean;
  /**
   * Match only where the pattern has none of these characters right before or after it: the body of
   * a character class, e.g. `\p{L}\p{N}_` (ripgrep's --word-regexp) or `\w$` (an identifier).
   */
  wordChars?: string;
}

/** Text with every regex metacharacter escaped; valid in RE2, ripgrep and JavaScript alike. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Compiling costs about a millisecond, and the classifier asks for the same few patterns per hit;
// each compiled regex keeps a DFA cache of its own, so the most recently used few are kept.
const CACHE_LIMIT = 64;
const cache = new Map<string, LinearRegex>();

/** Compiles `pattern` (cached); a pattern RE2 cannot take is an INVALID_ARGUMENT error. */
export function compileRegex(pattern: string, options: RegexOptions = {}): LinearRegex {
  const key = `${options.ignoreCase ? 'i' : ''}${options.literal ? 'l' : ''}:${options.wordChars ?? ''}:${pattern}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const compiled = build(pattern, options);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** One character of such text: a printable ASCII one that is no metacharacter, or an escaped metacharacter. */
const LITERAL_UNIT = /(?:[ !"#%&',\-/0-9:;<=>@A-Z_`a-z~]|\\[.*+?^${}()|[\]\\])/.source;
/**
 * Printable ASCII text and its alternatives (`retry|count`, metacharacters escaped): no quantifier,
 * group, class or anchor of its own. Such a pattern has nothing to backtrack over, so JavaScript's
 * engine matches it in linear time too — and as compiled code, several times faster than RE2's port
 * on the few files a search reads in this thread (a literal ignoring case, the words of a query that
 * found nothing as typed).
 */
const LITERAL_ALTERNATION = new RegExp(`^${LITERAL_UNIT}*(?:\\|${LITERAL_UNIT}*)*$`);

/**
 * Whether a (non-literal) pattern is such text and its alternatives: matched as fast as a literal
 * (JavaScript's engine, linear time), whatever the text it runs over.
 */
export function isTextAlternation(pattern: string): boolean {
  return LITERAL_ALTERNATION.test(pattern);
}

/** JavaScript's matcher for a literal alternation (`group` 1: the word wrapper's), with RE2's Unicode case folding. */
function nativeRegex(source: string, ignoreCase: boolean, group: number): LinearRegex {
  const re = new RegExp(source, ignoreCase ? 'iud' : 'ud');
  return {
    test: (text) => re.test(text),
    indexIn(text) {
      const m = re.exec(text);
      return m?.indices?.[group]?.[0] ?? -1;
    },
  };
}

function build(pattern: string, options: RegexOptions): LinearRegex {
  const body = options.literal ? escapeRegex(pattern) : pattern;
  const native = LITERAL_ALTERNATION.test(body);
  // Checked alone first: wrapped, an unbalanced `a)|(b` would parse as something else (text is never unbalanced).
  if (options.wordChars && !native) compileOrThrow(body, 0);
  // Our group comes first, so it is group 1 whatever groups the pattern has of its own.
  const source = options.wordChars ? `(?:^|[^${options.wordChars}])(${body})(?:[^${options.wordChars}]|$)` : body;
  const group = options.wordChars ? 1 : 0;
  if (native) return nativeRegex(source, options.ignoreCase === true, group);
  const re = compileOrThrow(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return {
    test: (text) => re.test(text),
    indexIn(text) {
      // test() runs on the DFA; a Matcher (needed for positions) is slower, so only for a hit.
      if (!re.test(text)) return -1;
      const m = re.matcher(text);
      return m.find() ? m.start(group) : -1;
    },
  };
}

function compileOrThrow(source: string, flags: number): RE2JS {
  try {
    return RE2JS.compile(source, flags);
  } catch (error) {
    throw regexError(error);
  }
}

// What RE2 names (the start of the fragment it quotes) that no linear-time engine can do.
const UNSUPPORTED: { opener: RegExp; what: string; instead: string }[] = [
  { opener: /^\(\?<[=!]/, what: 'look-behind', instead: 'match the text before it as part of the pattern' },
  { opener: /^\(\?[=!]/, what: 'look-ahead', instead: 'match the text after it as part of the pattern' },
  { opener: /^\\(?:[1-9]|k)/, what: 'a backreference', instead: 'spell the repeated text out' },
  { opener: /^\(\?>/, what: 'an atomic group', instead: 'use a plain group (?:…)' },
  { opener: /^[*+?}]\+/, what: 'a possessive quantifier', instead: 'drop its trailing + (a++ → a+)' },
];

/** The error for a pattern RE2 refused, naming look-around, backreferences and the like. */
function regexError(error: unknown): AppError {
  const syntax = error instanceof RE2JSSyntaxException ? error : undefined;
  const fragment = syntax?.input ?? '';
  for (const u of UNSUPPORTED) {
    const opener = u.opener.exec(fragment)?.[0];
    if (!opener) continue;
    return new AppError(ErrorCode.InvalidArgument, `pattern uses ${u.what} (${opener}), which search does not support: it matches in linear time, without backtracking`, {
      hint: `${u.instead}, or search for the text literally`,
    });
  }
  const reason = syntax ? `${syntax.error}${fragment ? `: ${fragment.slice(0, 60)}` : ''}` : error instanceof Error ? error.message : String(error);
  return new AppError(ErrorCode.InvalidArgument, `pattern is not a valid regular expression (${reason})`, {
    hint: 'fix the pattern (RE2/ripgrep syntax), or search for the text literally',
  });
}

/**
 * The same error the built-in engine gives, for a pattern that uses a construct no linear-time
 * engine supports (look-around, backreferences); undefined for any other pattern. ripgrep refuses
 * these too, in its own words: this keeps the answer the same whichever engine ran.
 */
export function unsupportedConstructError(pattern: string): AppError | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    const fragment = error instanceof RE2JSSyntaxException ? (error.input ?? '') : '';
    return UNSUPPORTED.some((u) => u.opener.test(fragment)) ? regexError(error) : undefined;
  }
}
