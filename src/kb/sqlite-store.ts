// The knowledge base on the embedded SQLite file: the KnowledgeStore interface over the synchronous
// KnowledgeBase, search and usage functions, which keep doing the work unchanged.
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import { acquireLease } from '../storage/lease.ts';
import type { KnowledgeStore, RecentSource } from './knowledge-store.ts';
import { searchKnowledge } from './search.ts';
import type { KnowledgeBase } from './store.ts';
import { gateDecisions, recentCalls, savingsSeries, usageTotals, writeCalls } from './usage.ts';

/** Bytes the database takes on disk: the file and, mid-transaction, its rollback journal. */
export function databaseBytes(fs: Pick<RuntimeFs, 'statSync'>, file: string): number {
  return ['', '-journal'].reduce((n, suffix) => n + (fs.statSync(file + suffix)?.size ?? 0), 0);
}

export function sqliteKnowledgeStore(kb: KnowledgeBase, fs: Pick<RuntimeFs, 'statSync'>): KnowledgeStore {
  const db = kb.db;
  return {
    backend: 'sqlite',
    where: db.file,
    sessionId: kb.sessionId,
    source: async (key) => kb.source(key),
    firstChunkBody: async (sourceId) => {
      const body = db.value('SELECT body FROM chunks WHERE source_id = ? ORDER BY seq LIMIT 1', [sourceId]);
      return body === undefined || body === null ? undefined : String(body);
    },
    save: (input) => kb.save(input),
    saveAll: (inputs, during) =>
      kb.transaction(() => {
        for (const input of inputs) kb.put(input);
        during?.();
      }),
    remove: (key) => kb.remove(key),
    indexLease: (name, ttlMs) => acquireLease(db, name, ttlMs),
    stats: async () => kb.stats(databaseBytes(fs, db.file)),
    purge: async (scope, sessionId, dryRun) => {
      if (scope === 'team') {
        throw new AppError(ErrorCode.InvalidArgument, 'scope=team is for a team knowledge base on Postgres', {
          hint: 'this knowledge base is a SQLite file of this machine: scope=project deletes all of it',
        });
      }
      return kb.purge(scope, sessionId, dryRun);
    },
    search: async (req, stat) => searchKnowledge(kb, req, stat),
    recentSources: async (limit): Promise<RecentSource[]> =>
      db
        .all('SELECT label, kind, chunk_count, bytes FROM sources ORDER BY indexed_at DESC LIMIT ?', [limit])
        .map((r) => ({ label: String(r.label), kind: String(r.kind), chunks: Number(r.chunk_count), bytes: Number(r.bytes) })),
    writeCalls: (records) => writeCalls(db, records),
    usageTotals: async (filter) => usageTotals(db, filter),
    gateDecisions: async (filter) => gateDecisions(db, filter),
    recentCalls: async (limit) => recentCalls(db, limit),
    savingsSeries: async (since, bucketMs) => savingsSeries(db, since, bucketMs),
    firstCallSince: async (since) => {
      const at = db.value('SELECT min(at) FROM calls WHERE at >= ?', [since]);
      return at === undefined || at === null ? undefined : Number(at);
    },
    peers: async () => undefined,
    schemaVersion: async () => Number(db.value('PRAGMA user_version') ?? 0),
    close: async () => kb.close(),
  };
}
