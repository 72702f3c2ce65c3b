// Property: whatever the files hold (huge lines, binary, other encodings) and whatever budget is asked,
// no reading tool's reply passes its budget — max_tokens at the configured characters per token, or
// the absolute cap where a tool has no budget parameter. Each tool fits its reply itself: the
// registry's last guard (which cuts a reply and says "reply cut to fit") must not be what saved it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { fixture, removeDir, writeFiles } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

const CPT = 3.5;
const ABSOLUTE = 3000;
const GATE_DEFAULT = 1500;
const ROUNDS = 6;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['needle', 'alpha', 'const', 'function', 'return', 'é', '日本語', '😀', '{', '}', ';', '=', 'x'.repeat(30)];

/** Files of one round: a huge line, binary bytes, Latin-1 and UTF-16 text, mixed lines, code. */
function roundFiles(next: () => number, big: boolean): Record<string, string | Uint8Array> {
  const text = (n: number, newlines: number) => {
    let s = '';
    while (s.length < n) s += (next() < newlines ? '\n' : ' ') + WORDS[Math.floor(next() * WORDS.length)];
    return s;
  };
  const binary = new Uint8Array(2000 + Math.floor(next() * 20_000)).map(() => Math.floor(next() * 256));
  const latin1 = new Uint8Array(3000).map((_, i) => (i % 7 === 0 ? 0xe9 : 0x61 + (i % 26)));
  const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(text(3000, 0.05)).flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
  return {
    'data/one-line.min.js': text(big ? 300_000 : 5_000 + Math.floor(next() * 60_000), 0),
    'data/mixed.txt': text(2_000 + Math.floor(next() * 30_000), next() * 0.2),
    'data/blob.bin': binary,
    'data/latin1.txt': latin1,
    'data/utf16.txt': utf16,
    'src/code.ts': `export function needleFn(a: number) {\n  return [${text(big ? 40_000 : 3_000, 0).replace(/[\n`]/g, ' ')}].length + a;\n}\n${text(4_000, 0.1)}\n`,
  };
}

describe('no reply passes its budget', () => {
  let root: string;
  let t: TestApp;
  before(() => {
    root = fixture({ 'ctxgate.json': JSON.stringify({ limits: { absoluteMaxTokens: ABSOLUTE }, gates: { maxTokens: GATE_DEFAULT } }) });
    t = testApp(root, {}, { CTXGATE_CONFIG: path.join(root, 'ctxgate.json') });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('holds for random files × every reading tool × random budgets', async () => {
    const next = random(2023);
    const over: string[] = [];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    for (let round = 0; round < ROUNDS; round++) {
      const big = round === ROUNDS - 1;
      writeFiles(root, roundFiles(next, big));
      const files = ['data/one-line.min.js', 'data/mixed.txt', 'data/blob.bin', 'data/latin1.txt', 'data/utf16.txt', 'src/code.ts'];
      const readBudget = 50 + Math.floor(next() * 3000);
      const searchBudget = 100 + Math.floor(next() * 3000);
      const calls: [string, Record<string, unknown>, number][] = [
        ['read', { target: pick(files), max_tokens: readBudget }, readBudget],
        ['read', { target: `${pick(files)}:1-${1 + Math.floor(next() * 40)}`, max_tokens: readBudget }, readBudget],
        ['read', { target: `data/one-line.min.js:1:${1 + Math.floor(next() * 4000)}`, max_tokens: readBudget }, readBudget],
        ['read', { target: 'needleFn', max_tokens: readBudget }, readBudget],
        ['search', { pattern: pick(['needle', 'alpha', 'const', 'é']), max_tokens: searchBudget, force: true }, searchBudget],
        ['search', { pattern: 'needle.*alpha', regex: true, max_tokens: searchBudget, force: true }, searchBudget],
        ['locate', { query: pick(['needle', 'needleFn', 'alpha']) }, ABSOLUTE],
        ['explore', { question: 'who calls needleFn', anchor: 'needleFn' }, ABSOLUTE],
        ['ctx_fs', { action: 'rg', pattern: pick(['needle', 'alpha', 'x{30}']), context: Math.floor(next() * 6), limit: 500 }, ABSOLUTE],
        ['ctx_fs', { action: 'ls', depth: 3 }, ABSOLUTE],
        ['ctx_run', { action: 'execute', argv: ['cat', pick(files)] }, ABSOLUTE],
        ['ctx_run', { action: 'execute', argv: ['cat', ...files] }, ABSOLUTE],
        ['ctx_kb', { action: 'index', path: 'data' }, ABSOLUTE],
        ['ctx_kb', { action: 'search', query: pick(['needle', 'alpha', 'function']) }, ABSOLUTE],
      ];
      for (const [tool, args, budget] of calls) {
        const r = await t.call(tool, args, createClientSession(crypto.randomUUID()));
        const text = textOf(r);
        const limit = Math.floor(Math.min(budget, ABSOLUTE) * CPT);
        if (text.length > limit || text.includes('reply cut to fit')) over.push(`round ${round} ${tool} ${JSON.stringify(args)}: ${text.length} chars for ${limit}${text.includes('reply cut to fit') ? ' (cut by the last guard)' : ''}`);
      }
    }
    assert.deepEqual(over, []);
  });
});
