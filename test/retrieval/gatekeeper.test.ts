import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfig } from '../../src/config/defaults.ts';
import { createRefusalCounter, distribution, gate, type GateInput } from '../../src/retrieval/gatekeeper.ts';
import { itemTokens, fitToBudget } from '../../src/retrieval/ranking.ts';
import type { ResultItem } from '../../src/retrieval/types.ts';

const config = defaultConfig(); // maxFiles 25, maxHits 120, minRelevance 0.35, margin 0.15, maxRefusals 3

function items(count: number, files: number, score = 0.9, dir = (i: number) => `src/d${i % 5}`): ResultItem[] {
  return Array.from({ length: count }, (_, i) => ({
    file: `${dir(i % files)}/f${i % files}.ts`,
    line: i + 1,
    text: `const widget${i} = makeWidget();`,
    matchIndex: 6,
    kind: 'reference' as const,
    source: 'fileio' as const,
    score: i === 0 ? score : Math.min(score, 0.5),
  }));
}

const input = (list: ResultItem[], extra: Partial<GateInput> = {}): GateInput => ({ items: list, capped: false, force: false, query: 'widget', scope: '', shape: 'symbol', regex: false, ...extra });

describe('gatekeeper', () => {
  it('passes a result set within every threshold', () => {
    assert.equal(gate(input(items(20, 5)), config, createRefusalCounter()).pass, true);
  });

  it('refuses breadth: more files than maxFiles', () => {
    const d = gate(input(items(40, 40)), config, createRefusalCounter());
    assert.equal(d.pass, false);
    assert.equal(!d.pass && d.envelope.reason, 'breadth');
  });

  it('refuses volume: more hits than maxHits, or more tokens than absoluteMaxTokens', () => {
    const hits = gate(input(items(200, 10)), config, createRefusalCounter());
    assert.equal(!hits.pass && hits.envelope.reason, 'volume');
    const long = items(30, 5).map((i) => ({ ...i, text: 'x'.repeat(4000) }));
    const tokens = gate(input(long), config, createRefusalCounter());
    assert.equal(!tokens.pass && tokens.envelope.reason, 'volume');
  });

  it('refuses relevance: a top score below minRelevance', () => {
    const d = gate(input(items(5, 2, 0.2)), config, createRefusalCounter());
    assert.equal(!d.pass && d.envelope.reason, 'relevance');
  });

  it('refuses compound: two or more axes', () => {
    const d = gate(input(items(200, 60)), config, createRefusalCounter());
    assert.equal(!d.pass && d.envelope.reason, 'compound');
  });

  it('lets a single-axis near-miss within 15% through, but not a double one', () => {
    assert.equal(gate(input(items(28, 28)), config, createRefusalCounter()).pass, true, '28 files is within 15% of 25');
    assert.equal(gate(input(items(30, 30)), config, createRefusalCounter()).pass, false, '30 files is not');
    assert.equal(gate(input(items(130, 28)), config, createRefusalCounter()).pass, false, 'two near-misses are a compound refusal');
    assert.equal(gate(input(items(5, 2, 0.31)), config, createRefusalCounter()).pass, true, '0.31 is within 15% of 0.35');
  });

  it('opens after maxRefusals consecutive refusals, and counts again from zero', () => {
    const session = createRefusalCounter();
    const broad = input(items(40, 40));
    const counts = [1, 2, 3].map(() => {
      const d = gate(broad, config, session);
      return !d.pass ? d.envelope.refusalCount : 0;
    });
    assert.deepEqual(counts, [1, 2, 3]);
    const fourth = gate(broad, config, session);
    assert.equal(fourth.pass && fourth.openedAfterRefusals, true);
    const again = gate(broad, config, session);
    assert.equal(!again.pass && again.envelope.refusalCount, 1);
  });

  it('resets the counter on a pass and lets force through', () => {
    const session = createRefusalCounter();
    gate(input(items(40, 40)), config, session);
    gate(input(items(5, 2)), config, session);
    const d = gate(input(items(40, 40)), config, session);
    assert.equal(!d.pass && d.envelope.refusalCount, 1);
    const forced = gate(input(items(40, 40), { force: true }), config, session);
    assert.equal(forced.pass && forced.forced, true);
  });

  it('fills the refine envelope as the spec shows, with suggestions that pass when followed', () => {
    const list = [...items(60, 30, 0.9, () => 'src/auth'), ...items(10, 3, 0.9, () => 'src/core')];
    const d = gate(input(list), config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    const e = d.envelope;
    assert.equal(e.status, 'refine');
    assert.deepEqual(Object.keys(e.summary).sort(), ['estTokens', 'files', 'topScore', 'totalFound']);
    assert.equal(e.summary.totalFound, 70);
    assert.deepEqual(e.distribution, [
      { dir: 'src/auth', hits: 60 },
      { dir: 'src/core', hits: 10 },
    ]);
    const narrow = e.suggestions.find((s) => s.action === 'narrow_scope');
    assert.deepEqual(narrow, { action: 'narrow_scope', arg: 'src/core', wouldYield: 10 });
    const followed = list.filter((i) => i.file.startsWith('src/core/'));
    assert.equal(gate(input(followed, { scope: 'src/core' }), config, createRefusalCounter()).pass, true);
    assert.equal(e.suggestions.at(-1)?.action, 'use_force');
  });

  it('takes totals and distribution from whole-scope counts when the scan was capped', () => {
    const sample = items(20, 5, 0.9, () => 'src/a');
    const counts = new Map([
      ['src/a/f0.ts', 300],
      ['src/b/x.ts', 40],
      ['lib/y.ts', 60],
    ]);
    const d = gate(input(sample, { counts, capped: true }), config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    assert.equal(d.envelope.summary.totalFound, 400);
    assert.equal(d.envelope.summary.files, 3);
    // src holds 85%: split one level deeper.
    assert.deepEqual(d.envelope.distribution, [
      { dir: 'src/a', hits: 300 },
      { dir: 'lib', hits: 60 },
      { dir: 'src/b', hits: 40 },
    ]);
    assert.deepEqual(d.envelope.suggestions.find((x) => x.action === 'narrow_scope'), { action: 'narrow_scope', arg: 'lib', wouldYield: 60 });
  });

  it('looks deeper for folders that pass when no top folder does', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 40; i++) counts.set(`drivers/net/eth${i}/main.c`, 30);
    for (let i = 0; i < 40; i++) counts.set(`arch/x${i}/mm/a.c`, 20);
    counts.set('drivers/net/eth0/extra.c', 50);
    const d = gate(input(items(30, 5), { counts, capped: true }), config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    const narrow = d.envelope.suggestions.filter((x) => x.action === 'narrow_scope');
    assert.deepEqual(narrow[0], { action: 'narrow_scope', arg: 'drivers/net/eth0', wouldYield: 80 });
    assert.equal(narrow.length, 3);
  });

  it('suggests no deeper folder expected to hold less than one hit (a refusal estimated from a sample)', () => {
    // Both big folders fail on their own and hold no deeper folders; a third is only expected, at 0.3 hits.
    const counts = new Map<string, number>();
    for (let i = 0; i < 30; i++) counts.set(`a/b1/f${i}.c`, 5);
    for (let i = 0; i < 30; i++) counts.set(`a/b2/f${i}.c`, 5);
    const estimate = { read: 200, of: 201, expected: new Map([['a/b3/c/x.c', { hits: 0.3, files: 0.1 }]]) };
    const d = gate(input(items(30, 5, 0.9, (i) => `a/b${1 + (i % 2)}`), { counts, estimate, capped: true }), config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    assert.deepEqual(d.envelope.suggestions.filter((x) => x.action === 'narrow_scope'), []);
  });

  it('counts every folder in what excluding a noise folder would yield, not only the ten shown', () => {
    const counts = new Map<string, number>([['tests/a.ts', 100]]);
    for (let i = 0; i < 12; i++) counts.set(`m${i}/x.ts`, 20);
    const d = gate(input(items(30, 5), { counts, capped: true }), config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    assert.equal(d.envelope.distribution.length, 10);
    assert.deepEqual(d.envelope.suggestions.find((x) => x.action === 'add_exclude'), { action: 'add_exclude', arg: 'tests', wouldYield: 240 });
  });

  it('splits the distribution deeper when one folder holds everything', () => {
    const list = [...items(20, 10, 0.9, () => 'src/a/x'), ...items(20, 10, 0.9, () => 'src/a/y')];
    assert.deepEqual(distribution(list, ''), [
      { dir: 'src/a/x', hits: 20 },
      { dir: 'src/a/y', hits: 20 },
    ]);
  });

  it('trims to a token budget and says how much was cut', () => {
    const list = items(100, 10);
    const per = itemTokens(list[0]!, 3.5);
    const { kept, cut, tokens } = fitToBudget(list, per * 10, 3.5);
    assert.equal(kept.length, 10);
    assert.equal(cut, 90);
    assert.ok(tokens <= per * 10);
  });
});
