// The search call that asks for what a grep-family pattern asks for: the same text as a literal
// (search's default), or a regex for `regex:true` only when it means the same in the command's
// language and in RE2 — and RE2 takes it. Undefined when no search pattern says the same thing.
import { compileRegex } from '../../text/linear-regex.ts';
import { patternTextAccepted, SEARCH_PATTERN_MAX } from '../../workspace/grep/pattern.ts';
import type { Dialect } from './grep-args.ts';

export interface SearchPattern {
  pattern: string;
  regex: boolean;
}

/** The characters that make a pattern a regex in each language (POSIX basic regex has fewer). */
const META: Record<Exclude<Dialect, 'fixed'>, string> = {
  bre: '.[]*^$\\',
  ere: '.[]*^$\\+?(){}|',
  rust: '.[]*^$\\+?(){}|',
  pcre: '.[]*^$\\+?(){}|',
};

/** The text a pattern matches when it is a literal in disguise (no metacharacter, or each one escaped). */
export function literalOf(pattern: string, dialect: Dialect): string | undefined {
  if (dialect === 'fixed') return pattern;
  const meta = META[dialect];
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      // `\.` is a dot in every language here; `\(` is a group in basic regex, `\d` a class: not text.
      if (next === undefined || !meta.includes(next)) return undefined;
      out += next;
      i++;
    } else if (meta.includes(c)) {
      return undefined;
    } else out += c;
  }
  return out;
}

/**
 * A regex as RE2 writes it, when it means the same there: extended regex and ripgrep's Rust syntax
 * as they are; basic regex with its literal `+?(){}|` escaped, and none of its backslash groups,
 * alternation, intervals or word anchors; never PCRE, never a backreference, and nothing RE2 refuses.
 */
function re2Of(pattern: string, dialect: Exclude<Dialect, 'fixed'>): string | undefined {
  if (dialect === 'pcre') return undefined;
  // Backslash before a letter or digit: classes and anchors the languages spell differently
  // (GNU's \< \> and backreferences), except the few they share.
  const shared = dialect === 'rust' ? /\\(?![wWsSbBdDpP])[A-Za-z0-9<>]/ : /\\(?![wWsSbB])[A-Za-z0-9<>]/;
  if (shared.test(pattern)) return undefined;
  // A bracket expression holding a backslash: a literal backslash in POSIX, an escape in RE2.
  if ((dialect === 'bre' || dialect === 'ere') && /\[[^\]]*\\/.test(pattern)) return undefined;
  let re2 = pattern;
  if (dialect === 'bre') {
    if (/\\[(){}|?+]/.test(pattern) || /^\*|^\^\*/.test(pattern)) return undefined;
    re2 = pattern.replace(/\\.|[+?(){}|]/g, (m) => (m.length === 1 ? `\\${m}` : m));
  }
  try {
    compileRegex(re2);
    return re2;
  } catch {
    return undefined;
  }
}

export function searchPatternOf(pattern: string, dialect: Dialect): SearchPattern | undefined {
  // What search itself refuses (the same judgement it makes): empty or blank, a line break or a
  // control character other than a tab, longer than its limit.
  if (pattern.trim() === '' || !patternTextAccepted(pattern) || pattern.length > SEARCH_PATTERN_MAX) return undefined;
  const literal = literalOf(pattern, dialect);
  if (literal !== undefined) return { pattern: literal, regex: false };
  const re2 = re2Of(pattern, dialect as Exclude<Dialect, 'fixed'>);
  return re2 === undefined ? undefined : { pattern: re2, regex: true };
}
