// The code index's tables: the file catalogue, definitions, references, imports and a full-text
// index of definition blocks. It lives in its own database file in the project's data folder
// (`code.db`) with its own schema versions, so it can be rebuilt or dropped without touching the
// knowledge base.
import type { Migration } from '../storage/database.ts';
import { TEXT_INDEX_SQL, TEXT_WORDS_SQL, TEXT_IDENTITY_SQL } from '../textindex/schema.ts';
import { importSourceSql, refMoreSql } from './store-rows.ts';

/**
 * How code.db is opened: a rebuildable cache, so NORMAL sync is enough (batches keep commits few);
 * a new file gives freed pages back a step at a time (storage/free-pages.ts) — set before its first
 * table, it takes no VACUUM.
 */
export const CODE_DB_PRAGMAS: readonly string[] = ['synchronous=NORMAL', 'auto_vacuum=INCREMENTAL'];

export const CODE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'file catalogue, definitions, references, imports, definition blocks',
    sql: `
      CREATE TABLE code_files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL,
        hash TEXT NOT NULL,
        language TEXT,
        lines INTEGER NOT NULL DEFAULT 0,
        parser INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE code_defs (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        container TEXT,
        parent_id INTEGER,
        signature TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        name_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        exported INTEGER NOT NULL,
        bodiless INTEGER NOT NULL
      );
      CREATE INDEX code_defs_name ON code_defs(name);
      CREATE INDEX code_defs_file ON code_defs(file_id, start_line);
      -- The biggest table: clustered by name (what every question asks by), one row per name, kind
      -- and line of a file, no rowid.
      CREATE TABLE code_refs (
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        qualifier TEXT,
        def_id INTEGER,
        PRIMARY KEY (name, kind, file_id, line)
      ) WITHOUT ROWID;
      CREATE INDEX code_refs_file ON code_refs(file_id);
      CREATE TABLE code_imports (
        file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        source TEXT NOT NULL,
        target TEXT
      );
      CREATE INDEX code_imports_file ON code_imports(file_id);
      CREATE INDEX code_imports_target ON code_imports(target);
      -- Definition blocks for questions in words: name split into words, signature, doc comment,
      -- words of the body's identifiers. Contentless: the text lives in the source files.
      CREATE VIRTUAL TABLE code_blocks USING fts5(name, signature, doc, body, content='', contentless_delete=1, tokenize='porter unicode61');
      CREATE TABLE code_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    version: 2,
    description: 'trigram text index; the catalogue records the file version each stage took',
    sql: TEXT_INDEX_SQL,
  },
  {
    version: 3,
    description: 'word keys in the text index (segments say whether they hold them)',
    sql: TEXT_WORDS_SQL,
  },
  {
    version: 4,
    description: 'file identity in the catalogue: ctime, inode and when the text stage read each file',
    sql: TEXT_IDENTITY_SQL,
  },
  {
    version: 5,
    description: 'declarations that are no definition of their own (locals, parameters, fields, enum members)',
    // Clustered by name like code_refs, no text: a kernel tree has millions of them. Filled by the
    // next parse of each file (the parser version was bumped with it).
    sql: `
      CREATE TABLE code_locals (
        name TEXT NOT NULL,
        file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        kind TEXT NOT NULL,
        def_id INTEGER,
        PRIMARY KEY (name, file_id, line)
      ) WITHOUT ROWID;
      CREATE INDEX code_locals_file ON code_locals(file_id);
    `,
  },
  {
    version: 6,
    description: 'call resolution: what each call is made on, the types each class builds on, the names each import binds',
    sql: `
      ALTER TABLE code_refs ADD COLUMN via TEXT;
      ALTER TABLE code_defs ADD COLUMN bases TEXT;
      ALTER TABLE code_imports ADD COLUMN names TEXT;
    `,
  },
  {
    version: 7,
    description: 'compact rows: names stored once (code_names), kinds as numbers, signatures without their own name, occurrences per reference line',
    // The Linux tree's code.db was as big as its source, most of it names repeated in rows and their
    // indexes. The old rows cannot be converted in SQL (kinds and signatures are rewritten where a file
    // is parsed), so they are dropped and every file is parsed again; the text index and the catalogue
    // stay. Until the parse has caught up, the files a question rests on are parsed on demand.
    sql: `
      INSERT INTO code_blocks(code_blocks) VALUES ('delete-all');
      DROP TABLE code_refs;
      DROP TABLE code_locals;
      DROP TABLE code_defs;
      UPDATE code_files SET parsed_of = 0;
      DELETE FROM code_meta WHERE key = 'complete';
      -- Every name a definition, reference or local carries, once; rows name it by id.
      CREATE TABLE code_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
      -- Where each parsed file's rows are, instead of an index by file on each table (on the kernel
      -- those indexes were a quarter of the file): its definitions are the ids first_def..last_def,
      -- its references and locals are found by the ids of the names they carry (names, a JSON array).
      CREATE TABLE code_file_rows (
        file_id INTEGER PRIMARY KEY,
        first_def INTEGER NOT NULL,
        last_def INTEGER NOT NULL,
        names TEXT NOT NULL
      );
      -- kind: its place in DEFINITION_KINDS (extracted.ts); signature: the name's first occurrence
      -- written as char(1); name_line and end_line as offsets from start_line (small numbers take
      -- fewer bytes). No foreign keys: a cascade would scan the table for lack of an index by file.
      CREATE TABLE code_defs (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        name_id INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        container TEXT,
        parent_id INTEGER,
        signature TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        name_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        exported INTEGER NOT NULL,
        bodiless INTEGER NOT NULL,
        bases TEXT
      );
      CREATE INDEX code_defs_name ON code_defs(name_id);
      -- kind: its place in REFERENCE_KINDS; n: how often the name occurs with that kind on the line.
      CREATE TABLE code_refs (
        name_id INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        qualifier TEXT,
        def_id INTEGER,
        via TEXT,
        n INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (name_id, kind, file_id, line)
      ) WITHOUT ROWID;
      -- kind: its place in LOCAL_KINDS.
      CREATE TABLE code_locals (
        name_id INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        def_id INTEGER,
        PRIMARY KEY (name_id, file_id, line)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 8,
    description: "calls on one line made on different receivers, and Java calls' argument counts",
    // One row per name, kind and line stays (the table's key): `calls` lists the line's calls of the name
    // as groups [qualifier, via, count, arguments], written only where they differ (`a.get(x) + b.get(y)`)
    // or an argument count is known (Java overloads); NULL leaves the row's qualifier, via and n as its
    // one group. Rows written before it are read as before; the parser version bump parses them again.
    sql: 'ALTER TABLE code_refs ADD COLUMN calls TEXT;',
  },
  {
    version: 9,
    description: 'names found by a hash of them, not an index on their text; common signature beginnings as one character',
    // Issue 21 item 8 (row-formats.ts): the unique index on code_names repeated every name (107 of the
    // Linux tree's 1,100 MB). The hash is computed in JavaScript, so the rows cannot be converted in SQL:
    // as in migration 7 they are dropped and every file parsed again; the catalogue stays. The text index
    // stays too and answers meanwhile, but every file is read into it once more (as in schema 3), so its
    // postings are written again with the bitmaps of textindex/postings.ts when its segments merge.
    sql: `
      INSERT INTO code_blocks(code_blocks) VALUES ('delete-all');
      DROP TABLE code_refs;
      DROP TABLE code_locals;
      DROP TABLE code_defs;
      DROP TABLE code_names;
      DELETE FROM code_file_rows;
      UPDATE code_files SET parsed_of = 0, text_of = 0;
      DELETE FROM code_meta WHERE key = 'complete';
      -- h: nameHash(name), 23 bits; two names may share one, so a lookup compares the name too.
      CREATE TABLE code_names (id INTEGER PRIMARY KEY, h INTEGER NOT NULL, name TEXT NOT NULL);
      CREATE INDEX code_names_h ON code_names(h);
      -- As in migration 7, the signature packed (packSignature).
      CREATE TABLE code_defs (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL,
        name_id INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        container TEXT,
        parent_id INTEGER,
        signature TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        name_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        exported INTEGER NOT NULL,
        bodiless INTEGER NOT NULL,
        bases TEXT
      );
      CREATE INDEX code_defs_name ON code_defs(name_id);
      CREATE TABLE code_refs (
        name_id INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        qualifier TEXT,
        def_id INTEGER,
        via TEXT,
        n INTEGER NOT NULL DEFAULT 1,
        calls TEXT,
        PRIMARY KEY (name_id, kind, file_id, line)
      ) WITHOUT ROWID;
      CREATE TABLE code_locals (
        name_id INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        def_id INTEGER,
        PRIMARY KEY (name_id, file_id, line)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    description: "constant tables: a file's object-like macros as one packed text, found by their names' hashes",
    // Issue 21 item 8 (table-macros.ts). Rows written before it stay valid and are read as before; the
    // files that may hold a table (8 macros or more) are parsed again to take the new form, the others
    // keep their rows. Their old rows are replaced file by file, the pages freed given back.
    sql: `
      -- data: the macros as table-macros.ts packs them; first_def: the file's first definition id
      -- (a macro's id is first_def + its place); n: how many.
      CREATE TABLE code_file_macros (file_id INTEGER PRIMARY KEY, first_def INTEGER NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL);
      -- h: nameHash of a macro's name (row-formats.ts); the file's text is read to compare the name.
      CREATE TABLE code_macro_keys (h INTEGER NOT NULL, file_id INTEGER NOT NULL, PRIMARY KEY (h, file_id)) WITHOUT ROWID;
      UPDATE code_files SET parsed_of = 0 WHERE id IN (SELECT file_id FROM code_defs WHERE kind = 15 GROUP BY file_id HAVING count(*) >= 8);
    `,
  },
  {
    version: 11,
    description: 'definition blocks with the body words first; references and locals name their definition by its place in the file, their rare columns as one; names no row uses are swept',
    // Issue 21 item 8. FTS5 writes a column's number before the positions of every column but the
    // first: with the body first, its words (most of the table's entries) take two bytes fewer each,
    // a fifth of the table. The rows and their BM25 stay as they were (the weights follow the columns).
    // A contentless table cannot be copied: the old one stays, renamed, and answers beside the new one
    // (store.ts) until every file has been parsed again; the pass that completes then drops it
    // (OLD_BLOCKS in store-write.ts).
    sql: `
      ALTER TABLE code_blocks RENAME TO code_blocks_v10;
      CREATE VIRTUAL TABLE code_blocks USING fts5(body, name, signature, doc, content='', contentless_delete=1, tokenize='porter unicode61');
      UPDATE code_files SET parsed_of = 0 WHERE parsed_of <> 0;
      -- References and locals (store-rows.ts): the enclosing definition as its place in the file
      -- (def_off: the id less the file's first_def), a reference's qualifier, via, n and calls in one
      -- column (more, store-rows.ts: NULL for the usual null, null, 1, null; no type, so a count stays a
      -- number). Converted in SQL, in key order.
      CREATE TABLE code_refs_11 (
        name_id INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        def_off INTEGER,
        more,
        PRIMARY KEY (name_id, kind, file_id, line)
      ) WITHOUT ROWID;
      INSERT INTO code_refs_11 (name_id, kind, file_id, line, def_off, more)
        SELECT r.name_id, r.kind, r.file_id, r.line, r.def_id - fr.first_def, ${refMoreSql('r.qualifier', 'r.via', 'r.n', 'r.calls')}
          FROM code_refs r LEFT JOIN code_file_rows fr ON fr.file_id = r.file_id ORDER BY r.name_id, r.kind, r.file_id, r.line;
      DROP TABLE code_refs;
      ALTER TABLE code_refs_11 RENAME TO code_refs;
      CREATE TABLE code_locals_11 (
        name_id INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        line INTEGER NOT NULL,
        kind INTEGER NOT NULL,
        def_off INTEGER,
        PRIMARY KEY (name_id, file_id, line)
      ) WITHOUT ROWID;
      INSERT INTO code_locals_11 (name_id, file_id, line, kind, def_off)
        SELECT l.name_id, l.file_id, l.line, l.kind, l.def_id - fr.first_def
          FROM code_locals l LEFT JOIN code_file_rows fr ON fr.file_id = l.file_id ORDER BY l.name_id, l.file_id, l.line;
      DROP TABLE code_locals;
      ALTER TABLE code_locals_11 RENAME TO code_locals;
      -- Names whose last row may be gone (store-names.ts): a file's names when its rows are cleared;
      -- here every name, as indexes upgraded in place kept those no row used (944 MB against 842
      -- rebuilt for the Linux tree).
      CREATE TABLE code_name_sweep (id INTEGER PRIMARY KEY);
      INSERT INTO code_name_sweep (id) SELECT id FROM code_names;
    `,
  },
  {
    version: 12,
    description: "references and locals grouped per name and file, a group's further lines as varints; imports by file, their targets by id; later definitions' containers from their parents, their signatures' common words as characters",
    // Issue 21 item 8 (line-groups.ts). A row of schema 11 is a group of one line: the rows stay and
    // answer as they are, nothing blocks; a file's rows take the new form when it is parsed again.
    sql: `
      ALTER TABLE code_refs ADD COLUMN lines INTEGER;
      ALTER TABLE code_refs ADD COLUMN also BLOB;
      ALTER TABLE code_locals ADD COLUMN lines INTEGER;
      ALTER TABLE code_locals ADD COLUMN also BLOB;
      -- Imports clustered by file (no index by file) and naming their target by id: the Linux tree's
      -- 350 K imports resolve to 21 K files, each path was in a row and in an index of its own (24 MB).
      -- A target no import names any more is deleted with the file that named it last (store-write.ts).
      CREATE TABLE code_import_targets (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
      INSERT INTO code_import_targets (path) SELECT DISTINCT target FROM code_imports WHERE target IS NOT NULL ORDER BY target;
      -- seq: its place among the file's imports; source: the text imported, or where it begins in the
      -- target's path when it ends it (\`linux/slab.h\` in \`include/linux/slab.h\`: 8), no type so a number stays one.
      CREATE TABLE code_imports_12 (
        file_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        line INTEGER NOT NULL,
        source NOT NULL,
        target_id INTEGER,
        names TEXT,
        PRIMARY KEY (file_id, seq)
      ) WITHOUT ROWID;
      INSERT INTO code_imports_12 (file_id, seq, line, source, target_id, names)
        SELECT i.file_id, row_number() OVER (PARTITION BY i.file_id ORDER BY i.rowid) - 1, i.line, ${importSourceSql('i.source', 'i.target')}, t.id, i.names
          FROM code_imports i LEFT JOIN code_import_targets t ON t.path = i.target ORDER BY 1, 2;
      DROP TABLE code_imports;
      ALTER TABLE code_imports_12 RENAME TO code_imports;
      CREATE INDEX code_imports_target ON code_imports(target_id) WHERE target_id IS NOT NULL;
      -- Definitions from here on (ids from code_meta's defs_12, store-lines.ts) store their container
      -- only where it is not their parent's name ('' for none though a parent) and their signature's
      -- common words as one character each (packWords, row-formats.ts); the rows before keep theirs.
      INSERT OR REPLACE INTO code_meta (key, value) SELECT 'defs_12', max(id) + 1 FROM code_defs HAVING max(id) IS NOT NULL;
    `,
  },
  {
    version: 13,
    description: "names' hashes as keys of their own, new ones folded in batches, instead of an index on code_names",
    // store-names.ts: an index on a random key took a build's new names all over it, and each batch
    // rewrote most of its pages. The rows stay; their keys are copied once, in key order.
    sql: `
      CREATE TABLE code_name_keys (h INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (h, id)) WITHOUT ROWID;
      CREATE TABLE code_name_keys_new (h INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (h, id)) WITHOUT ROWID;
      INSERT INTO code_name_keys (h, id) SELECT h, id FROM code_names ORDER BY h, id;
      DROP INDEX code_names_h;
    `,
  },
];
