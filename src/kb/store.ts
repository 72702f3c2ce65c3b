// The knowledge base over one Database: sources (a file, a command's output, a fetched page) and
// their chunks. Replacing a source is one transaction, so a reader never sees half of it.
import type { Database } from '../storage/database.ts';
import type { Chunk } from './chunk/index.ts';

/** The words of a text, lowercased: runs of letters, digits and underscores. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** The distinct words of a text: what the trigram index needs to find substrings. */
export function distinctWords(text: string): string {
  return [...new Set(wordsOf(text))].join(' ');
}

export type SourceKind = 'file' | 'run' | 'fetch' | 'batch';

export interface SourceInput {
  /** Unique identity: `file:/abs/path`, `run:<label>`, `source:format:url`, … */
  key: string;
  kind: SourceKind;
  label: string;
  path?: string;
  mtimeMs?: number;
  size?: number;
  /** For a file: the sha-256 of the bytes indexed (fileDigest), which tells an equal copy with another time apart from a changed one. */
  digest?: string;
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
  digest: string | null;
  session_id: string;
  indexed_at: number;
  chunk_count: number;
  bytes: number;
}

export interface KbStats {
  documents: number;
  chunks: number;
  bytes: number;
  databaseBytes: number;
  sessionId: string;
}

export interface PurgeResult {
  /** team: a shared (Postgres) project's every document, whoever wrote it. */
  scope: 'project' | 'session' | 'team';
  sessionId?: string;
  /** On Postgres, scope=project: the checkout whose documents were deleted. */
  origin?: string;
  /** On Postgres: what the project keeps, by the checkout that wrote it. */
  remaining?: { documents: number; chunks: number; byOrigin: { origin: string; documents: number; chunks: number }[] };
  documents: number;
  chunks: number;
  dryRun: boolean;
}

export class KnowledgeBase {
  readonly db: Database;
  readonly sessionId: string;

  constructor(db: Database, sessionId: string) {
    this.db = db;
    this.sessionId = sessionId;
  }

  /**
   * A batch: everything in fn is one write transaction, which waits (without blocking the event loop)
   * while another process writes. The index rows of the batch's chunks are written together at its
   * end, after the plain table writes: a statement that needs a statement journal makes FTS5 flush
   * its pending terms, and a flush per file would cost more than the indexing.
   */
  transaction<T>(fn: () => T): Promise<T> {
    return this.db.writeTransaction(() => this.batch(fn));
  }

  private batch<T>(fn: () => T): T {
    this.batching++;
    try {
      const result = fn();
      this.flushIndex();
      return result;
    } finally {
      this.batching--;
      if (!this.batching) {
        this.pending = [];
        this.pendingSources.clear();
      }
    }
  }

  private batching = 0;
  private pending: { id: number; title: string; body: string }[] = [];
  private readonly pendingSources = new Set<number>();

  private flushIndex(): void {
    for (const p of this.pending) {
      this.db.run('INSERT INTO fts_porter (rowid, title, body) VALUES (?, ?, ?)', [p.id, p.title, p.body]);
      this.db.run('INSERT INTO fts_trigram (rowid, words) VALUES (?, ?)', [p.id, distinctWords(`${p.title}\n${p.body}`)]);
    }
    this.pending = [];
    this.pendingSources.clear();
  }

  /** Deletes a source's chunks (the trigger removes their index rows). */
  private dropChunks(sourceId: number): void {
    // Chunks whose index rows are still pending must be indexed before the trigger un-indexes them.
    if (this.pendingSources.has(sourceId)) this.flushIndex();
    this.db.run('DELETE FROM chunks WHERE source_id = ?', [sourceId]);
  }

  source(key: string): SourceRow | undefined {
    return this.db.get<SourceRow & Record<string, never>>('SELECT * FROM sources WHERE key = ?', [key]) as SourceRow | undefined;
  }

  /** Inserts or replaces a source and all its chunks in its own transaction, waiting for a turn. */
  save(input: SourceInput): Promise<SourceRow> {
    return this.transaction(() => this.put(input));
  }

  /**
   * Inserts or replaces a source and all its chunks, atomically: inside a batch, with the batch;
   * outside one, in a transaction that blocks this thread while another process writes (prefer save).
   */
  put(input: SourceInput): SourceRow {
    const write = () => {
      const bytes = input.chunks.reduce((n, c) => n + c.body.length, 0);
      const old = this.db.value('SELECT id FROM sources WHERE key = ?', [input.key]);
      if (old !== undefined) this.dropChunks(Number(old));
      this.db.run(
        `INSERT INTO sources (key, kind, label, path, mtime_ms, size, digest, session_id, indexed_at, chunk_count, bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET kind = excluded.kind, label = excluded.label, path = excluded.path,
           mtime_ms = excluded.mtime_ms, size = excluded.size, digest = excluded.digest, session_id = excluded.session_id,
           indexed_at = excluded.indexed_at, chunk_count = excluded.chunk_count, bytes = excluded.bytes`,
        [input.key, input.kind, input.label, input.path ?? null, input.mtimeMs ?? null, input.size ?? null, input.digest ?? null, this.sessionId, Date.now(), input.chunks.length, bytes],
      );
      const row = this.source(input.key)!;
      for (const [seq, c] of input.chunks.entries()) {
        this.db.run('INSERT INTO chunks (source_id, seq, title, body, line_start, line_end) VALUES (?, ?, ?, ?, ?, ?)', [
          row.id,
          seq,
          c.title,
          c.body,
          c.lineStart || null,
          c.lineEnd || null,
        ]);
        this.pending.push({ id: this.db.lastInsertRowid(), title: c.title, body: c.body });
      }
      this.pendingSources.add(row.id);
      return row;
    };
    return this.batching ? write() : this.db.transaction(() => this.batch(write));
  }

  remove(key: string): Promise<boolean> {
    return this.transaction(() => {
      const old = this.source(key);
      if (!old) return false;
      this.dropChunks(old.id);
      this.db.run('DELETE FROM sources WHERE id = ?', [old.id]);
      return true;
    });
  }

  stats(databaseBytes: number): KbStats {
    const row = this.db.get('SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks, coalesce(sum(bytes), 0) AS bytes FROM sources') ?? {};
    return {
      documents: Number(row.documents ?? 0),
      chunks: Number(row.chunks ?? 0),
      bytes: Number(row.bytes ?? 0),
      databaseBytes,
      sessionId: this.sessionId,
    };
  }

  async purge(scope: 'project' | 'session', sessionId: string, dryRun: boolean): Promise<PurgeResult> {
    const where = scope === 'project' ? '' : ' WHERE session_id = ?';
    const bind = scope === 'project' ? [] : [sessionId];
    const row = this.db.get(`SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM sources${where}`, bind) ?? {};
    const result: PurgeResult = { scope, documents: Number(row.documents ?? 0), chunks: Number(row.chunks ?? 0), dryRun };
    if (scope === 'session') result.sessionId = sessionId;
    if (dryRun) return result;
    await this.transaction(() => {
      this.flushIndex();
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
