import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import type { CallResult } from '../../src/tools/registry.ts';
import { secretReason } from '../../src/security/secret-files.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';
import { kbBackends } from '../helpers/kb-backends.ts';

const KEY = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', '-----END OPENSSH PRIVATE KEY-----'].join('\n');

const FILES: Record<string, string | Uint8Array> = {
  '.gitignore': 'build/\n',
  'docs/retry.md': '# Networking\n\n## Retry policy\n\nRequests are retried with exponential backoff, starting at 100 ms and doubling up to 5 attempts.\n\n## Timeouts\n\nEach request times out after 30 seconds.\n',
  'docs/auth.md': '# Authentication\n\nTokens are refreshed by the OrderHandler before they expire.\n',
  'src/handler.ts': 'export class OrderHandler {\n  handle(order: Order) {\n    return this.queue.push(order);\n  }\n}\n',
  'config/settings.json': JSON.stringify({ server: { port: 8080, host: 'localhost' }, cache: { ttlSeconds: 600 } }, null, 2),
  '.env': 'API_TOKEN=abc',
  'keys/deploy.pem': 'x',
  'notes/leak.txt': `oops\n${KEY}\n`,
  'assets/logo.png': new Uint8Array([137, 80, 78, 71, 0, 0, 0, 13]),
  'big/huge.log': 'z'.repeat(1024 * 1024 + 10),
  'build/out.js': 'retry backoff built',
  'node_modules/dep/readme.md': 'retry backoff dependency',
};

// One suite, both backends: the embedded SQLite file and a team's Postgres.
for (const backend of await kbBackends('the ctx_kb tests on Postgres')) {
  describe(`ctx_kb on ${backend.name}`, { skip: backend.skip }, () => {
    let root: string;
    let t: TestApp;
    // A fresh client session per call: these tests search more often than the flood guard allows one.
    const call = async (args: Record<string, unknown>) => {
      const r = await t.call('ctx_kb', args, createClientSession(crypto.randomUUID()));
      return { r, text: textOf(r), data: r.structuredContent as Record<string, unknown> };
    };

    before(() => {
      root = fixture(FILES);
      t = testApp(root, {}, backend.env());
    });
    after(async () => {
      await t.close();
      removeDir(root);
    });

    it('indexes a folder and reports what it skipped and why', async () => {
      const { data, text } = await call({ action: 'index', path: '.' });
      assert.equal(data.indexed, 5, text);
      assert.deepEqual(data.skipped, { secret: 2, binary: 1, 'too large': 1, 'private key': 1 });
      assert.match(text, /skipped 2 \(secret\): \.env, keys\/deploy\.pem/);
      assert.match(text, /skipped 1 \(private key\): notes\/leak\.txt/);
    });

    it('refuses to index a secret file, a private key, or a huge file named explicitly', async () => {
      assert.match((await call({ action: 'index', path: '.env' })).text, /SECRET_REFUSED/);
      assert.match((await call({ action: 'index', path: 'notes/leak.txt' })).text, /rule: files holding a private key block/);
      assert.match((await call({ action: 'index', path: 'big/huge.log' })).text, /LIMIT_EXCEEDED/);
      assert.match((await call({ action: 'index', path: '../x' })).text, /OUTSIDE_WORKDIR/);
    });

    it('finds the right chunk, with its heading breadcrumb and line range', async () => {
      const { data, text } = await call({ action: 'search', query: 'exponential backoff retry' });
      const hits = data.hits as { label: string; title: string; lines: number[]; stale: boolean }[];
      assert.equal(hits[0]!.label, 'docs/retry.md');
      assert.equal(hits[0]!.title, 'Networking > Retry policy');
      assert.deepEqual(hits[0]!.lines, [3, 5]);
      assert.match(text, /^1\. docs\/retry\.md:3-5 — Networking > Retry policy/m);
      assert.doesNotMatch(text, /built|dependency/, 'gitignored and node_modules content was not indexed');
    });

    it('finds substrings through the trigram index and JSON by key path', async () => {
      const sub = await call({ action: 'search', query: 'rderHandl' });
      assert.ok((sub.data.hits as { label: string }[]).some((h) => h.label === 'src/handler.ts'));
      const json = await call({ action: 'search', query: 'ttlSeconds' });
      assert.match(json.text, /cache\.ttlSeconds: 600/);
    });

    it('never fails on FTS5 syntax in a query', async () => {
      for (const query of ['"unbalanced', 'retry AND (', 'NEAR(a b', 'col:value', '*', 'a OR', '^start', '-x +y']) {
        const { r } = await call({ action: 'search', query });
        assert.equal(r.isError, undefined, query);
      }
    });

    it('corrects misspelled words when nothing matches', async () => {
      const { data, text } = await call({ action: 'search', query: 'exponentail bakcoff' });
      assert.ok(data.corrected, text);
      assert.equal((data.hits as { label: string }[])[0]?.label, 'docs/retry.md');
    });

    it('filters by source', async () => {
      const { data } = await call({ action: 'search', query: 'OrderHandler', source: 'docs/' });
      assert.deepEqual((data.hits as { label: string }[]).map((h) => h.label), ['docs/auth.md']);
    });

    it('filters by the source key or the path a hit shows, and by the absolute path of a folder', async () => {
      const hit = ((await call({ action: 'search', query: 'OrderHandler' })).data.hits as { label: string; sourceKey: string; path: string }[]).find((h) => h.label === 'docs/auth.md');
      assert.ok(hit, 'docs/auth.md is found unfiltered');
      assert.equal(hit.path, path.join(root, 'docs/auth.md'), 'a hit shows the file as this machine names it');
      const labels = async (source: string) => ((await call({ action: 'search', query: 'OrderHandler', source })).data.hits as { label: string }[]).map((h) => h.label);
      assert.deepEqual(await labels(hit.sourceKey), ['docs/auth.md']);
      assert.deepEqual(await labels(hit.path), ['docs/auth.md']);
      assert.deepEqual(await labels(path.join(root, 'docs')), ['docs/auth.md']);
      assert.deepEqual((await labels(root)).sort(), ['docs/auth.md', 'src/handler.ts']);
      assert.deepEqual(await labels(path.join(root, 'nowhere')), []);
    });

    it('marks results from files changed since indexing as stale', async () => {
      const file = path.join(root, 'docs/auth.md');
      writeFileSync(file, '# Authentication\n\nTokens are refreshed by the OrderHandler before they expire. Changed.\n');
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const { data, text } = await call({ action: 'search', query: 'refreshed tokens', source: 'auth' });
      assert.equal((data.hits as { stale: boolean }[])[0]?.stale, true);
      assert.match(text, /\[stale: changed since indexing; re-index it\]/);
    });

    it('takes a file with the same bytes at another time (a touch, another clone) as unchanged: not stale, not indexed again', async () => {
      const file = path.join(root, 'src/handler.ts');
      utimesSync(file, new Date(), new Date(Date.now() + 20_000));
      const { data } = await call({ action: 'search', query: 'rderHandl' });
      const hit = (data.hits as { label: string; stale: boolean }[]).find((h) => h.label === 'src/handler.ts');
      assert.equal(hit?.stale, false);
      const again = await call({ action: 'index', path: 'src/handler.ts' });
      assert.equal(again.data.indexed, 0, again.text);
      assert.equal(again.data.unchanged, 1, again.text);
    });

    it('replaces a re-indexed file atomically: old text gone, no duplicates, unchanged files skipped', async () => {
      writeFileSync(path.join(root, 'docs/retry.md'), '# Networking\n\n## Retry policy\n\nRetries use a fixed delay of 2 seconds.\n');
      utimesSync(path.join(root, 'docs/retry.md'), new Date(), new Date(Date.now() + 10_000));
      const { data } = await call({ action: 'index', path: 'docs' });
      assert.equal(data.indexed, 2);
      const again = await call({ action: 'index', path: 'docs' });
      assert.equal(again.data.indexed, 0);
      assert.equal(again.data.unchanged, 2);
      const old = await call({ action: 'search', query: 'exponential' });
      assert.equal((old.data.hits as unknown[]).length, 0);
      const fresh = await call({ action: 'search', query: 'fixed delay' });
      assert.equal((fresh.data.hits as unknown[]).length, 1);
    });

    it('reports stats with the session id, and counts no saving for indexing and searching alone', async () => {
      const { data, text } = await call({ action: 'stats' });
      assert.equal(data.documents, 5);
      const usage = data.usage as { project: { calls: number; savedBytes: number } };
      assert.ok(usage.project.calls > 5, `calls recorded: ${usage.project.calls}`);
      assert.equal(usage.project.savedBytes, 0);
      assert.match(text, /saved ~0 tokens/);
      assert.equal(data.session_id, t.app.processSessionId);
      assert.match(text, /session_id: /);
    });

    it('doctor runs the FTS5 self-test and lists runtimes', async () => {
      const { data, text } = await call({ action: 'doctor' });
      assert.equal(data.fts5, 'ok');
      assert.ok((data.runtimes as Record<string, string | null>).shell);
      assert.match(text, /FTS5: ok/);
      const storage = data.storage as Record<string, unknown>;
      if (backend.name === 'sqlite') {
        assert.match(text, /\nopen in \d+ process(es)?: .*pid \d+ \(this one\)/);
      } else {
        // No file and no pids on a team's database: its connections, servers and the checkouts that wrote documents.
        assert.doesNotMatch(text, /open in \d+ process/);
        assert.equal(storage.users, undefined);
        const peers = storage.peers as { connections: number; origins: { origin: string; documents: number }[]; origin: string };
        assert.ok(peers.connections >= 1, 'this server is connected');
        assert.deepEqual(peers.origins, [{ origin: peers.origin, documents: 5 }]);
        assert.match(peers.origin, new RegExp(`:${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        assert.match(text, /\nshared knowledge base: \d+ ctxgate connections? to the database \(every project in it.*\); \d+ servers? recorded calls for this project in the last 15 min; documents by checkout: 5 from .* \(this checkout\)\n/);
      }
    });

    it('purges only with confirm, counts with dryRun, and by session', async () => {
      assert.match((await call({ action: 'purge' })).text, /purge needs confirm: true/);
      const dry = await call({ action: 'purge', confirm: true, dryRun: true });
      assert.equal(dry.r.isError, undefined, dry.text);
      assert.equal(dry.data.documents, 5);
      assert.equal((await call({ action: 'stats' })).data.documents, 5);
      const other = await call({ action: 'purge', confirm: true, scope: 'session', sessionId: 'someone-else' });
      assert.equal(other.data.documents, 0);
      const mine = await call({ action: 'purge', confirm: true, scope: 'session' });
      assert.equal(mine.data.documents, 5);
      assert.equal((await call({ action: 'stats' })).data.documents, 0);
    });
  });

  describe(`ctx_kb isolation on ${backend.name}`, { skip: backend.skip }, () => {
    it("keeps one project's documents invisible to another in the same store", async () => {
      const a = fixture({ 'a.md': '# A\nunique-alpha-word here\n' });
      const b = fixture({ 'b.md': '# B\nsomething else\n' });
      const shared = fixture();
      const ta = testApp(a, {}, { CTXGATE_DATA_DIR: shared, ...backend.env() });
      const tb = testApp(b, {}, { CTXGATE_DATA_DIR: shared, ...backend.env() });
      await ta.call('ctx_kb', { action: 'index', path: '.' });
      await tb.call('ctx_kb', { action: 'index', path: '.' });
      const found = (await tb.call('ctx_kb', { action: 'search', query: 'unique-alpha-word' })).structuredContent as { hits: unknown[] };
      assert.equal(found.hits.length, 0);
      const own = (await ta.call('ctx_kb', { action: 'search', query: 'unique-alpha-word' })).structuredContent as { hits: unknown[] };
      assert.equal(own.hits.length, 1);
      await ta.close();
      await tb.close();
      [a, b, shared].forEach(removeDir);
    });
  });
}

describe('ctx_kb isolation and flood guard', () => {
  it('keeps one project\'s documents invisible to another', async () => {
    const a = fixture({ 'a.md': '# A\nunique-alpha-word here\n' });
    const b = fixture({ 'b.md': '# B\nsomething else\n' });
    const shared = fixture();
    const ta = testApp(a, {}, { CTXGATE_DATA_DIR: shared });
    const tb = testApp(b, {}, { CTXGATE_DATA_DIR: shared });
    await ta.call('ctx_kb', { action: 'index', path: '.' });
    await tb.call('ctx_kb', { action: 'index', path: '.' });
    const found = (await tb.call('ctx_kb', { action: 'search', query: 'unique-alpha-word' })).structuredContent as { hits: unknown[] };
    assert.equal(found.hits.length, 0);
    assert.notEqual(ta.app.kb.file, tb.app.kb.file);
    await ta.close();
    await tb.close();
    [a, b, shared].forEach(removeDir);
  });

  it('throttles, then refuses, an agent that keeps searching', async () => {
    const root = fixture({ 'x.md': '# X\nalpha beta gamma\n' });
    const t = testApp(root);
    await t.call('ctx_kb', { action: 'index', path: '.' });
    const results: CallResult[] = [];
    for (let i = 0; i < 9; i++) results.push(await t.call('ctx_kb', { action: 'search', query: 'alpha' }));
    assert.equal((results[3]!.structuredContent as { throttled: boolean }).throttled, false);
    assert.equal((results[4]!.structuredContent as { throttled: boolean }).throttled, true);
    assert.match(textOf(results[4]!), /throttled/);
    assert.equal(results[8]!.isError, true);
    assert.match(textOf(results[8]!), /9 searches in the last 60 s: search refused\nhint: stop searching/);
    await t.close();
    removeDir(root);
  });
});

describe('knowledge-base location and secret rules', () => {
  it('honours CTXMODE_DB and CTXGATE_DB, CTXGATE_DB first', async () => {
    const root = fixture({ 'a.md': '# A\n' });
    const dbDir = fixture();
    const viaMode = testApp(root, {}, { CTXMODE_DB: `${dbDir}/mode.db`, CTXGATE_DB: undefined });
    assert.equal(viaMode.app.kb.file, `${dbDir}/mode.db`);
    await viaMode.call('ctx_kb', { action: 'stats' });
    assert.ok(runtime.fs.statSync(`${dbDir}/mode.db`));
    await viaMode.close();
    const viaGate = testApp(root, {}, { CTXMODE_DB: `${dbDir}/mode.db`, CTXGATE_DB: `${dbDir}/gate.db` });
    assert.equal(viaGate.app.kb.file, `${dbDir}/gate.db`);
    await viaGate.close();
    removeDir(root);
    removeDir(dbDir);
  });

  it('treats the whole list of secret-like files as secret, and only those', () => {
    const secret = ['.env', '.env.local', 'app/.env.production', '.envrc', '.env/config', 'certs/server.pem', 'tls.key', 'id.p12', 'cert.pfx', 'id_rsa', '.ssh/id_dsa', 'id_ecdsa', 'home/id_ed25519', 'credentials.json', '.npmrc', '.netrc', '.docker/config.json', '.aws/credentials', 'x/.ssh/known_hosts', '.gnupg/pubring.kbx', '.kube/config'];
    for (const p of secret) assert.ok(secretReason(p), p);
    const fine = ['env.ts', 'src/environment.md', '.docker/daemon.json', 'config.json', 'keys.md', 'id_rsa.pub.txt', 'docs/ssh.md', 'monkey.ts'];
    for (const p of fine) assert.equal(secretReason(p), undefined, p);
  });
});
