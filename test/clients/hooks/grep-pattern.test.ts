// The hook offers a search call only for a pattern search itself takes: the same text judgement
// (line breaks, control characters but a tab) and the same length limit, from one place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchPatternOf } from '../../../src/clients/hooks/grep-pattern.ts';
import { checkGrepPattern, SEARCH_PATTERN_MAX } from '../../../src/workspace/grep/pattern.ts';

function searchTakes(pattern: string): boolean {
  try {
    checkGrepPattern(pattern, { literal: true });
    return pattern.length <= SEARCH_PATTERN_MAX;
  } catch {
    return false;
  }
}

describe('the search pattern the hook offers', () => {
  it('keeps a literal holding a tab, which search takes', () => {
    assert.deepEqual(searchPatternOf('key:\tvalue', 'fixed'), { pattern: 'key:\tvalue', regex: false });
    assert.ok(searchTakes('key:\tvalue'));
  });

  it('offers nothing for a pattern search refuses: DEL, another control character, a line break, over the limit', () => {
    for (const pattern of ['a\x7fb', 'a\x01b', 'a\nb', 'x'.repeat(SEARCH_PATTERN_MAX + 1)]) {
      assert.equal(searchPatternOf(pattern, 'fixed'), undefined, JSON.stringify(pattern));
      assert.equal(searchTakes(pattern), false, JSON.stringify(pattern));
    }
  });

  it('offers a pattern at exactly the limit, which search takes', () => {
    const pattern = 'x'.repeat(SEARCH_PATTERN_MAX);
    assert.deepEqual(searchPatternOf(pattern, 'fixed'), { pattern, regex: false });
    assert.ok(searchTakes(pattern));
  });
});
