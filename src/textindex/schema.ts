// The text index's tables in code.db (schema version 2, issue 14), and the catalogue columns that
// record which version of a file each stage of the refresh pass has taken:
// - `version` counts a file's contents: the text stage (which reads every changed file first) bumps
//   it when the content hash changed;
// - `text_of` / `parsed_of` are the version the text and parse stages took (0: not yet; the
//   catalogue's diff sets `text_of` to 0 when a file's size or mtime changed, until it is read);
// - `text_doc` is the file's document id in the postings (NULL: not indexed — binary, too large,
//   unreadable). A document id is never reused: ids of older versions are dead and dropped by
//   compaction.
// A trigger counts every change to the catalogue in `text_state.gen`, so readers in any process know
// when the id → file table they keep must be read again.
export const TEXT_INDEX_SQL = `
  ALTER TABLE code_files ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE code_files ADD COLUMN text_of INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE code_files ADD COLUMN text_doc INTEGER;
  ALTER TABLE code_files ADD COLUMN parsed_of INTEGER NOT NULL DEFAULT 0;
  UPDATE code_files SET parsed_of = version WHERE parser > 0;
  -- Hashes are now of the bytes and set by the text stage; the old ones prove nothing about the text index.
  UPDATE code_files SET hash = '';
  CREATE TABLE text_segments (
    id INTEGER PRIMARY KEY,
    bits INTEGER NOT NULL,
    docs INTEGER NOT NULL,
    min_doc INTEGER NOT NULL,
    max_doc INTEGER NOT NULL,
    postings INTEGER NOT NULL,
    bytes INTEGER NOT NULL
  );
  -- One row per (segment, bucket): id = segment * 2^18 + bucket.
  CREATE TABLE text_buckets (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
  CREATE TABLE text_state (id INTEGER PRIMARY KEY CHECK (id = 1), gen INTEGER NOT NULL, next_doc INTEGER NOT NULL);
  INSERT INTO text_state (id, gen, next_doc) VALUES (1, 0, 1);
  CREATE TRIGGER text_gen_insert AFTER INSERT ON code_files BEGIN UPDATE text_state SET gen = gen + 1; END;
  CREATE TRIGGER text_gen_delete AFTER DELETE ON code_files BEGIN UPDATE text_state SET gen = gen + 1; END;
  CREATE TRIGGER text_gen_update AFTER UPDATE OF path, version, text_of, text_doc ON code_files BEGIN UPDATE text_state SET gen = gen + 1; END;
`;

/**
 * Schema version 3: segments say whether they hold word keys (trigrams.ts); older segments do not,
 * so a whole-word query falls back to trigrams until every live segment has them. Every file is
 * handed to the text stage once more to be indexed with its words (its version, and so its parse,
 * stays as it is).
 */
export const TEXT_WORDS_SQL = `
  ALTER TABLE text_segments ADD COLUMN words INTEGER NOT NULL DEFAULT 0;
  UPDATE code_files SET text_of = 0;
`;

/**
 * Schema version 4: the catalogue records each file's ctime and inode and when the text stage read
 * it (file-identity.ts), so an edit that keeps size and mtime is seen. Rows from before have none:
 * each is read once more and its content hash decides.
 */
export const TEXT_IDENTITY_SQL = `
  ALTER TABLE code_files ADD COLUMN ctime_ms REAL NOT NULL DEFAULT 0;
  ALTER TABLE code_files ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE code_files ADD COLUMN taken_at REAL NOT NULL DEFAULT 0;
`;

/** Empties the text index (a new root or extraction version starts from nothing). */
export const CLEAR_TEXT_INDEX_SQL = 'DELETE FROM text_buckets; DELETE FROM text_segments; UPDATE text_state SET gen = gen + 1;';

/** Bucket row id of a segment's bucket. */
export function bucketRowId(segment: number, bucket: number): number {
  return segment * 262144 + bucket;
}
