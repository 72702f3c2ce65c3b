import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { engineSetups } from '../helpers/engines.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

// Issue 20: a search pattern is a literal first, as `rg -F` takes it. Whatever the text holds
// (spaces, punctuation, regex metacharacters, non-ASCII), every line `rg -F` prints is a row of the
// reply when the hits fit the gate — on both engines, with and without the text index.

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['alpha', 'Beta', 'gamma_delta', 'retry', 'count', 'x', 'Invalid', 'DurationInput', ' ', ' ', ' ', '.', '(', ')', '[', ']', '*', '+', '?', '{', '}', '|', '\\', '^', '$', '"', "'", ',', ';', ':', '-', '/', '#', '=', 'é', 'Ünïcode', '日本語', '🚀', 'ß', '\t'];

function generateTree(next: () => number): Record<string, string> {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    const lines: string[] = [];
    for (let l = 0; l < 16; l++) {
      const n = 3 + Math.floor(next() * 14);
      lines.push(Array.from({ length: n }, () => pick(PIECES)).join(''));
    }
    files[`${pick(['src', 'lib', 'app/core', 'app/ui', 'docs'])}/f${f}.${pick(['ts', 'py', 'go', 'txt', 'md'])}`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/** The lines holding `needle` (case-sensitive): what `rg -F -n` prints, as `file:line`. */
function oracle(files: Record<string, string>, needle: string): string[] {
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    text.split('\n').forEach((line, i) => {
      if (line.includes(needle)) out.push(`${file}:${i + 1}`);
    });
  }
  return out.sort();
}

/** Literal strings cut from the tree's own lines (by code point), each with 1 to 20 hit lines. */
function sampleStrings(files: Record<string, string>, next: () => number, count: number): string[] {
  const lines = Object.values(files).flatMap((t) => t.split('\n')).filter((l) => l.trim().length > 3);
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < 5000; tries++) {
    const chars = Array.from(lines[Math.floor(next() * lines.length)]!);
    const len = 3 + Math.floor(next() * 22);
    const start = Math.floor(next() * Math.max(1, chars.length - len));
    const s = chars.slice(start, start + len).join('');
    if (s.trim() === '') continue;
    const hits = oracle(files, s).length;
    if (hits >= 1 && hits <= 20) out.add(s);
  }
  return [...out];
}

/** The `file:line` of each row of a search reply (a path line, then `  LINE: text` or `  START-END: text` rows). */
function rowsOf(text: string): string[] {
  const rows: string[] = [];
  let file = '';
  for (const line of text.split('\n').slice(1)) {
    const row = /^ {2}(\d+)(?:-\d+)?: /.exec(line);
    if (row) rows.push(`${file}:${row[1]}`);
    else if (!line.startsWith(' ') && !line.startsWith('(')) file = line;
  }
  return rows;
}

const seed = 20;
const next = random(seed);
const FILES = generateTree(next);
const STRINGS = sampleStrings(FILES, next, 40);

describe('a literal search returns every line rg -F prints', () => {
  let root: string;
  before(() => {
    root = fixture(FILES);
  });
  after(() => removeDir(root));

  it(`samples enough strings with metacharacters, spaces and non-ASCII text (seed ${seed})`, () => {
    assert.ok(STRINGS.length >= 35, `${STRINGS.length} strings`);
    assert.ok(STRINGS.some((s) => /[.()[\]*+?{}|\\^$]/.test(s)));
    assert.ok(STRINGS.some((s) => s.includes(' ')));
    assert.ok(STRINGS.some((s) => /[^\x00-\x7f]/.test(s)));
  });

  it('agrees with ripgrep itself on what the lines are', { skip: !runtime.which('rg') && 'ripgrep is not installed' }, () => {
    // One shell runs rg for every string (each given as an argument, as typed), each output ended by
    // a NUL byte (the tree holds none). A path, and no stdin: with a pipe for stdin and no path, rg
    // searches its stdin.
    const script = 'for s in "$@"; do rg -F -n --no-heading --with-filename -- "$s" .; printf \'\\0\'; done';
    const r = spawnSync('sh', ['-c', script, 'sh', ...STRINGS], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const outputs = r.stdout.split('\0');
    assert.equal(outputs.pop(), '', r.stderr);
    assert.equal(outputs.length, STRINGS.length, r.stderr);
    STRINGS.forEach((s, i) => {
      const lines = outputs[i]!.split('\n').filter(Boolean).map((l) => /^\.\/(.*?):(\d+):/.exec(l)!.slice(1, 3).join(':')).sort();
      assert.deepEqual(lines, oracle(FILES, s), JSON.stringify(s));
    });
  });

  for (const setup of engineSetups()) {
    for (const indexed of [false, true]) {
      it(`on ${setup.engine}, ${indexed ? 'with' : 'without'} the text index`, { skip: setup.skip }, async () => {
        // The code index parses in this thread: what it parses is not what is searched here, and a
        // parse worker costs each of these four apps its own tree-sitter.
        const t = testApp(root, { graphBackend: 'none' }, { ...setup.env, CTXGATE_PARSE_WORKERS: '0' });
        try {
          if (indexed) {
            await t.app.code.refresh();
            assert.equal(t.app.textIndex?.status().state, 'ready');
          } else assert.notEqual(t.app.textIndex?.status().state, 'ready');
          for (const s of STRINGS) {
            const r = await t.call('search', { pattern: s });
            const text = textOf(r);
            assert.notEqual(r.isError, true, `${JSON.stringify(s)}: ${text}`);
            assert.equal((r.structuredContent as { match: string }).match, 'exact', `${JSON.stringify(s)}: ${text}`);
            const rows = new Set(rowsOf(text));
            for (const want of oracle(FILES, s)) assert.ok(rows.has(want), `${JSON.stringify(s)}: ${want} missing from\n${text}`);
          }
        } finally {
          await t.close();
        }
      });
    }
  }
});

describe('search by text', () => {
  let root: string;
  let t: TestApp;
  const logger = Array.from({ length: 60 }, (_, i) => `const logger${i} = makeLogger(${i});`).join('\n');
  before(() => {
    root = fixture({
      'src/duration.ts': 'export function decode(input: unknown) {\n  throw new Error("Invalid DurationInput")\n}\n',
      'src/retry.ts': '/** Schedules the next retry after a delay. */\nexport function scheduleRetry(delayMs: number) {\n  return setTimeout(run, delayMs)\n}\n',
      'src/log.ts': 'export function log(line: string) {}\nlog("a");\nlog("b");\n',
      'app/use.ts': 'import { scheduleRetry } from "../src/retry";\nscheduleRetry(5);\n',
      'test/retry.test.ts': 'scheduleRetry(1);\n',
      'src/errors.ts': 'throw new Error("does not delay the retry");\n',
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`lib/l${i}.ts`, `${logger}\n`])),
      'data/min.js': `${'x'.repeat(5000)}NEEDLE_AT_END();\n`,
    });
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('answers an error message with its one line, no bigger than rg -n would print it', async () => {
    const text = textOf(await t.call('search', { pattern: 'Invalid DurationInput' }));
    assert.equal(text, '1 hit\nsrc/duration.ts\n  2: throw new Error("Invalid DurationInput")');
    const rgLine = 'src/duration.ts:2:  throw new Error("Invalid DurationInput")\n';
    assert.ok(text.length <= rgLine.length * 1.5, `${text.length} vs ${rgLine.length}`);
  });

  it('lists the lines as rg would (by path, then line), the files holding a definition first', async () => {
    const text = textOf(await t.call('search', { pattern: 'scheduleRetry' }));
    assert.equal(text, '4 hits in 3 files\nsrc/retry.ts\n  2: export function scheduleRetry(delayMs: number) {\napp/use.ts\n  1: import { scheduleRetry } from "../src/retry";\n  2: scheduleRetry(5);\ntest/retry.test.ts\n  1: scheduleRetry(1);');
  });

  it('takes regex metacharacters as the text they are', async () => {
    const r = await t.call('search', { pattern: 'setTimeout(run,' });
    assert.match(textOf(r), /^1 hit\nsrc\/retry\.ts\n {2}3: return setTimeout\(run, delayMs\)$/);
  });

  it('answers in another case only when nothing holds the text as typed, and says so', async () => {
    const r = await t.call('search', { pattern: 'invalid durationinput' });
    assert.match(textOf(r), /^no exact-case match; 1 hit ignoring case\n/);
    assert.equal((r.structuredContent as { match: string }).match, 'ignore-case');
  });

  it('answers by words when the text is nowhere, and a question by words first', async () => {
    const absent = await t.call('search', { pattern: 'retries scheduled' });
    assert.match(textOf(absent), /^no exact match for "retries scheduled"; closest lines by words \(retr, schedul\):\n/);
    assert.match(textOf(absent), /\nsrc\/retry\.ts\n {2}1: \/\*\* Schedules the next retry after a delay\. \*\/\n/);
    const question = await t.call('search', { pattern: 'where are retries scheduled?' });
    assert.match(textOf(question), /^a question: answered by words; closest lines by words/);
    assert.equal((question.structuredContent as { match: string }).match, 'words');
    const unasked = await t.call('search', { pattern: 'where are retries scheduled' });
    assert.match(textOf(unasked), /^a question: answered by words; closest lines by words/, 'no exact line: words, and says it read a question');
    const message = await t.call('search', { pattern: 'does not delay' });
    assert.equal((message.structuredContent as { match: string }).match, 'exact', 'text that reads like a question is still tried as typed first');
    const nothing = await t.call('search', { pattern: 'zyxwvut qponml' });
    assert.match(textOf(nothing), /^no match: no line holds "zyxwvut qponml" \(in any case\), and no code matches its words$/);
  });

  it('refuses an exact text only when it is too broad, suggesting whole words with the count they yield', async () => {
    const refused = await t.call('search', { pattern: 'log' });
    const envelope = refused.structuredContent as { status: string; suggestions: { action: string; arg?: string; wouldYield?: number }[] };
    assert.equal(envelope.status, 'refine');
    const whole = envelope.suggestions.find((s) => s.action === 'use_regex');
    assert.deepEqual(whole && [whole.arg, whole.wouldYield], ['\\blog\\b', 3]);
    assert.match(textOf(refused), /regex "\\blog\\b" \(3 hits\)/);
    const followed = await t.call('search', { pattern: whole!.arg, regex: true });
    assert.match(textOf(followed), /^3 hits\nsrc\/log\.ts\n/);
  });

  it('shows a huge line around its match, never whole', async () => {
    const text = textOf(await t.call('search', { pattern: 'NEEDLE_AT_END' }));
    assert.match(text, /^1 hit\ndata\/min\.js\n {2}1: …x{100}NEEDLE_AT_END\(\);$/);
    assert.ok(text.length < 600, `${text.length} chars`);
  });

  it('refuses bad patterns with an error that names what is wrong', async () => {
    const cases: [unknown, RegExp][] = [
      [{ pattern: '' }, /pattern is empty/],
      [{ pattern: '   ' }, /pattern is only whitespace/],
      [{ pattern: 'a\nb' }, /line break: search matches within one line/],
      [{ pattern: 'a\u0000b' }, /control character U\+0000 at 2/],
      [{ pattern: 'x'.repeat(501) }, /must be at most 500 characters/],
      [{ pattern: 'Foo[bar', regex: true }, /not a valid regular expression[\s\S]*without regex:true the pattern is searched as typed/],
    ];
    for (const [args, message] of cases) {
      const r = await t.call('search', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(textOf(r), message);
    }
    const literal = await t.call('search', { pattern: 'Foo[bar' });
    assert.notEqual(literal.isError, true, 'the same text without regex:true is a literal');
  });
});
