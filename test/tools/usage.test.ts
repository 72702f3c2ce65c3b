import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

// Issue 16: a call saves only what the agent would otherwise have received in a reply, and each
// saving names what it was compared with.
describe('usage records and honest savings', () => {
  let root: string;
  let t: TestApp;
  const files: Record<string, string> = {};
  before(() => {
    for (let i = 0; i < 40; i++) files[`lib/widgets/w${i}.ts`] = `export function render${i}() {\n  return widget(${i});\n}\n`;
    files['app/widget-view.ts'] = 'export function widget(n: number) {\n  return n;\n}\n';
    files['docs/guide.md'] = `# Guide\n\n${'Some words about widgets and rendering.\n'.repeat(200)}`;
    files['app/big.ts'] = Array.from({ length: 400 }, (_, i) => `export function step${i}(x: number): number {\n  return x + ${i};\n}\n`).join('\n');
    root = fixture(files);
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  async function rows() {
    await t.app.usage.flush();
    const kb = await t.app.kb.get();
    return { kb, recent: await kb.recentCalls(100), totals: await kb.usageTotals() };
  }

  it('counts nothing saved for indexing, or for a reply that sent everything', async () => {
    await t.call('ctx_kb', { action: 'index', path: 'docs' });
    await t.call('ctx_run', { action: 'execute', command: 'echo small' });
    const { recent, totals } = await rows();
    assert.deepEqual(
      recent.map((r) => [r.tool, r.action, r.outcome, r.savedBytes]),
      [
        ['ctx_run', 'execute', 'ok', 0],
        ['ctx_kb', 'index', 'ok', 0],
      ],
    );
    assert.equal(totals.savedBytes, 0);
  });

  it('saves the output kept out of a reply: its size minus the reply', async () => {
    const r = await t.call('ctx_run', { action: 'execute', command: 'seq 1 50000' });
    const replyBytes = new TextEncoder().encode(textOf(r)).length;
    const { recent } = await rows();
    const call = recent[0]!;
    assert.equal(call.tool, 'ctx_run');
    assert.equal(call.replyBytes, replyBytes);
    const output = (r.structuredContent as { bytes: number }).bytes;
    assert.equal(call.savedBytes, output - replyBytes);
  });

  it('records a refusal with its reason and no saving, and the answer that followed it', async () => {
    const refused = await t.call('search', { pattern: 'widget' });
    const envelope = refused.structuredContent as { status: string; reason: string };
    assert.equal(envelope.status, 'refine');
    const answered = await t.call('search', { pattern: 'widget', scope: 'app' });
    assert.equal((answered.structuredContent as { status: string }).status, 'ok');
    const { recent } = await rows();
    assert.deepEqual(recent.slice(0, 2).map((c) => [c.tool, c.outcome, c.detail, c.savedBytes]), [
      ['search', 'ok', 'followed', 0],
      ['search', 'refused', envelope.reason, 0],
    ]);
  });

  it('saves the hits a search trimmed to its budget, and the file a read did not send whole', async () => {
    const trimmed = await t.call('search', { pattern: 'render', max_hits: 3, force: true });
    assert.equal((trimmed.structuredContent as { returned: number }).returned, 3);
    const read = await t.call('read', { target: 'app/big.ts', max_tokens: 800 });
    assert.equal((read.structuredContent as { complete: boolean }).complete, false);
    const ranged = await t.call('read', { target: 'app/big.ts:1-3' });
    assert.ok(textOf(ranged).length > 0);
    const { kb, recent, totals } = await rows();
    const [rangeRead, fileRead, search] = recent;
    assert.equal(rangeRead!.savedBytes, 0, 'a range was asked for: nothing to compare with');
    const fileBytes = new TextEncoder().encode(files['app/big.ts']!).length;
    assert.equal(fileRead!.savedBytes, fileBytes - fileRead!.replyBytes);
    assert.ok(search!.savedBytes > 0);
    const bases = totals.byBasis.map((b) => b.basis).sort();
    assert.deepEqual(bases, ['block instead of file', 'output kept out', 'rg -n output']);
    // Totals per tool and overall come from the same rows.
    assert.equal(totals.byTool.reduce((n, x) => n + x.savedBytes, 0), totals.savedBytes);
    assert.equal((await kb.usageTotals({ processSession: t.app.processSessionId })).savedBytes, totals.savedBytes);
    assert.equal((await kb.usageTotals({ processSession: 'another-server' })).calls, 0);
  });

  it('gives each tool its median latency, the lower middle of an even count', async () => {
    const kb = await t.app.kb.get();
    const row = (durationMs: number) => ({ at: Date.now(), processSession: 'median-test', clientSession: 'c', tool: 'median_probe', outcome: 'ok' as const, durationMs, replyBytes: 1 });
    await kb.writeCalls([5, 1, 9, 3].map(row));
    const probe = async () => (await kb.usageTotals({ processSession: 'median-test' })).byTool.find((x) => x.tool === 'median_probe')!;
    assert.equal((await probe()).p50Ms, 3);
    await kb.writeCalls([row(7)]);
    assert.equal((await probe()).p50Ms, 5);
  });

  it('says in ctx_kb stats what was saved, compared with what', async () => {
    const text = textOf(await t.call('ctx_kb', { action: 'stats' }));
    assert.match(text, /saved ~[\d,]+ tokens \([\d.]+ [KM]?B\) over \d+ calls in this project/);
    assert.match(text, /output kept out \(compared with the whole output of a command, listing, diff or job log, indexed or spooled instead\): 1 call, /);
    assert.match(text, /block instead of file \(compared with the whole file, where read answered with its outline and first part\): 1 call, /);
    assert.match(text, /by tool: .*ctx_run \d+ \(saved ~/);
  });
});
