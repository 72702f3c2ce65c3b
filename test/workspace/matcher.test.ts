// The built-in engine's matcher: a regex runs only on lines holding every run of text its matches
// require; the counts and lines are those of the regex on every line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { createMatcher, matchLinesOf } from '../../src/workspace/grep/matcher.ts';
import type { GrepQuery } from '../../src/workspace/grep/types.ts';

const WORDS = ['retry', 'count', 'recount', 'retry_count', 'x', ' ', ' ', '(', ')', '.', 'nr', 'RETRY', 'c0unt', '_'];

function lines(seed: number, n: number): string[] {
  let a = seed;
  const next = () => {
    a = (a * 1103515245 + 12345) & 0x7fffffff;
    return a / 0x7fffffff;
  };
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(''));
}

describe('the built-in matcher', () => {
  it('counts and lists the lines the regex matches, testing it only where every required run is', () => {
    const text = `${lines(7, 400).join('\n')}\n`;
    const bytes = new TextEncoder().encode(text);
    for (const pattern of ['retry.*count', 'count.*retry', 'retry\\w*count', 're(try)?.*count', 'nr.retry', 'retry_co+unt']) {
      const query: GrepQuery = { pattern, literal: false, ignoreCase: false, context: 0, limit: 1000 };
      const re = RE2JS.compile(pattern);
      const expected = text
        .split('\n')
        .slice(0, -1)
        .flatMap((line, i) => (re.matcher(line).find() ? [i + 1] : []));
      assert.ok(expected.length > 0, `${pattern}: the corpus holds matches`);
      const matcher = createMatcher(query);
      assert.equal(matcher.count(bytes), expected.length, pattern);
      assert.deepEqual(
        matchLinesOf(bytes, 'f.txt', matcher)?.lines.map((l) => l.line),
        expected,
        pattern,
      );
    }
    assert.equal(createMatcher({ pattern: 'retry.*count', literal: false, ignoreCase: false, context: 0, limit: 10 }).alsoHolds('retry then nothing'), false, 'a line without "count" is not tested');
  });
});
