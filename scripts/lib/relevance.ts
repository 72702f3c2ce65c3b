// Relevance of knowledge-base search on a committed fixture: each query names the chunk (source and
// heading breadcrumb) that answers it; hit@k is the share of queries whose answer is in the top k.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { indexPath } from '../../src/kb/indexer.ts';
import { KB_MIGRATIONS } from '../../src/kb/schema.ts';
import { searchKnowledge } from '../../src/kb/search.ts';
import { KnowledgeBase } from '../../src/kb/store.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { openDatabase } from '../../src/storage/database.ts';

export const RELEVANCE_FIXTURE = path.resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'kb-relevance');

export interface RelevanceReport {
  queries: number;
  hitAt1: number;
  hitAt3: number;
  misses: { query: string; expected: string; got: string[] }[];
}

export async function evaluateRelevance(fixture = RELEVANCE_FIXTURE): Promise<RelevanceReport> {
  const runtime = await loadRuntime();
  const cases = JSON.parse(readFileSync(path.join(fixture, 'queries.json'), 'utf8')) as { query: string; label: string; title: string }[];
  const dir = mkdtempSync(path.join(tmpdir(), 'ctxgate-relevance-'));
  const db = await openDatabase(runtime, path.join(dir, 'kb.db'), { exclusive: true, busyTimeoutMs: 100, migrations: KB_MIGRATIONS });
  const kb = new KnowledgeBase(db, 'relevance');
  try {
    const root = runtime.fs.realpathSync(fixture);
    const workdirs = { dirs: [root] };
    await indexPath(runtime.fs, kb, resolveSafe(runtime.fs, workdirs, 'docs'), { workdirs, respectGitignore: true });
    let at1 = 0;
    let at3 = 0;
    const misses: RelevanceReport['misses'] = [];
    for (const c of cases) {
      const hits = searchKnowledge(kb, { query: c.query, limit: 3 }).hits.map((h) => `${h.label} :: ${h.title}`);
      const want = `${c.label} :: ${c.title}`;
      const rank = hits.indexOf(want);
      if (rank === 0) at1++;
      if (rank >= 0 && rank < 3) at3++;
      else misses.push({ query: c.query, expected: want, got: hits });
    }
    return { queries: cases.length, hitAt1: at1 / cases.length, hitAt3: at3 / cases.length, misses };
  } finally {
    kb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
