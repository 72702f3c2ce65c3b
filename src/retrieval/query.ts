// Query shape routing (gate spec): a single identifier is a symbol, text with spaces a phrase, text
// with regex characters a pattern.
import { compileRegex, type LinearRegex } from '../text/linear-regex.ts';

export type QueryShape = 'symbol' | 'phrase' | 'pattern';

const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/;
const REGEX_CHARS = /[\\^$*+?()[\]{}|]/;

export function queryShape(query: string, regex = false): QueryShape {
  const q = query.trim();
  if (regex) return 'pattern';
  if (IDENTIFIER.test(q)) return 'symbol';
  if (REGEX_CHARS.test(q) && !/\s/.test(q)) return 'pattern';
  return 'phrase';
}

/** The identifier a symbol query names last: `OrderHandler.handle` → `handle`. */
export function leafSymbol(query: string): string {
  const parts = query.trim().split(/\.|::|#/);
  return parts[parts.length - 1] ?? query.trim();
}

/** `OrderHandler.handle` → `OrderHandler`; undefined for a plain name. */
export function ownerSymbol(query: string): string | undefined {
  const parts = query.trim().split(/\.|::|#/);
  return parts.length > 1 ? parts[parts.length - 2] : undefined;
}

export function phraseTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_$]+/gu) ?? [])].filter((t) => t.length > 1);
}

/** Matches `symbol` as a whole identifier (not inside a longer name). */
export function wholeWord(symbol: string, ignoreCase = false): LinearRegex {
  return compileRegex(symbol, { literal: true, ignoreCase, wordChars: '\\w$' });
}

/** A file name's extension, lower case, without the dot ('' when there is none). */
export function extension(file: string): string {
  return (/\.([a-z0-9]+)$/i.exec(file)?.[1] ?? '').toLowerCase();
}

/** Leading whitespace width, tabs counted as four columns. */
export function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
}
