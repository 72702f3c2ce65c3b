import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { createBuiltinAdapter } from '../../src/retrieval/graph.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

type Structured = Record<string, unknown>;

// Every app here parses and greps in this thread: a worker pool costs each app ~0.5 s of CPU to
// start (tree-sitter and its grammars loaded again per worker), and these tests make a dozen apps
// on a few files each. The answers are the same (a worker runs the same parseInThread/runScanJob);
// the pools themselves are tested on their own.
const IN_THREAD = { CTXGATE_PARSE_WORKERS: '0', CTXGATE_GREP_WORKERS: '0' };
const newApp = (root: string) => testApp(root, { graphBackend: 'builtin' }, IN_THREAD);

/** A fixture project with its code index built (test/helpers/indexed.ts's, on an in-thread app). */
async function indexedFixture(files: Record<string, string>): Promise<{ t: TestApp; root: string }> {
  const root = fixture(files);
  const t = newApp(root);
  await t.app.code.refresh();
  return { t, root };
}

async function closeFixture(t: TestApp, root: string): Promise<void> {
  await t.close();
  removeDir(root);
}

const overloads = Array.from({ length: 6 }, (_, i) => `export function pipe<A${i}>(a: A${i}, n${i}: number): A${i}`).join('\n');
const manyConsts = Array.from({ length: 300 }, (_, i) => `/** step ${i} */\nexport const step${i} = (x: number): number => x + ${i}\n`).join('\n');

const FILES: Record<string, string> = {
  'src/Function.ts': `/**
 * Pipes a value through functions.
 */
${overloads}
export function pipe(
  a: unknown,
  ab?: Function,
  bc?: Function
): unknown {
  switch (arguments.length) {
    case 1:
      return a
    default:
      return bc ? bc(ab!(a)) : ab!(a)
  }
}
`,
  'src/Effect.ts': `import { pipe } from './Function.js'
import * as Retry from './Retry.js'

/** Runs a generator as an effect. */
export const gen = (f: () => unknown) => pipe(f(), Retry.withBackoff)

export const map = (self: number) => pipe(self, gen)
`,
  'src/Option.ts': `/** The Option flavour of gen. */
export const gen = () => 1
`,
  'src/Retry.ts': `/**
 * Payment retry logic: retries a failed payment with exponential backoff.
 */
export function withBackoff(attempt: number): number {
  return Math.min(1000, 2 ** attempt * computeDelay(attempt))
}

export function computeDelay(attempt: number): number {
  return attempt * 10
}

// withBackoff is tuned for payments
export class PaymentRetrier {
  retry(attempt: number): number {
    return withBackoff(attempt)
  }
}
`,
  'src/Big.ts': manyConsts,
  'go/store/store.go': `package store

type Store struct{}

// Put stores a value.
func (s *Store) Put(key string) error {
	return nil
}
`,
  'rs/src/lib.rs': `pub struct Parser {}

impl Parser {
    /// Parses a number.
    pub fn parse_number(&self) -> i64 {
        1
    }
}
`,
  'docs/ChangeLog': 'withBackoff() now caps at one second\n',
  'docs/guide.md': '# withBackoff\n\nfunction withBackoff() is documented here\n',
  'test/retry.test.ts': "import { withBackoff } from '../src/Retry';\nwithBackoff(1);\n",
};

// FILES built once, for the tools' answers below and as the built index the first session's answers
// are compared with (which only reads it, each call in a session of its own).
let filesBuilt: Promise<{ t: TestApp; root: string }> | undefined;
const filesProject = () => (filesBuilt ??= indexedFixture(FILES));
after(async () => {
  if (filesBuilt) {
    const { t, root } = await filesBuilt;
    await closeFixture(t, root);
  }
});

describe('gate tools answering from the code index', () => {
  let t: TestApp;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await t.call(tool, args);
    return { text: textOf(r), structured: (r.structuredContent ?? {}) as Structured, isError: r.isError };
  };

  before(async () => {
    ({ t } = await filesProject());
  });

  it('reads an overloaded function as its implementation, with its doc comment and one line listing the overloads', async () => {
    const r = await call('read', { target: 'pipe' });
    const [head, ...rest] = r.text.split('\n');
    assert.equal(head, 'src/Function.ts:10-21');
    assert.match(rest.join('\n'), /^export function pipe\(\n {2}a: unknown,[\s\S]*\n\}\n\(6 overload signatures of pipe: 4 pipe<A0>\(a: A0, n0: number\): A0 \| 5 pipe<A1>/);
  });

  it('reads file:line anywhere in a definition as the whole definition, header and doc comment included', async () => {
    for (const line of [12, 17]) {
      const r = await call('read', { target: `src/Function.ts:${line}` });
      assert.equal(r.text.split('\n')[0], 'src/Function.ts:10-21', `line ${line}`);
    }
    const doc = await call('read', { target: 'src/Retry.ts:5' });
    assert.match(doc.text, /^src\/Retry\.ts:1-6\n\/\*\*\n \* Payment retry logic/);
  });

  it('resolves Namespace.member, Class.method, Go receivers and Rust impl members', async () => {
    const cases: [string, string][] = [
      ['Effect.gen', 'src/Effect.ts:4-5'],
      ['Option.gen', 'src/Option.ts:1-2'],
      ['PaymentRetrier.retry', 'src/Retry.ts:14-16'],
      ['Store.Put', 'go/store/store.go:5-8'],
      ['Parser.parse_number', 'rs/src/lib.rs:4-7'],
    ];
    for (const [target, head] of cases) assert.equal((await call('read', { target })).text.split('\n')[0], head, target);
  });

  it('outlines a big file with every top-level definition, consts and arrow functions included, and says how many more', async () => {
    const r = await call('read', { target: 'src/Big.ts', max_tokens: 800 });
    assert.match(r.text, /^src\/Big\.ts: \d+ lines, too large to read whole \(budget 800 tokens\)\noutline:\n2 function step0 · 5 function step1 · 8 function step2/);
    assert.match(r.text, /… \d+ more definitions \(read a range to see them\)/);
    assert.equal((r.structured.outline as unknown[]).length, 300);
  });

  it('locates overloads of one symbol in one file as one row, with the implementation\'s range', async () => {
    const r = await call('locate', { query: 'pipe', kind: 'definition' });
    const rows = r.structured.results as { file: string; line: number; endLine: number; overloads?: number }[];
    assert.deepEqual(rows.map((x) => [x.file, x.line, x.endLine, x.overloads]), [['src/Function.ts', 10, 21, 6]]);
  });

  it('never takes documentation or changelog lines for definitions', async () => {
    const r = await call('locate', { query: 'withBackoff', kind: 'definition' });
    assert.deepEqual((r.structured.results as { file: string }[]).map((x) => x.file), ['src/Retry.ts']);
    const any = await call('locate', { query: 'withBackoff', max_results: 20 });
    const kinds = Object.fromEntries((any.structured.results as { file: string; line: number; kind: string }[]).map((x) => [`${x.file}:${x.line}`, x.kind]));
    assert.equal(kinds['docs/ChangeLog:1'], 'comment');
    assert.equal(kinds['docs/guide.md:3'], 'comment');
    assert.equal(kinds['src/Retry.ts:12'], 'comment');
    assert.equal(kinds['src/Retry.ts:15'], 'call');
  });

  it('lists callers as real calls with their enclosing functions, other mentions counted apart', async () => {
    const r = await call('explore', { question: 'who calls withBackoff', anchor: 'withBackoff', relation: 'callers' });
    assert.match(r.text, /withBackoff: 1 definition \(src\/Retry\.ts:4 function\); 2 calls in 2 files/);
    assert.match(r.text, /not calls, counted apart: 0 type uses, 1 import, 1 mention in comments/);
    assert.match(r.text, /src\/Retry\.ts: 15 in PaymentRetrier\.retry/);
    assert.match(r.text, /test\/retry\.test\.ts: 2 \(top level\)/);
    assert.doesNotMatch(r.text, /src\/Effect\.ts/, 'Effect.ts passes withBackoff as a value: not a call');
    assert.match(r.text, /answered from the code index/);
  });

  it('answers callees, dependencies, impact and an overview from the graph', async () => {
    const callees = await call('explore', { question: 'what does it call', anchor: 'withBackoff', relation: 'callees' });
    assert.match(callees.text, /computeDelay → src\/Retry\.ts:8/);
    assert.match(callees.text, /Math\.min \(outside the project\)/);
    const deps = await call('explore', { question: 'imports', anchor: 'src/Effect.ts', relation: 'dependencies' });
    assert.match(deps.text, /src\/Effect\.ts imports 2, is imported by 0/);
    assert.match(deps.text, /1: \.\/Function\.js → src\/Function\.ts/);
    const impact = await call('explore', { question: 'what breaks', anchor: 'computeDelay', relation: 'impact' });
    assert.match(impact.text, /depth 1: withBackoff src\/Retry\.ts:4/);
    assert.match(impact.text, /depth 2: PaymentRetrier\.retry src\/Retry\.ts:14/);
    const overview = await call('explore', { question: 'overview', relation: 'overview' });
    assert.match(overview.text, /^overview: \d+ source files in \d+ modules/);
    assert.match(overview.text, /src: \d+ files \(typescript\); key: /);
  });

  it('answers the exact text first (in another case when that is all there is), a question with definition blocks', async () => {
    const exact = await call('search', { pattern: 'payment retry logic' });
    assert.equal(exact.structured.match, 'ignore-case');
    assert.match(exact.text, /^no exact-case match; 1 hit ignoring case\nsrc\/Retry\.ts\n {2}2: \* Payment retry logic: retries/);
    const r = await call('search', { pattern: 'where is the payment retry logic?' });
    assert.equal(r.structured.match, 'words');
    const results = r.structured.results as { file: string; line: number }[];
    assert.deepEqual([results[0]!.file, results[0]!.line], ['src/Retry.ts', 4]);
    assert.match(r.text, /^a question: answered by words; closest definitions by words \(payment, retry, logic\):/);
    const backoff = await call('search', { pattern: 'exponential retries' });
    assert.match(backoff.text, /^no exact match for "exponential retries"; closest definitions by words/);
    assert.equal((backoff.structured.results as { line: number }[])[0]?.line, 4);
  });
});

describe('while the code index is being built', () => {
  it('reports its progress to a client that asked, and answers from a file scan meanwhile', async () => {
    const root = fixture({ 'src/a.ts': 'export function alpha() {\n  return 1;\n}\n' });
    const t = newApp(root);
    try {
      const building = { ...t.app.code, status: () => ({ state: 'building' as const, done: 3, total: 10 }), ready: async () => undefined };
      const app = { ...t.app, code: building };
      const seen: [number, number | undefined, string | undefined][] = [];
      const registry = createToolRegistry(TOOLS);
      const r = await registry.call('locate', { query: 'alpha' }, { app, session: createClientSession('p'), signal: new AbortController().signal, progress: async (p, total, message) => void seen.push([p, total, message]) });
      assert.deepEqual(seen, [[3, 10, 'building the code index: 3 of 10 files (answering from a file scan meanwhile)']]);
      assert.match(textOf(r), /src\/a\.ts:1-3 definition/);
    } finally {
      await t.close();
      removeDir(root);
    }
  });
});

describe('before the code index\'s first build is done', () => {
  type Ask = (tool: string, args: Record<string, unknown>) => Promise<{ text: string; structured: Record<string, unknown> }>;

  /** `test` gets an app whose index never says it is complete (every answer parses on demand) and a second app on the same files, not built yet. */
  async function firstSession(files: Record<string, string> | (() => Promise<{ t: TestApp; root: string }>), test: (ask: Ask, built: TestApp, events: { event: string; fields: Record<string, unknown> }[]) => Promise<void>): Promise<void> {
    // Files of its own, or a project already built by the suite (then left to it).
    const shared = typeof files === 'function' ? await files() : undefined;
    const root = shared?.root ?? fixture(files as Record<string, string>);
    const built = shared?.t ?? newApp(root);
    const fresh = newApp(root);
    const events: { event: string; fields: Record<string, unknown> }[] = [];
    try {
      const notBuilt = { ...fresh.app.code, ready: async () => undefined };
      const logger = { ...fresh.app.logger, log: (event: string, fields: Record<string, unknown> = {}) => void events.push({ event, fields }) };
      const app = { ...fresh.app, logger, code: notBuilt, graph: createBuiltinAdapter(notBuilt) };
      const registry = createToolRegistry(TOOLS);
      const ask: Ask = async (tool, args) => {
        const r = await registry.call(tool, args, { app, session: createClientSession('first'), signal: new AbortController().signal, progress: async () => undefined });
        return { text: textOf(r), structured: r.structuredContent as Record<string, unknown> };
      };
      await test(ask, built, events);
    } finally {
      await fresh.close();
      if (!shared) {
        await built.close();
        removeDir(root);
      }
    }
  }

  /** Asks each question before the first build and of a built index: the same answers. */
  async function sameAsBuilt(files: Record<string, string> | (() => Promise<{ t: TestApp; root: string }>), asks: [string, Record<string, unknown>][], more?: (ask: Ask) => Promise<void>): Promise<void> {
    await firstSession(files, async (ask, built) => {
      await built.app.code.refresh();
      for (const [tool, args] of asks) {
        const before = await ask(tool, args);
        const after = await built.call(tool, args, createClientSession('built'));
        assert.equal(before.text, textOf(after), `${tool} ${JSON.stringify(args)}`);
      }
      await more?.(ask);
    });
  }

  it('reads, locates and explores with the answers of the built index: the files an answer rests on are parsed on demand', async () => {
    const asks: [string, Record<string, unknown>][] = [
      ['read', { target: 'pipe' }],
      ['read', { target: 'src/Function.ts:12' }],
      ['read', { target: 'PaymentRetrier.retry' }],
      ['read', { target: 'src/Big.ts', max_tokens: 800 }],
      ['locate', { query: 'pipe', kind: 'definition' }],
      ['explore', { question: 'who calls withBackoff', anchor: 'withBackoff', relation: 'callers' }],
      ['explore', { question: 'what does it call', anchor: 'withBackoff', relation: 'callees' }],
    ];
    await sameAsBuilt(filesProject, asks, async (ask) => {
      assert.match((await ask('read', { target: 'pipe' })).text, /^src\/Function\.ts:10-21\nexport function pipe\(/, 'the implementation, not an overload line');
    });
  });

  it('finds the declarations no definition line shows: a field without a modifier, a parameter', async () => {
    // Only runtime.ts holds a line the line heuristics call a definition (`readonly fiber:`).
    const files = {
      'src/rc.ts': 'export interface Acquired {\n  fiber: string | undefined\n  count: number\n}\n',
      'src/runtime.ts': "export class AsyncFiberException {\n  readonly fiber: string = ''\n}\n",
      'src/use.ts': 'export function ensure(fiber: string): string {\n  return fiber\n}\n',
    };
    await sameAsBuilt(files, [
      ['read', { target: 'fiber' }],
      ['locate', { query: 'fiber', kind: 'definition' }],
    ], async (ask) => {
      const located = (await ask('locate', { query: 'fiber', kind: 'definition' })).text;
      assert.match(located, /src\/rc\.ts:2 definition/);
      assert.match(located, /src\/use\.ts:1 local .*parameter of ensure/);
    });
  });

  it('reads for a definition only the files the lookup found naming it, not the whole tree: a script without a grammar still answers', async () => {
    const files: Record<string, string> = {
      'src/gauge.ts': 'export function gauge(): number {\n  return 1\n}\n',
      'scripts/gauge.sh': 'gauge() {\n  echo 1\n}\n',
      'src/other.ts': 'export const gaugeless = 1\n',
    };
    for (let i = 0; i < 40; i++) files[`src/more/m${i}.ts`] = `export const m${i} = ${i}\n`;
    // One session for both checks (its first call is the one whose scan is looked at).
    await firstSession(files, async (ask, built, events) => {
      const ask1 = { tool: 'locate', args: { query: 'gauge', kind: 'definition' } };
      const located = (await ask(ask1.tool, ask1.args)).text;
      // The scan behind it was given the lookup's list: of the files naming `gauge`, it read the one
      // without a grammar (the script), and walked no tree.
      const scans = events.filter((e) => e.event === 'fileio_scan');
      assert.deepEqual(scans.map((e) => e.fields.files), [1], JSON.stringify(scans));
      assert.match(located, /src\/gauge\.ts:1-3 definition/);
      assert.match(located, /scripts\/gauge\.sh:1-3 definition/);
      await built.app.code.refresh();
      assert.equal(located, textOf(await built.call(ask1.tool, ask1.args)), 'the answer of the built index');
    });
  });

  it('says when a common name was looked up in part of its files only: the counts are lower bounds, then exact once built', async () => {
    // `knob` is named in 310 files (over the 300 a first call parses whole): only the files with a
    // line that may declare it are parsed, so the parameter in take.ts is not seen before the build.
    const files: Record<string, string> = {
      'src/knob.ts': 'export function knob(): number {\n  return 1\n}\n',
      'src/panel.ts': 'export const knob = 2\n',
      'src/take.ts': 'export function take(a: number, knob: number): number {\n  return a + knob\n}\n',
    };
    for (let i = 0; i < 310; i++) files[`src/uses/u${i}.ts`] = `import { knob } from '../knob.js'\nexport const v${i} = knob()\n`;
    await firstSession(files, async (ask, built) => {
      const first = await ask('locate', { query: 'knob', kind: 'definition' });
      assert.match(first.text, /^2 of 2\+ for knob\n/);
      assert.match(first.text, /\(the code index is still being built: of the files naming knob, only those with a line that may declare it were parsed/);
      assert.equal(first.structured.lowerBound, true);
      const read = await ask('read', { target: 'knob' });
      assert.match(read.text, /1\+ other definitions of knob:\n {2}src\/panel\.ts:1 /);
      assert.match(read.text, /still being built/);
      assert.equal((read.structured as { othersLowerBound?: boolean }).othersLowerBound, true);
      // Built: every declaration, the parameter too, counted exactly and without the note.
      await built.app.code.refresh();
      const after = textOf(await built.call('locate', { query: 'knob', kind: 'definition' }));
      assert.match(after, /^3 of 3 for knob\n/);
      assert.match(after, /src\/take\.ts:1 local .*parameter of take/);
      assert.doesNotMatch(after, /still being built/);
      assert.doesNotMatch(textOf(await built.call('read', { target: 'knob' })), /\+ other|still being built/);
    });
  });
});

describe('explore callers counts calls as written', () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    ({ t, root } = await indexedFixture({
      'src/scale.ts': 'export function scale(x: number): number {\n  return x * 2\n}\n',
      'src/use.ts': "import { scale } from './scale.js'\n\nexport function both(a: number, b: number): number {\n  return scale(a) + scale(b)\n}\n\nexport function one(a: number): number {\n  return scale(a)\n}\n",
    }));
  });
  after(() => closeFixture(t, root));

  it('counts two calls of the name on one line as two, and marks that line', async () => {
    const r = await t.call('explore', { anchor: 'scale', relation: 'callers' }, createClientSession('counts'));
    const text = textOf(r);
    assert.match(text, /scale: 1 definition \(src\/scale\.ts:1 function\); 3 calls in 1 file/);
    assert.match(text, /how resolved: 3 through an import/);
    assert.match(text, /src\/use\.ts: 4 \(×2\) in both; 8 in one/);
  });
});
