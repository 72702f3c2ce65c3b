import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors.ts';
import { compileRegex, escapeRegex, unsupportedConstructError } from '../../src/text/linear-regex.ts';

describe('linear-time regex', () => {
  it('answers patterns that make a backtracking engine take exponential time (issue 11)', () => {
    assert.equal(compileRegex('(a+)+b').test('a'.repeat(50_000)), false);
    assert.equal(compileRegex('(a+)+b|!').indexIn(`${'a'.repeat(40)}!`), 40);
    assert.equal(compileRegex('(a|aa)+$').test(`${'a'.repeat(10_000)}b`), false);
  });

  it('reads ripgrep syntax: inline flags, word boundaries, Unicode classes, named groups', () => {
    assert.equal(compileRegex('(?i)todo').test('TODO: x'), true);
    assert.equal(compileRegex('\\bfoo\\b').test('a foo b'), true);
    assert.equal(compileRegex('\\bfoo\\b').test('foobar'), false);
    assert.equal(compileRegex('^\\p{L}+$').test('größe'), true);
    assert.equal(compileRegex('(?P<year>\\d{4})-(?<month>\\d\\d)').test('on 2024-05'), true);
    assert.equal(compileRegex('[[:upper:]]{3}').test('an ABC'), true);
  });

  it('gives match positions as string indices, past emoji and accents', () => {
    assert.equal(compileRegex('wörter').indexIn('😀 é wörter'), 5);
    assert.equal(compileRegex('x').indexIn('none'), -1);
  });

  it('matches literal text, case-insensitively on request', () => {
    assert.equal(compileRegex('a.b(c)', { literal: true }).test('xa.b(c)'), true);
    assert.equal(compileRegex('a.b', { literal: true }).test('axb'), false);
    assert.equal(compileRegex('A.B', { literal: true, ignoreCase: true }).test('a.b'), true);
    assert.equal(compileRegex(escapeRegex('$x{1}[y]\\')).test('a $x{1}[y]\\'), true);
  });

  it('matches whole words only when asked, and says where the word starts', () => {
    const word = compileRegex('foo', { literal: true, wordChars: '\\p{L}\\p{N}_' });
    assert.equal(word.indexIn('éfoo foo_ foo.'), 10);
    assert.equal(word.test('foobar'), false);
    const identifier = compileRegex('run', { literal: true, wordChars: '\\w$' });
    assert.equal(identifier.test('$run run$ _run'), false);
    assert.equal(identifier.test('x.run()'), true);
  });

  it('refuses look-around, backreferences and their kin with INVALID_ARGUMENT that names them', () => {
    for (const [pattern, what] of [
      ['(?<=x)y', /look-behind \(\(\?<=\)/],
      ['(?<!x)y', /look-behind/],
      ['x(?=y)', /look-ahead/],
      ['(a)\\1', /backreference \(\\1\)/],
      ['(?>a)', /atomic group/],
      ['a++', /possessive quantifier/],
    ] as const) {
      assert.throws(
        () => compileRegex(pattern),
        (error: unknown) => error instanceof AppError && error.code === ErrorCode.InvalidArgument && what.test(error.message) && /literally/.test(error.hint ?? ''),
        pattern,
      );
      assert.match(unsupportedConstructError(pattern)?.message ?? '', what, pattern);
    }
  });

  it('refuses a malformed pattern with RE2\'s reason, and wrapping does not change its meaning', () => {
    assert.throws(() => compileRegex('foo('), /not a valid regular expression \(missing closing \)/);
    assert.throws(() => compileRegex('a)|(b', { wordChars: '\\w' }), /not a valid regular expression/);
    assert.equal(unsupportedConstructError('foo('), undefined, 'not one of the unsupported constructs');
    assert.equal(unsupportedConstructError('fine'), undefined);
  });
});
