// Relevance of knowledge-base search on a committed fixture: each query names the chunk (source and
// heading breadcrumb) that answers it; hit@k is the share of queries whose answer is in the top k.
// The same evaluation runs on either backend: the embedded SQLite file, or a Postgres database.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { indexPath } from '../../src/kb/indexer.ts';
import type { KnowledgeStore } from '../../src/kb/knowledge-store.ts';
import { createKbHandle, createPostgresKbHandle } from '../../src/kb/open.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import { resolveSafe } from '../../src/security/resolve-safe.ts';

export const RELEVANCE_FIXTURE = path.resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'kb-relevance');

export interface RelevanceReport {
  queries: number;
  hitAt1: number;
  hitAt3: number;
  misses: { query: string; expected: string; got: string[] }[];
}

/** A fresh, empty store and how to dispose of it: a temp SQLite file, or a new project key on Postgres. */
export async function freshStore(postgresUrl?: string): Promise<{ kb: KnowledgeStore; dispose: () => Promise<void> }> {
  const runtime = await loadRuntime();
  if (postgresUrl) {
    const projectKey = `bench/${crypto.randomUUID()}`;
    const kb = await createPostgresKbHandle({ url: postgresUrl, projectKey: async () => projectKey, sessionId: 'relevance', origin: 'bench:relevance' }).get();
    return {
      kb,
      async dispose() {
        await kb.purge('team', 'relevance', false);
        await kb.close();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ctxgate-relevance-'));
  const kb = await createKbHandle(runtime, path.join(dir, 'kb.db'), 'relevance').get();
  return {
    kb,
    async dispose() {
      await kb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function evaluateRelevance(fixture = RELEVANCE_FIXTURE, postgresUrl?: string): Promise<RelevanceReport> {
  const runtime = await loadRuntime();
  const cases = JSON.parse(readFileSync(path.join(fixture, 'queries.json'), 'utf8')) as { query: string; label: string; title: string }[];
  const { kb, dispose } = await freshStore(postgresUrl);
  try {
    const root = runtime.fs.realpathSync(fixture);
    const workdirs = { dirs: [root] };
    await indexPath(runtime.fs, kb, resolveSafe(runtime.fs, workdirs, 'docs'), { workdirs, respectGitignore: true });
    let at1 = 0;
    let at3 = 0;
    const misses: RelevanceReport['misses'] = [];
    for (const c of cases) {
      const hits = (await kb.search({ query: c.query, limit: 3 })).hits.map((h) => `${h.label} :: ${h.title}`);
      const want = `${c.label} :: ${c.title}`;
      const rank = hits.indexOf(want);
      if (rank === 0) at1++;
      if (rank >= 0 && rank < 3) at3++;
      else misses.push({ query: c.query, expected: want, got: hits });
    }
    return { queries: cases.length, hitAt1: at1 / cases.length, hitAt3: at3 / cases.length, misses };
  } finally {
    await dispose();
  }
}
