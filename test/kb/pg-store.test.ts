// The Postgres knowledge store's own guarantees, below the tools: concurrent writers of one source,
// namespacing by project key, call records that can name their user.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KnowledgeStore } from '../../src/kb/knowledge-store.ts';
import { createPostgresKbHandle } from '../../src/kb/open.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';

const cluster: PgCluster | undefined = await startCluster('the Postgres knowledge store tests');

describe('the knowledge base on Postgres', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let url: string;
  const stores: KnowledgeStore[] = [];
  const open = async (projectKey: string, sessionId = 's') => {
    const kb = await createPostgresKbHandle({ url, projectKey: async () => projectKey, sessionId }).get();
    stores.push(kb);
    return kb;
  };
  before(async () => {
    url = await cluster!.createDatabase('store');
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    cluster?.destroy();
  });

  const version = (v: number, chunks: number) => ({
    key: 'run:shared',
    kind: 'run' as const,
    label: 'shared',
    chunks: Array.from({ length: chunks }, (_, i) => ({ title: `v${v}`, body: `version ${v} part ${i} of ${chunks}`, lineStart: i + 1, lineEnd: i + 1 })),
  });

  it('ends concurrent writers of one source with one whole version', async () => {
    const writers = await Promise.all([1, 2, 3, 4].map((n) => open('acme/concurrent', `writer${n}`)));
    await Promise.all(writers.flatMap((kb, w) => Array.from({ length: 8 }, (_, round) => kb.save(version(w * 100 + round, 5 + ((w + round) % 7))))));
    const row = await writers[0]!.source('run:shared');
    assert.ok(row);
    const hits = (await writers[0]!.search({ query: 'version part', limit: 50 })).hits;
    const versions = new Set(hits.map((h) => h.title));
    assert.equal(versions.size, 1, `chunks of one version only, not ${[...versions].join(', ')}`);
    assert.equal(hits.length, row.chunk_count, 'as many chunks as the source row says');
  });

  it("keeps each project's documents and calls to itself", async () => {
    const a = await open('acme/a');
    const b = await open('acme/b');
    await a.save({ key: 'file:/x.md', kind: 'file', label: 'x.md', chunks: [{ title: 'X', body: 'pelican migration notes', lineStart: 1, lineEnd: 1 }] });
    assert.equal((await a.search({ query: 'pelican', limit: 5 })).hits.length, 1);
    assert.equal((await b.search({ query: 'pelican', limit: 5 })).hits.length, 0);
    assert.equal(await b.source('file:/x.md'), undefined);
    await a.writeCalls([{ at: Date.now(), processSession: 'p', clientSession: 'c', tool: 'ctx_kb', outcome: 'ok', durationMs: 3, replyBytes: 10, userName: 'alice' }]);
    assert.equal((await a.usageTotals()).calls, 1);
    assert.equal((await b.usageTotals()).calls, 0);
    assert.equal((await b.purge('project', 's', false)).documents, 0);
    assert.equal((await a.stats()).documents, 1, "purging one project leaves the other's documents");
  });

  it('gives each tool its median latency as SQLite does, the lower middle of an even count', async () => {
    const kb = await open('acme/median');
    const row = (durationMs: number) => ({ at: Date.now(), processSession: 'm', clientSession: 'c', tool: 'probe', outcome: 'ok' as const, durationMs, replyBytes: 1 });
    await kb.writeCalls([5, 1, 9, 3].map(row));
    const p50 = async () => (await kb.usageTotals({ processSession: 'm' })).byTool.find((t) => t.tool === 'probe')?.p50Ms;
    assert.equal(await p50(), 3);
    await kb.writeCalls([row(7)]);
    assert.equal(await p50(), 5);
  });

  it('finds a misspelled word through the trigram index and says what it searched for instead', async () => {
    const kb = await open('acme/fuzzy');
    await kb.save({ key: 'file:/net.md', kind: 'file', label: 'net.md', chunks: [{ title: 'Retry', body: 'Requests are retried with exponential backoff.', lineStart: 1, lineEnd: 1 }] });
    const r = await kb.search({ query: 'exponentail', limit: 5 });
    assert.equal(r.corrected, 'exponential');
    assert.equal(r.hits[0]?.label, 'net.md');
  });
});
