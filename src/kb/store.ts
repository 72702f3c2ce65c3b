// The knowledge base over one Database: sources (a file, a command's output, a fetched page) and
// their chunks. Replacing a source is one transaction, so a reader never sees half of it.
import type { Database } from '../storage/database.ts';
import type { Chunk } from './chunk/index.ts';

export type SourceKind = 'file' | 'run' | 'fetch' | 'batch';

export interface SourceInput {
  /** Unique identity: `file:/abs/path`, `run:<label>`, `source:format:url`, … */
  key: string;
  kind: SourceKind;
  label: string;
  path?: string;
  mtimeMs?: number;
  size?: number;
  chunks: readonly Chunk[];
}

export interface SourceRow {
  id: number;
  key: string;
  kind: SourceKind;
  label: string;
  path: string | null;
  mtime_ms: number | null;
  size: number | null;
  session_id: string;
  indexed_at: number;
  chunk_count: number;
  bytes: number;
}

export interface KbStats {
  documents: number;
  chunks: number;
  bytes: number;
  bytesKeptOut: number;
  bytesReturned: number;
  estTokensSaved: number;
  databaseBytes: number;
  sessionId: string;
}

export interface PurgeResult {
  scope: 'project' | 'session';
  sessionId?: string;
  documents: number;
  chunks: number;
  dryRun: boolean;
}

export class KnowledgeBase {
  readonly db: Database;
  readonly sessionId: string;
  private readonly charsPerToken: number;

  constructor(db: Database, sessionId: string, charsPerToken: number) {
    this.db = db;
    this.sessionId = sessionId;
    this.charsPerToken = charsPerToken;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  source(key: string): SourceRow | undefined {
    return this.db.get<SourceRow & Record<string, never>>('SELECT * FROM sources WHERE key = ?', [key]) as SourceRow | undefined;
  }

  /** Inserts or replaces a source and all its chunks, atomically. */
  put(input: SourceInput): SourceRow {
    const bytes = input.chunks.reduce((n, c) => n + c.body.length, 0);
    return this.db.transaction(() => {
      const old = this.source(input.key);
      if (old) this.db.run('DELETE FROM chunks WHERE source_id = ?', [old.id]);
      this.db.run(
        `INSERT INTO sources (key, kind, label, path, mtime_ms, size, session_id, indexed_at, chunk_count, bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET kind = excluded.kind, label = excluded.label, path = excluded.path,
           mtime_ms = excluded.mtime_ms, size = excluded.size, session_id = excluded.session_id,
           indexed_at = excluded.indexed_at, chunk_count = excluded.chunk_count, bytes = excluded.bytes`,
        [input.key, input.kind, input.label, input.path ?? null, input.mtimeMs ?? null, input.size ?? null, this.sessionId, Date.now(), input.chunks.length, bytes],
      );
      const row = this.source(input.key)!;
      input.chunks.forEach((c, seq) => {
        this.db.run('INSERT INTO chunks (source_id, seq, title, body, line_start, line_end) VALUES (?, ?, ?, ?, ?, ?)', [
          row.id,
          seq,
          c.title,
          c.body,
          c.lineStart || null,
          c.lineEnd || null,
        ]);
      });
      return row;
    });
  }

  remove(key: string): boolean {
    return this.db.transaction(() => {
      const old = this.source(key);
      if (!old) return false;
      this.db.run('DELETE FROM chunks WHERE source_id = ?', [old.id]);
      this.db.run('DELETE FROM sources WHERE id = ?', [old.id]);
      return true;
    });
  }

  count(name: string, delta: number): void {
    if (!delta) return;
    this.db.run('INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value', [name, Math.round(delta)]);
  }

  private counter(name: string): number {
    return Number(this.db.value('SELECT value FROM counters WHERE name = ?', [name]) ?? 0);
  }

  stats(databaseBytes: number): KbStats {
    const row = this.db.get('SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks, coalesce(sum(bytes), 0) AS bytes FROM sources') ?? {};
    const keptOut = this.counter('bytes_kept_out');
    const returned = this.counter('bytes_returned');
    return {
      documents: Number(row.documents ?? 0),
      chunks: Number(row.chunks ?? 0),
      bytes: Number(row.bytes ?? 0),
      bytesKeptOut: keptOut,
      bytesReturned: returned,
      estTokensSaved: Math.max(0, Math.round((keptOut - returned) / this.charsPerToken)),
      databaseBytes,
      sessionId: this.sessionId,
    };
  }

  purge(scope: 'project' | 'session', sessionId: string, dryRun: boolean): PurgeResult {
    const where = scope === 'project' ? '' : ' WHERE session_id = ?';
    const bind = scope === 'project' ? [] : [sessionId];
    const row = this.db.get(`SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM sources${where}`, bind) ?? {};
    const result: PurgeResult = { scope, documents: Number(row.documents ?? 0), chunks: Number(row.chunks ?? 0), dryRun };
    if (scope === 'session') result.sessionId = sessionId;
    if (dryRun) return result;
    this.db.transaction(() => {
      if (scope === 'project') {
        this.db.exec('DELETE FROM chunks; DELETE FROM sources;');
      } else {
        this.db.run('DELETE FROM chunks WHERE source_id IN (SELECT id FROM sources WHERE session_id = ?)', [sessionId]);
        this.db.run('DELETE FROM sources WHERE session_id = ?', [sessionId]);
      }
    });
    return result;
  }

  close(): void {
    this.db.close();
  }
}
