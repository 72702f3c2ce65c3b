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
    case 'word':
      return grams.has(plan.key) && holds(plan.otherwise, grams);
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

  it('never rules out a file holding the word a whole-word query names, whatever surrounds it', () => {
    const texts = [
      'foo_bar = 1',
      'x = foo;',
      'foo',
      'a.foo(b)',
      'FOO bar',
      'foo\r\nbar',
      '\u00c4foo \u00e9foo\u00e9',
      'foo\u2014bar',
      'foo1 foo',
      'foofoo',
      '// foo_',
      'caf\u00e9 foo\u212a',
      ...Object.values(CORPUS).filter((t): t is string => typeof t === 'string'),
    ];
    const words = ['foo', 'bar', 'foo_bar', 'FOO', 'foo1', ...PATTERNS.filter((p) => /^[A-Za-z0-9_]{3,}$/.test(p))];
    let checked = 0;
    for (const w of words) {
      const plan = planQuery({ pattern: w, literal: true, ignoreCase: false, word: true });
      assert.ok(plan?.op === 'word', `${w}: a word plan`);
      // The engines' word boundary: no letter, digit or underscore (any script) on either side.
      const re = RE2JS.compile(`(?:^|[^\\p{L}\\p{N}_])${RE2JS.quote(w)}(?:$|[^\\p{L}\\p{N}_])`);
      for (const text of texts) {
        if (!text.split('\n').some((line) => re.matcher(line).find())) continue;
        checked++;
        assert.ok(holds(plan, gramsOf(text)), `word ${JSON.stringify(w)} ruled out ${JSON.stringify(text.slice(0, 60))}`);
      }
    }
    assert.ok(checked > 10, `${checked} pairs`);
    // Not a word plan: case-insensitive (k and s fold past ASCII), too short, not an identifier.
    for (const q of [{ pattern: 'foo', ignoreCase: true }, { pattern: 'fo', ignoreCase: false }, { pattern: 'foo.bar', ignoreCase: false }, { pattern: 'f\u00e9e', ignoreCase: false }]) {
      assert.notEqual(planQuery({ ...q, literal: true, word: true })?.op, 'word', q.pattern);
    }
  });

  it('never rules out a matching text for thousands of random patterns over letters that fold in odd ways', () => {
    // A fixed-seed generator: the same patterns every run.
    let seed = 14;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;
    const letters = ['a', 'b', 'k', 's', 'K', 'S', '\u00e9', '\u00c9', '\u212A', '\u017F', 'x', ' '];
    const atoms = ['a', 'b', 'k', 's', 'K', 'S', 'é', 'É', '\u212A', 'ſ', 'x', '.', '[ab]', '[Kk]', '[ks]', '[^a]', '\\w', '\\s', ' ', 'ab', 'kas', 'sKa'];
    const pattern = (depth: number): string => {
      const parts: string[] = [];
      const n = 1 + rand(4);
      for (let i = 0; i < n; i++) {
        let p = depth > 0 && rand(4) === 0 ? `(${pattern(depth - 1)}|${pattern(depth - 1)})` : pick(atoms);
        p += pick(['', '', '', '?', '*', '+', '{2}', '{1,3}', '{0,2}']);
        if (rand(12) === 0) p = `(?i)${p}`;
        if (rand(15) === 0) p = `^${p}`;
        parts.push(p);
      }
      return parts.join('');
    };
    const texts = Array.from({ length: 80 }, () => Array.from({ length: 10 + rand(40) }, () => JSON.parse(`"${pick([...letters, '\\n'])}"`) as string).join(''));
    const grams = texts.map(gramsOf);
    let checked = 0;
    for (let i = 0; i < 1500; i++) {
      const p = pattern(2);
      const ignoreCase = rand(3) === 0;
      let re: RE2JS;
      try {
        re = RE2JS.compile(p, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
      } catch {
        continue;
      }
      const plan = planQuery({ pattern: p, literal: false, ignoreCase });
      if (!plan) continue;
      texts.forEach((t, k) => {
        if (!t.split('\n').some((line) => re.matcher(line).find())) return;
        checked++;
        assert.ok(holds(plan, grams[k]!), `${JSON.stringify(p)}${ignoreCase ? ' (ignore case)' : ''} ruled out ${JSON.stringify(t)}; plan ${describePlan(plan)}`);
      });
    }
    assert.ok(checked > 500, `only ${checked} matching (pattern, text) pairs were checked`);
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
