import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectStatus } from '../../src/app/status.ts';
import { createClientSession } from '../../src/app/context.ts';
import type { TextIndexReader, TextIndexStatus } from '../../src/textindex/types.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

function indexIn(status: TextIndexStatus): TextIndexReader {
  return { candidates: async () => undefined, touched() {}, status: () => status };
}

describe('the text index, as searches and reports show it', () => {
  let t: TestApp;
  let root: string;
  before(() => {
    root = fixture({ 'src/a.ts': 'export const needle = 1;\n' });
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('sends progress while the index builds, to a client that asked, and still answers from a scan', async () => {
    t.app.textIndex = indexIn({ state: 'building', indexed: 300, total: 1200, bytes: 4096 });
    const registry = createToolRegistry(TOOLS);
    for (const [tool, args] of [
      ['search', { pattern: 'needle' }],
      ['locate', { query: 'needle' }],
    ] as const) {
      const progress: [number, number | undefined, string | undefined][] = [];
      const r = await registry.call(tool, args, { app: t.app, session: createClientSession('p'), signal: new AbortController().signal, progress: async (p, total, message) => void progress.push([p, total, message]) });
      assert.match(r.content[0]!.text, /src\/a\.ts/, tool);
      assert.deepEqual(progress, [[300, 1200, 'building the text index: 300 of 1200 files (answering from a file scan meanwhile)']], tool);
    }
    t.app.textIndex = indexIn({ state: 'ready', indexed: 1200, total: 1200, bytes: 4096 });
    const progress: unknown[] = [];
    await registry.call('search', { pattern: 'needle' }, { app: t.app, session: createClientSession('q'), signal: new AbortController().signal, progress: async (...a) => void progress.push(a) });
    assert.deepEqual(progress, [], 'no progress once built');
  });

  it('ctx_kb stats and doctor and the status snapshot say what state the index is in', async () => {
    t.app.textIndex = indexIn({ state: 'building', indexed: 300, total: 1200, bytes: 4096 });
    const stats = await t.call('ctx_kb', { action: 'stats' });
    assert.match(stats.content[0]!.text, /^text index: building, 300 of 1,200 files indexed, 4(\.0)? KB so far/m);
    assert.deepEqual((stats.structuredContent as { textIndex: TextIndexStatus }).textIndex, { state: 'building', indexed: 300, total: 1200, bytes: 4096 });
    t.app.textIndex = indexIn({ state: 'unavailable', indexed: 0, total: 0, bytes: 0, error: 'database is read-only' });
    const doctor = await t.call('ctx_kb', { action: 'doctor' });
    assert.match(doctor.content[0]!.text, /^text index: unavailable \(database is read-only\)/m);
    assert.match(doctor.content[0]!.text, /^warning: text index unavailable: database is read-only/m);
    const snapshot = await collectStatus(t.app, { sessions: [], startedAt: Date.now() });
    assert.equal(snapshot.textIndex?.state, 'unavailable');
    t.app.textIndex = undefined;
    const none = await t.call('ctx_kb', { action: 'stats' });
    assert.match(none.content[0]!.text, /^text index: none/m);
  });
});
