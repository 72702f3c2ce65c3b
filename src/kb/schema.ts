// The knowledge base's tables. Text is stored once (chunks): the Porter index is an external-content
// table over it, the trigram index is contentless, so indexing writes each byte of text once.
import type { Migration } from '../storage/database.ts';
import { USAGE_ARGS_MIGRATION_SQL, USAGE_MIGRATION_SQL } from './usage.ts';

export const KB_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sources, chunks, porter and trigram indexes, counters',
    sql: `
      CREATE TABLE sources (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        label TEXT NOT NULL,
        path TEXT,
        mtime_ms REAL,
        size INTEGER,
        session_id TEXT NOT NULL,
        indexed_at INTEGER NOT NULL,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        bytes INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sources_session ON sources(session_id);
      CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        line_start INTEGER,
        line_end INTEGER
      );
      CREATE INDEX chunks_source ON chunks(source_id, seq);
      CREATE VIRTUAL TABLE fts_porter USING fts5(title, body, content='chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
      -- Substring candidates: the distinct words of each chunk, as trigrams without positions.
      -- Matches are confirmed against the chunk's text, so the index only has to narrow.
      CREATE VIRTUAL TABLE fts_trigram USING fts5(words, content='', contentless_delete=1, tokenize='trigram', detail='none');
      CREATE VIRTUAL TABLE porter_vocab USING fts5vocab(fts_porter, 'row');
      -- Inserts are written by the store (a trigger per row costs more than the indexing itself);
      -- deletes are rare and need the old text, so a trigger does them.
      CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
        INSERT INTO fts_porter(fts_porter, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
        DELETE FROM fts_trigram WHERE rowid = old.id;
      END;
      CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `,
  },
  {
    version: 2,
    description: 'one row per tool call (usage and honest savings) instead of global byte counters',
    sql: `${USAGE_MIGRATION_SQL}
      DROP TABLE counters;
    `,
  },
  {
    version: 3,
    description: "each call's arguments in one short, redacted line (the status page's recent calls)",
    sql: USAGE_ARGS_MIGRATION_SQL,
  },
  {
    version: 4,
    description: "each file source's content digest: a copy with another time but the same bytes is not stale",
    sql: 'ALTER TABLE sources ADD COLUMN digest TEXT;',
  },
];
