// The status page's data comes from the knowledge store, whichever backend holds it: on Postgres,
// every server of the team adds to the same records.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectStatus } from '../../src/app/status.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { testApp } from '../helpers/app.ts';
import { kbBackends } from '../helpers/kb-backends.ts';

for (const backend of await kbBackends('the status data tests on Postgres')) {
  describe(`status data on ${backend.name}`, { skip: backend.skip }, () => {
    it("counts both servers' calls and shows the documents either indexed, never a password", async () => {
      const root = fixture({ 'docs/a.md': '# A\n\nalbatross notes\n' });
      const key = `status/${crypto.randomUUID()}`;
      const env = backend.env(key);
      if (env.CTXGATE_DATABASE_URL) env.CTXGATE_DATABASE_URL = env.CTXGATE_DATABASE_URL.replace('postgres@', 'postgres:hunter22@');
      // Two servers of one project: on SQLite through one data dir, on Postgres through one project key.
      const first = testApp(root, {}, env);
      const second = testApp(root, {}, { ...env, CTXGATE_DATA_DIR: first.dataDir });
      try {
        await first.call('ctx_kb', { action: 'index', path: 'docs' });
        await second.call('ctx_kb', { action: 'search', query: 'albatross' });
        await second.app.usage.flush();
        const snapshot = await collectStatus(first.app, { sessions: [], startedAt: Date.now() });
        assert.equal(snapshot.usage.project.calls, 2, JSON.stringify(snapshot.usage.project));
        assert.equal(snapshot.usage.server.calls, 1);
        // Newest written first; each server writes its records in bursts, so the order is by write.
        assert.deepEqual(snapshot.recent.map((c) => `${c.tool} ${c.action}`).sort(), ['ctx_kb index', 'ctx_kb search']);
        assert.ok(!('error' in snapshot.kb), JSON.stringify(snapshot.kb));
        assert.equal('documents' in snapshot.kb && snapshot.kb.documents, 1);
        assert.deepEqual('sources' in snapshot.kb && snapshot.kb.sources.map((s) => s.label), ['docs/a.md']);
        assert.doesNotMatch(JSON.stringify(snapshot), /hunter22/);
      } finally {
        await second.close();
        await first.close();
        removeDir(root);
      }
    });
  });
}
