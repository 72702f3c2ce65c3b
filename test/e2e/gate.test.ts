import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixture, removeDir, repoRoot } from '../helpers/env.ts';
import { connectStdio } from '../helpers/server.ts';

type Reply = { content: { text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

const REPO = path.join(repoRoot, 'test', 'fixtures', 'gate-repo');

describe('gate tools over a real MCP client', () => {
  let client: Client;
  let dataDir: string;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Reply;

  before(async () => {
    dataDir = fixture();
    ({ client } = await connectStdio(['--project-root', REPO, '--graph-backend', 'none'], { CTXGATE_DATA_DIR: dataDir }));
  });
  after(async () => {
    await client.close();
    removeDir(dataDir);
  });

  it('ranks a symbol\'s definition first, in every language of the fixture', async () => {
    for (const [symbol, file] of [
      ['OrderHandler', 'ts/src/orders/order-handler.ts'],
      ['apply_discount', 'py/shop/cart.py'],
      ['NewStore', 'go/store/store.go'],
      ['parse_all', 'rs/src/lib.rs'],
    ]) {
      const r = await call('locate', { query: symbol });
      const results = r.structuredContent?.results as { file: string; kind: string }[];
      assert.equal(results[0]?.file, file, symbol);
      assert.equal(results[0]?.kind, 'definition', symbol);
    }
  });

  it('locate kind=definition returns only definitions, with their line range', async () => {
    const r = await call('locate', { query: 'handle', kind: 'definition' });
    const results = r.structuredContent?.results as { file: string; line: number; endLine: number }[];
    assert.deepEqual(results.map((x) => [x.file, x.line, x.endLine]), [['ts/src/orders/order-handler.ts', 7, 12]]);
    assert.match(r.content[0]!.text, /ts\/src\/orders\/order-handler\.ts:7-12 definition/);
  });

  it('read of a method returns exactly that method, in TS, Python, Go and Rust', async () => {
    const cases: [string, string, RegExp, RegExp][] = [
      ['OrderHandler.handle', 'ts/src/orders/order-handler.ts:7-12', /^ {2}handle\(order: Order\): number \{[\s\S]*return this\.queue\.push\(order\);\n {2}\}$/, /cancel/],
      ['Cart.add_item', 'py/shop/cart.py:10-12', /^ {4}def add_item\(self, name, price\):[\s\S]*return len\(self\.items\)$/, /def total/],
      ['Store.Put', 'go/store/store.go:13-19', /^func \(s \*Store\) Put\(key string, value int\) error \{[\s\S]*return nil\n\}$/, /NewStore/],
      ['Parser.parse_number', 'rs/src/lib.rs:10-12', /^ {4}pub fn parse_number\(&self\) -> Option<i64> \{[\s\S]*\n {4}\}$/, /fn new/],
    ];
    for (const [target, header, body, notIncluded] of cases) {
      const text = (await call('read', { target })).content[0]!.text;
      const [first, ...rest] = text.split('\n');
      assert.equal(first, header, target);
      assert.match(rest.join('\n'), body, target);
      assert.doesNotMatch(rest.join('\n'), notIncluded, target);
    }
  });

  it('reads ranges, expanded to the enclosing block unless expand is false', async () => {
    const expanded = (await call('read', { target: 'ts/src/orders/order-handler.ts:9-9' })).content[0]!.text;
    assert.match(expanded.split('\n')[0]!, /^ts\/src\/orders\/order-handler\.ts:8-10$/);
    const exact = (await call('read', { target: 'ts/src/orders/order-handler.ts:9-9', expand: false })).content[0]!.text;
    assert.equal(exact, "ts/src/orders/order-handler.ts:9-9\n      throw new Error('order without id');");
  });

  it('refuses paths outside the project and unknown symbols clearly', async () => {
    const out = await call('read', { target: '../../../../etc/passwd' });
    assert.equal(out.isError, true);
    assert.match(out.content[0]!.text, /OUTSIDE_WORKDIR/);
    const missing = await call('read', { target: 'NoSuchThing' });
    assert.match(missing.content[0]!.text, /NOT_FOUND: no definition of NoSuchThing found/);
  });

  it('explore answers callers and overview from a file scan, saying what a graph would add', async () => {
    const callers = (await call('explore', { question: 'who calls handle', anchor: 'handle', relation: 'callers' })).content[0]!.text;
    assert.match(callers, /ts\/src\/checkout\.ts: 8 in export function checkout/);
    assert.match(callers, /no graph backend answered/);
    const overview = (await call('explore', { question: 'overview', relation: 'overview' })).content[0]!.text;
    assert.match(overview, /^overview: \d+ files/);
    assert.match(overview, /ts\/src: /);
  });
});

describe('the code index over a real MCP client', () => {
  let client: Client;
  let dataDir: string;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Reply;

  before(async () => {
    dataDir = fixture();
    ({ client } = await connectStdio(['--project-root', REPO], { CTXGATE_DATA_DIR: dataDir }));
    // The first call starts the build in the background; ask until the index answers (bounded).
    for (let i = 0; i < 200; i++) {
      const r = await call('explore', { question: 'overview', relation: 'overview' });
      if (/answered from the code index/.test(r.content[0]!.text)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the code index never answered');
  });
  after(async () => {
    await client.close();
    removeDir(dataDir);
  });

  it('lists callers as calls with their enclosing function, mentions in strings left out', async () => {
    const text = (await call('explore', { question: 'who calls handle', anchor: 'OrderHandler.handle', relation: 'callers' })).content[0]!.text;
    assert.match(text, /ts\/src\/checkout\.ts: 8 in checkout/);
    assert.doesNotMatch(text, /checkout\.ts: 6/);
  });

  it('reads a line inside a method as the whole method, and a file:line range in Python, Go and Rust alike', async () => {
    const cases: [string, string][] = [
      ['ts/src/orders/order-handler.ts:9', 'ts/src/orders/order-handler.ts:7-12'],
      ['py/shop/cart.py:11', 'py/shop/cart.py:10-12'],
      ['go/store/store.go:15', 'go/store/store.go:13-19'],
      ['rs/src/lib.rs:11', 'rs/src/lib.rs:10-12'],
    ];
    for (const [target, head] of cases) assert.equal((await call('read', { target })).content[0]!.text.split('\n')[0], head, target);
  });
});

describe('backpressure over a real MCP client', () => {
  let client: Client;
  let repo: string;
  let dataDir: string;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Reply;

  before(async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`lib/widgets/w${i}.ts`] = `export function render${i}() {\n  return widget(${i});\n}\n`;
    files['app/main.ts'] = 'import { widget } from "../lib/widget";\nexport function main() {\n  return widget(0);\n}\n';
    files['app/widget-view.ts'] = 'export function widget(n: number) {\n  return n;\n}\n';
    repo = fixture(files);
    dataDir = fixture();
    // The file-scan answers, pinned: the code index's own answers are tested in test/tools/gate-code.test.ts.
    ({ client } = await connectStdio(['--project-root', repo, '--graph-backend', 'none'], { CTXGATE_DATA_DIR: dataDir }));
  });
  after(async () => {
    await client.close();
    removeDir(repo);
    removeDir(dataDir);
  });

  it('refuses a broad search with a distribution whose narrow_scope suggestion passes when followed', async () => {
    const refused = await call('search', { pattern: 'widget' });
    const e = refused.structuredContent as { status: string; reason: string; distribution: { dir: string; hits: number }[]; suggestions: { action: string; arg?: string; wouldYield?: number }[]; refusalCount: number };
    assert.equal(e.status, 'refine');
    assert.equal(e.reason, 'breadth');
    assert.equal(e.refusalCount, 1);
    assert.deepEqual(e.distribution[0], { dir: 'lib/widgets', hits: 40 });
    const narrow = e.suggestions.find((s) => s.action === 'narrow_scope')!;
    assert.equal(narrow.arg, 'app');
    const followed = await call('search', { pattern: 'widget', scope: narrow.arg });
    assert.equal(followed.structuredContent?.status, 'ok');
    assert.equal(followed.structuredContent?.totalFound, narrow.wouldYield);
  });

  it('excludes folders on request, and answers within the scope it was given', async () => {
    const r = await call('search', { pattern: 'widget', exclude: ['lib'] });
    assert.equal(r.structuredContent?.status, 'ok');
    const files = ((r.structuredContent?.results ?? []) as { file: string }[]).map((x) => x.file);
    assert.ok(files.length > 0 && files.every((f) => f.startsWith('app/')), files.join(','));
    const scoped = await call('locate', { query: 'widget', kind: 'definition', scope: 'app' });
    assert.deepEqual(((scoped.structuredContent?.results ?? []) as { file: string }[]).map((x) => x.file), ['app/widget-view.ts'], scoped.content[0]?.text);
  });

  it('reads a large file as an outline and its first part, never the whole', async () => {
    const { writeFileSync } = await import('node:fs');
    const body = Array.from({ length: 400 }, (_, i) => `export function step${i}(x: number): number {\n  return x + ${i};\n}\n`).join('\n');
    writeFileSync(path.join(repo, 'app', 'big.ts'), body);
    const r = await call('read', { target: 'app/big.ts', max_tokens: 1500 });
    const text = r.content[0]!.text;
    assert.match(text, /^app\/big\.ts: \d+ lines, too large to read whole \(budget 1500 tokens\)\noutline:\n1: export function step0/);
    assert.equal(r.structuredContent?.complete, false);
    assert.ok(text.length < 1500 * 3.5 * 1.2, `bounded: ${text.length} chars`);
    assert.match(text, /continues to line \d+: read app\/big\.ts:\d+-\d+/);
  });

  it('opens after three refusals in a row, and force bypasses the gate', async () => {
    for (const n of [1, 2, 3]) assert.equal((await call('search', { pattern: 'render' })).structuredContent?.refusalCount, n);
    const fourth = await call('search', { pattern: 'render' });
    assert.equal(fourth.structuredContent?.status, 'ok');
    assert.match(fourth.content[0]!.text, /gate opened after repeated refusals/);
    const forced = await call('search', { pattern: 'widget', force: true, max_tokens: 200 });
    assert.equal(forced.structuredContent?.status, 'ok');
    assert.match(forced.content[0]!.text, /forced past the gate/);
    assert.match(forced.content[0]!.text, /more hits cut to fit 200 tokens/);
  });
});
