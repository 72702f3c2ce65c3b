import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requiredLiterals } from '../../src/text/required-literals.ts';

describe('required literals of a regex', () => {
  it('names the plain runs every match must contain', () => {
    assert.deepEqual(requiredLiterals('retry.*count'), ['retry', 'count']);
    assert.deepEqual(requiredLiterals('foo\\.bar\\('), ['foo.bar(']);
    assert.deepEqual(requiredLiterals('\\bkmalloc_array\\b'), ['kmalloc_array']);
    assert.deepEqual(requiredLiterals('spin_(un)?lock'), ['spin_', 'lock']);
    assert.deepEqual(requiredLiterals('x+yz'), ['yz']);
  });

  it('leaves out characters a quantifier makes optional, and text inside groups and classes', () => {
    assert.deepEqual(requiredLiterals('colou?r'), ['colo']);
    assert.deepEqual(requiredLiterals('ab*cd'), ['cd']);
    assert.deepEqual(requiredLiterals('abc{0,2}de'), ['ab', 'de']);
    assert.deepEqual(requiredLiterals('(?:alpha|beta)gamma'), ['gamma']);
    assert.deepEqual(requiredLiterals('[abc]def[^]x]gh'), ['def', 'gh']);
  });

  it('gives nothing when unsure: top-level alternation, inline flags, escapes with a body', () => {
    for (const p of ['foo|bar', '(?i)foo', 'foo\\x41bar', '\\p{L}foo', '\\Qfoo\\E', '(foo', 'foo)', '[[:alpha:]]foo']) assert.deepEqual(requiredLiterals(p), [], p);
  });
});
