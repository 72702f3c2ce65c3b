// The Postgres knowledge store's own guarantees, below the tools: concurrent writers of one source,
// namespacing by project key, call records that can name their user.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KnowledgeStore } from '../../src/kb/knowledge-store.ts';
import { createPostgresKbHandle } from '../../src/kb/open.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import { KB_PG_COMPONENT, KB_PG_MIGRATIONS } from '../../src/kb/pg-schema.ts';
import { postgresKnowledgeStore } from '../../src/kb/pg-store.ts';
import { openPostgres, type PgOptions } from '../../src/storage/postgres/connection.ts';
import { migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { isStorageError } from '../../src/storage/storage-error.ts';
import { defaultProjectKey, sharedPathsRoot } from '../../src/vcs/project-key.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';

const cluster: PgCluster | undefined = await startCluster('the Postgres knowledge store tests');

describe('the knowledge base on Postgres', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let url: string;
  const stores: KnowledgeStore[] = [];
  const open = async (projectKey: string, sessionId = 's', origin = 'host-a:/work/repo') => {
    const kb = await createPostgresKbHandle({ url, projectKey: async () => projectKey, sessionId, origin }).get();
    stores.push(kb);
    return kb;
  };
  /** A store opened with pool options of the test's own (short waits). */
  const openWith = async (projectKey: string, options: PgOptions) => {
    const db = await openPostgres(url, options);
    await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS);
    const kb = postgresKnowledgeStore(db, projectKey, 's', { origin: 'host-a:/work/repo' });
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

  it('fails a save with a clear error, instead of hanging, while a stalled writer holds the source', async () => {
    const kb = await openWith('acme/stalled', { lockTimeoutMs: 300 });
    const { default: postgres } = await import('postgres');
    const stalled = postgres(url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    // The stalled writer: a transaction that took the source's lock (as a save does) and then went quiet.
    // An output's key is stored with its origin (this checkout's), so that is the key locked.
    const writer = stalled.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtextextended(${'acme/stalled\nrun:shared@host-a:/work/repo'}, 0))`;
      holding();
      await released;
    });
    try {
      await held;
      const error = await kb.save(version(1, 2)).then(
        () => assert.fail('saved while another transaction held the lock'),
        (e: unknown) => e,
      );
      assert.ok(isStorageError(error) && error.reason === 'busy', String(error));
      assert.match(error.message, /waited longer than lock_timeout \(0\.3 s\) for a lock on the team database at postgres:\/\/postgres@127\.0\.0\.1:\d+\/store/);
      assert.match(error.message, /another ctxgate server saving or purging the same source/);
      assert.match(error.hint ?? '', /pg_terminate_backend/);
    } finally {
      release();
      await writer;
      await stalled.end({ timeout: 1 });
    }
    assert.equal((await kb.save(version(2, 2))).chunk_count, 2, 'the source saves once the writer has gone');
  });

  it('ends a stalled writer\'s session after the idle-in-transaction timeout, releasing its lock for the others', async () => {
    // Only the sleeping session has the short idle limit: the writer that waits for its lock must not
    // lose its own session to a 300 ms pause between statements on a loaded machine (CI did).
    const kb = await open('acme/asleep');
    const asleep = await openPostgres(url, { idleInTransactionTimeoutMs: 300 });
    const error = await asleep
      .transaction(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtextextended(${'acme/asleep\nrun:shared'}, 0))`;
        // The laptop sleeps: nothing is sent until the server has given up on this session.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await tx`SELECT 1`;
      })
      .then(
        () => assert.fail('a transaction idle past the timeout went on'),
        (e: unknown) => e,
      );
    await asleep.close();
    assert.ok(isStorageError(error), String(error));
    assert.match(error.message, /lost the connection to the Postgres database at postgres:\/\/postgres@127\.0\.0\.1:\d+\/store during this call/);
    assert.match(error.hint ?? '', /the server ended the session after 0\.3 s idle, releasing its locks/);
    assert.equal((await kb.save(version(3, 1))).chunk_count, 1, 'the lock went with the session');
  });

  it('purges a project while other servers index it, without either failing', async () => {
    const [indexer, purger] = await Promise.all([open('acme/purged'), open('acme/purged')]);
    const file = (i: number) => ({ key: `file:/p/f${String(i).padStart(4, '0')}`, kind: 'file' as const, label: `f${i}`, path: `/p/f${i}`, chunks: [{ title: 't', body: `body ${i}`, lineStart: 1, lineEnd: 1 }] });
    const batch = (n: number, reversed: boolean) => Array.from({ length: n }, (_, i) => file(reversed ? n - 1 - i : i));
    for (let round = 0; round < 8; round++) {
      await indexer.saveAll(batch(300, false));
      const results = await Promise.allSettled([indexer.saveAll(batch(300, true)), purger.purge('project', 's', false), purger.saveAll(batch(300, true))]);
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      assert.deepEqual(failures, [], `round ${round}`);
      const documents = (await indexer.stats()).documents;
      assert.ok(documents === 0 || documents === 300, `a purge and a save never interleave: ${documents} documents`);
    }
  });

  it('keeps the files of two servers rooted in folders of one repository apart, each seeing the other\'s under its real path', async () => {
    const repo = fixture({ 'services/billing/README.md': 'invoices are generated nightly', 'services/search/README.md': 'queries are ranked' });
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://example.test/acme/monorepo.git']);
    const exec = createExecutor(runtime);
    const serverIn = async (folder: string) => {
      const root = path.join(repo, folder);
      const kb = await createPostgresKbHandle({
        url,
        projectKey: () => defaultProjectKey({ runtime, exec }, root),
        pathsRoot: () => sharedPathsRoot({ runtime, exec }, root),
        sessionId: folder,
        origin: `host-a:${root}`,
      }).get();
      stores.push(kb);
      return kb;
    };
    try {
      const [billing, search] = await Promise.all([serverIn('services/billing'), serverIn('services/search')]);
      const billingReadme = path.join(repo, 'services/billing/README.md');
      const searchReadme = path.join(repo, 'services/search/README.md');
      await billing.save({ key: `file:${billingReadme}`, kind: 'file', label: 'README.md', path: billingReadme, chunks: [{ title: 'Billing', body: 'invoices are generated nightly', lineStart: 1, lineEnd: 1 }] });
      assert.equal(await search.source(`file:${searchReadme}`), undefined, "the search service's README is not the billing one");
      assert.equal((await search.source(`file:${billingReadme}`))?.path, billingReadme);
      const hits = (await search.search({ query: 'invoices nightly', limit: 3 })).hits;
      assert.deepEqual(
        hits.map((h) => h.path),
        [billingReadme],
      );
    } finally {
      removeDir(repo);
    }
  });
});
