// Plain text and alternatives of it are matched by JavaScript's engine (nothing to backtrack over):
// every answer must be RE2's — tested against RE2 itself on texts that hold the words in other cases,
// inside longer words, beside non-ASCII letters and the case-folding oddities (Kelvin sign, long s).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { compileRegex, escapeRegex } from '../../src/text/linear-regex.ts';

const WORD_CHARS = '\\p{L}\\p{N}_';
const PATTERNS = ['retry|count', 'path|denied|error', 'kmalloc_array', escapeRegex('a.b (c) [d] {e} $f ^g | h* + i?'), 'skill|ok', 'x||y', 'Error'];
const TEXTS = [
  'no match here',
  'if (retry_count > 0) return',
  'RETRY later; Count them',
  'PathDeniedError: path denied',
  'call kmalloc_array(n, size)',
  'KMALLOC_ARRAY and kmalloc_arrays',
  'a.b (c) [d] {e} $f ^g | h* + i?',
  'A.B (C) [D] {E} $F ^G | H* + I?',
  'the \u212Aelvin ſkill is O\u212A', // Kelvin sign, long s
  'éerror', 'errorà', 'count_', '_count', 'count9', 'déjà count',
  '',
];

function oracle(pattern: string, ignoreCase: boolean, wordChars?: string): { test: (t: string) => boolean; indexIn: (t: string) => number } {
  const source = wordChars ? `(?:^|[^${wordChars}])(${pattern})(?:[^${wordChars}]|$)` : pattern;
  const re = RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return {
    test: (t) => re.test(t),
    indexIn: (t) => {
      const m = re.matcher(t);
      return m.find() ? m.start(wordChars ? 1 : 0) : -1;
    },
  };
}

describe('literal alternations on JavaScript’s engine', () => {
  it('match exactly where RE2 does, with and without case and word boundaries', () => {
    for (const pattern of PATTERNS) {
      for (const ignoreCase of [false, true]) {
        for (const wordChars of [undefined, WORD_CHARS, '\\w$']) {
          const ours = compileRegex(pattern, { ignoreCase, ...(wordChars ? { wordChars } : {}) });
          const re2 = oracle(pattern, ignoreCase, wordChars);
          for (const text of TEXTS) {
            const what = `${pattern} i=${ignoreCase} w=${wordChars ?? ''} on ${JSON.stringify(text)}`;
            assert.equal(ours.test(text), re2.test(text), what);
            assert.equal(ours.indexIn(text), re2.indexIn(text), what);
          }
        }
      }
    }
  });

  it('a literal with metacharacters, given as a literal, matches only itself', () => {
    const r = compileRegex('a.b(c)', { literal: true, ignoreCase: true });
    assert.equal(r.test('xA.B(C)y'), true);
    assert.equal(r.test('axb(c)'), false);
  });
});
