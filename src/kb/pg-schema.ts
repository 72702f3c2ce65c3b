// The knowledge base's tables on Postgres, shared by every server of a team. Every row carries its
// project key, so one database holds many projects and a query never crosses from one to another.
// Titles weigh more than bodies in the stemmed index (weights A and D, as bm25's 3:1 does on SQLite).
// The substring and fuzzy fallbacks (pg_trgm) look words up in the project's vocabulary (kb_words,
// one row per distinct word, written once per word), then find their chunks through the tsvector:
// a trigram index over every chunk's words cost a third of indexing time (version 3).
// Every source names the checkout that last wrote it (origin): purge and outputs go by it.
// The stemmed index reads '.', '/', ':' and '@' as spaces (version 3), so its words are the words
// the vocabulary holds (store.ts wordsOf): "cache.ttlSeconds" is found by "ttlseconds".
import type { PgMigration } from '../storage/postgres/migrate.ts';

export const KB_PG_COMPONENT = 'kb';

export const KB_PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'sources, chunks with a weighted tsvector and trigram words, call records naming their user',
    sql: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE TABLE kb_sources (
        id BIGSERIAL PRIMARY KEY,
        project_key TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        label TEXT NOT NULL,
        path TEXT,
        mtime_ms DOUBLE PRECISION,
        size BIGINT,
        session_id TEXT NOT NULL,
        indexed_at BIGINT NOT NULL,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        bytes BIGINT NOT NULL DEFAULT 0,
        UNIQUE (project_key, key)
      );
      CREATE INDEX kb_sources_session ON kb_sources (project_key, session_id);
      CREATE TABLE kb_chunks (
        id BIGSERIAL PRIMARY KEY,
        project_key TEXT NOT NULL,
        source_id BIGINT NOT NULL REFERENCES kb_sources (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        line_start INTEGER,
        line_end INTEGER,
        words TEXT NOT NULL,
        tsv TSVECTOR GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'D')) STORED
      );
      CREATE INDEX kb_chunks_source ON kb_chunks (source_id, seq);
      CREATE INDEX kb_chunks_project ON kb_chunks (project_key);
      CREATE INDEX kb_chunks_tsv ON kb_chunks USING gin (tsv);
      CREATE INDEX kb_chunks_words ON kb_chunks USING gin (words gin_trgm_ops);
      CREATE TABLE calls (
        id BIGSERIAL PRIMARY KEY,
        project_key TEXT NOT NULL,
        user_name TEXT,
        at BIGINT NOT NULL,
        process_session TEXT NOT NULL,
        client_session TEXT NOT NULL,
        tool TEXT NOT NULL,
        action TEXT,
        args TEXT,
        outcome TEXT NOT NULL,
        detail TEXT,
        duration_ms INTEGER NOT NULL,
        reply_bytes BIGINT NOT NULL,
        raw_bytes BIGINT,
        saved_bytes BIGINT NOT NULL DEFAULT 0,
        basis TEXT
      );
      CREATE INDEX calls_project_at ON calls (project_key, at);
      CREATE INDEX calls_project_user ON calls (project_key, user_name, at);
    `,
  },
  {
    version: 2,
    description: "each file source's content digest: another clone's copy with the same bytes is not stale",
    sql: 'ALTER TABLE kb_sources ADD COLUMN digest TEXT;',
  },
  {
    version: 3,
    description: "the project's vocabulary replaces each chunk's trigram words; each source names the checkout that wrote it",
    sql: `
      CREATE TABLE kb_words (
        project_key TEXT NOT NULL,
        word TEXT NOT NULL,
        PRIMARY KEY (project_key, word)
      );
      CREATE INDEX kb_words_trgm ON kb_words USING gin (word gin_trgm_ops);
      INSERT INTO kb_words (project_key, word)
        SELECT DISTINCT project_key, w FROM kb_chunks, unnest(string_to_array(words, ' ')) AS w WHERE w <> '' ON CONFLICT DO NOTHING;
      DROP INDEX kb_chunks_words;
      ALTER TABLE kb_chunks DROP COLUMN words;
      -- Words joined by '.', '/', ':' or '@' are words of their own, as SQLite's tokenizer has them:
      -- the parser would keep "cache.ttlSeconds" or "/usr/bin/env" whole (a host, a file), and a
      -- word of the vocabulary would not find its chunk.
      DROP INDEX kb_chunks_tsv;
      ALTER TABLE kb_chunks DROP COLUMN tsv;
      ALTER TABLE kb_chunks ADD COLUMN tsv TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('english', translate(title, './:@', '    ')), 'A') || setweight(to_tsvector('english', translate(body, './:@', '    ')), 'D')) STORED;
      CREATE INDEX kb_chunks_tsv ON kb_chunks USING gin (tsv);
      ALTER TABLE kb_sources ADD COLUMN origin TEXT NOT NULL DEFAULT '';
      CREATE INDEX kb_sources_origin ON kb_sources (project_key, origin);
      -- lz4 compresses and decompresses several times faster than the default pglz (a search reads
      -- the tsvector of every chunk it ranks); a server built without it keeps pglz.
      DO $$ BEGIN
        ALTER TABLE kb_chunks ALTER COLUMN body SET COMPRESSION lz4, ALTER COLUMN tsv SET COMPRESSION lz4;
      EXCEPTION WHEN OTHERS THEN NULL;
      END $$;
    `,
  },
];
