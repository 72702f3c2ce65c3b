// A team's knowledge base on Postgres, as several checkouts (origins) share it: a purge of the
// project takes only this checkout's documents, command outputs of two machines coexist, and a
// transaction run again after a deadlock does not run its side work twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KnowledgeStore } from '../../src/kb/knowledge-store.ts';
import { indexOutput } from '../../src/kb/outputs.ts';
import { KB_PG_COMPONENT, KB_PG_MIGRATIONS } from '../../src/kb/pg-schema.ts';
import { postgresKnowledgeStore } from '../../src/kb/pg-store.ts';
import { openPostgres, type PgDatabase } from '../../src/storage/postgres/connection.ts';
import { migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { formatPurge } from '../../src/tools/context/kb-printer.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';

const cluster: PgCluster | undefined = await startCluster('the Postgres team knowledge-base tests');

describe('a team knowledge base on Postgres', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let url: string;
  const dbs: PgDatabase[] = [];
  const open = async (projectKey: string, origin: string, wrap: (db: PgDatabase) => PgDatabase = (db) => db) => {
    const db = await openPostgres(url);
    dbs.push(db);
    await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS);
    return postgresKnowledgeStore(wrap(db), projectKey, `session-${origin}`, { origin });
  };
  before(async () => {
    url = await cluster!.createDatabase('team');
  });
  after(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    cluster?.destroy();
  });

  const doc = (key: string, body: string) => ({ key, kind: 'file' as const, label: key.slice(5), chunks: [{ title: key, body, lineStart: 1, lineEnd: 1 }] });

  it("purges this checkout's documents for scope=project, says what remains, and everything only for scope=team", async () => {
    const ann = await open('acme/purge', 'laptop-ann:/home/ann/acme');
    const bob = await open('acme/purge', 'desk-bob:/src/acme');
    await ann.saveAll([doc('file:a1.md', 'albatross notes'), doc('file:a2.md', 'albatross more')]);
    await bob.saveAll([doc('file:b1.md', 'albatross by bob')]);

    const dry = await ann.purge('project', ann.sessionId, true);
    assert.deepEqual([dry.documents, dry.remaining?.documents], [2, 1], 'a dry run counts both sides');
    assert.equal((await ann.stats()).documents, 3, 'a dry run deletes nothing');

    const gone = await ann.purge('project', ann.sessionId, false);
    assert.equal(gone.documents, 2);
    assert.equal(gone.origin, 'laptop-ann:/home/ann/acme');
    assert.deepEqual(gone.remaining?.byOrigin, [{ origin: 'desk-bob:/src/acme', documents: 1, chunks: 1 }]);
    const text = formatPurge(gone);
    assert.match(text, /deleted 2 documents \(2 chunks\) from this checkout \(laptop-ann:\/home\/ann\/acme\)/);
    assert.match(text, /remaining: 1 documents \(1 chunks\): 1 from desk-bob:\/src\/acme/);
    assert.match(text, /scope=team/);
    const left = (await bob.search({ query: 'albatross', limit: 5 })).hits.map((h) => h.label);
    assert.deepEqual(left, ['b1.md'], "the teammate's document is still searchable");

    const all = await ann.purge('team', ann.sessionId, false);
    assert.equal(all.documents, 1);
    assert.equal(all.remaining?.documents, 0);
    assert.match(formatPurge(all), /the team's whole knowledge base/);
    assert.equal((await bob.stats()).documents, 0);
    assert.equal((await bob.search({ query: 'albatross', limit: 5 })).hits.length, 0);
  });

  it('keeps the same output label of two machines apart, each naming where it ran, and replaces a re-run on one machine', async () => {
    const ann = await open('acme/outputs', 'laptop-ann:/home/ann/acme');
    const bob = await open('acme/outputs', 'desk-bob:/src/acme');
    await indexOutput(ann, { kind: 'run', label: 'npm test', text: 'first run on ann: flamingo failures 3' });
    await indexOutput(bob, { kind: 'run', label: 'npm test', text: 'run on bob: flamingo failures 7' });
    await indexOutput(ann, { kind: 'run', label: 'npm test', text: 'second run on ann: flamingo failures 1' });

    const hits = (await bob.search({ query: 'flamingo failures', limit: 10 })).hits;
    const byLabel = new Map(hits.map((h) => [h.label, h.snippet]));
    assert.deepEqual([...byLabel.keys()].sort(), ['npm test @ desk-bob:/src/acme', 'npm test @ laptop-ann:/home/ann/acme']);
    assert.match(byLabel.get('npm test @ laptop-ann:/home/ann/acme') ?? '', /second run/, "ann's re-run replaced her first");
    assert.doesNotMatch(hits.map((h) => h.snippet).join('\n'), /first run/);
    // Each machine finds its own output under the key it wrote it with.
    assert.match((await ann.firstChunkBody((await ann.source('run:npm test'))!.id)) ?? '', /second run on ann/);
    assert.match((await bob.firstChunkBody((await bob.source('run:npm test'))!.id)) ?? '', /run on bob/);
    // A hit from another machine keeps its origin in the key; one's own reads as written.
    const keys = hits.map((h) => h.sourceKey).sort();
    assert.deepEqual(keys, ['run:npm test', 'run:npm test@laptop-ann:/home/ann/acme']);
  });

  it('runs the work beside a save once, although a deadlock made the transaction run twice', async () => {
    let attempts = 0;
    // Every transaction's first attempt ends as a deadlock would, after its statements ran.
    const deadlockOnce = (db: PgDatabase): PgDatabase => ({
      ...db,
      transaction: (fn) => {
        let first = true;
        return db.transaction(async (tx) => {
          const value = await fn(tx);
          attempts++;
          if (first) {
            first = false;
            throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          }
          return value;
        });
      },
    });
    const kb: KnowledgeStore = await open('acme/retry', 'laptop-ann:/home/ann/acme', deadlockOnce);
    let renewals = 0;
    await kb.saveAll([doc('file:r1.md', 'pangolin one'), doc('file:r2.md', 'pangolin two')], () => renewals++);
    assert.ok(attempts >= 2, 'the transaction ran again');
    assert.equal(renewals, 1);
    const stats = await kb.stats();
    assert.deepEqual([stats.documents, stats.chunks], [2, 2], 'each source once, each chunk once');
    assert.equal((await kb.search({ query: 'pangolin', limit: 10 })).hits.length, 2);
  });

  it('migrates a version 2 knowledge base: its words become the vocabulary, its chunks are found by substring and stemmed words', async () => {
    const db = await openPostgres(await cluster!.createDatabase('upgrade'));
    dbs.push(db);
    await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS.slice(0, 2));
    await db.run(async (sql) => {
      const [source] = await sql`INSERT INTO kb_sources (project_key, key, kind, label, session_id, indexed_at, chunk_count, bytes)
        VALUES ('acme/old', 'file:conf.md', 'file', 'conf.md', 'old', 1, 1, 40) RETURNING id`;
      await sql`INSERT INTO kb_chunks (project_key, source_id, seq, title, body, words)
        VALUES ('acme/old', ${source!.id}, 0, 'Config', 'cache.ttlSeconds sets the expiry of cached pages', 'config cache ttlseconds sets the expiry of cached pages')`;
    });
    assert.equal(await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS), KB_PG_MIGRATIONS.at(-1)!.version);
    const kb = postgresKnowledgeStore(db, 'acme/old', 's', { origin: 'laptop-ann:/home/ann/acme' });
    assert.deepEqual((await kb.search({ query: 'tlsecond', limit: 5 })).hits.map((h) => h.label), ['conf.md'], 'a substring, through the migrated vocabulary');
    assert.deepEqual((await kb.search({ query: 'ttlSeconds expiry', limit: 5 })).hits.map((h) => h.label), ['conf.md'], 'the words of a dotted name, stemmed');
    const purged = await kb.purge('project', 's', true);
    assert.deepEqual([purged.documents, purged.remaining?.byOrigin.map((o) => o.origin)], [0, ['unknown (written before version 3 of the schema)']]);
  });
});
