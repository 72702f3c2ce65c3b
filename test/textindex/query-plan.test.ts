import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { describePlan, type Plan, planQuery } from '../../src/textindex/query-plan.ts';
import { TrigramExtractor } from '../../src/textindex/trigrams.ts';
import { CORPUS, PATTERNS } from './corpus.ts';

const extractor = new TrigramExtractor();
const gramsOf = (text: string) => new Set(extractor.extract(new TextEncoder().encode(text)));

function holds(plan: Plan, grams: Set<number>): boolean {
  switch (plan.op) {
    case 'all':
      return true;
    case 'gram':
      return grams.has(plan.gram);
    case 'and':
      return plan.subs.every((p) => holds(p, grams));
    case 'or':
      return plan.subs.some((p) => holds(p, grams));
  }
}

/** What a scan finds: a line that matches, as both grep engines match (line by line). */
function matches(text: string, pattern: string, literal: boolean, ignoreCase: boolean): boolean {
  const re = RE2JS.compile(literal ? RE2JS.quote(pattern) : pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return text.split('\n').some((line) => re.matcher(line).find());
}

describe('query planning', () => {
  it('never rules out a file that matches: candidates ⊇ matching files for every pattern, case-sensitive or not', () => {
    const files = Object.entries(CORPUS).map(([name, text]) => ({ name, text, grams: gramsOf(text) }));
    let narrowed = 0;
    let checked = 0;
    for (const pattern of PATTERNS) {
      for (const literal of [false, true]) {
        for (const ignoreCase of [false, true]) {
          const plan = planQuery({ pattern, literal, ignoreCase });
          if (plan) narrowed++;
          for (const f of files) {
            if (!matches(f.text, pattern, literal, ignoreCase)) continue;
            checked++;
            assert.ok(!plan || holds(plan, f.grams), `${literal ? 'literal' : 'regex'} ${JSON.stringify(pattern)}${ignoreCase ? ' (ignore case)' : ''} ruled out ${f.name}, which matches; plan ${plan ? describePlan(plan) : '*'}`);
          }
        }
      }
    }
    assert.ok(checked > 200, `only ${checked} (pattern, matching file) pairs were checked`);
    assert.ok(narrowed > PATTERNS.length, 'most patterns narrow the search');
  });

  it('narrows the patterns the issue names: a literal, retry.*count, an alternation, a small class', () => {
    const show = (pattern: string, literal = false, ignoreCase = false) => {
      const plan = planQuery({ pattern, literal, ignoreCase });
      return plan ? describePlan(plan) : '*';
    };
    assert.equal(show('kmalloc', true), '("kma" & "mal" & "all" & "llo" & "loc")');
    assert.equal(show('retry.*count'), '("ret" & "etr" & "try" & "cou" & "oun" & "unt")');
    assert.equal(show('(foo|bar)baz'), '(("foo" & "oob" & "oba" & "baz") | ("bar" & "arb" & "rba" & "baz"))');
    assert.equal(show('[Ff]oo'), '"foo"');
    assert.equal(show('Foo', true, true), '"foo"');
    assert.match(show('kms', true, true), /\|/, 'k and s may be the Kelvin sign and the long s under case folding');
  });

  it('scans everything when a pattern requires no trigram', () => {
    for (const pattern of ['.*', 'ab', 'a|bcd', '\\w+', '[a-z]{3}', '(?:abc)?', 'x*yz', '']) {
      assert.equal(planQuery({ pattern, literal: false, ignoreCase: false }), undefined, pattern);
    }
  });

  it('does not narrow a pattern it cannot read with certainty (look-around, back-references, odd classes)', () => {
    for (const pattern of ['(?=abc)abc', 'abc\\1', '[[abc]]def', '[a&&b]cde']) {
      assert.equal(planQuery({ pattern, literal: false, ignoreCase: false }), undefined, pattern);
    }
  });
});
