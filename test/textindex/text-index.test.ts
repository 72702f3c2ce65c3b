import assert from 'node:assert/strict';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { RE2JS } from 're2js';
import { type CatalogueEntry, catalogue } from '../../src/code/catalogue.ts';
import { syncCatalogue, textWork } from '../../src/code/catalogue-sync.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, createCodeIndex } from '../../src/code/index.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { compact } from '../../src/textindex/compact.ts';
import { createTextIndexReader } from '../../src/textindex/reader.ts';
import { runTextStage } from '../../src/textindex/stage.ts';
import type { TextQuery } from '../../src/textindex/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { CORPUS, PATTERNS } from './corpus.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

const silent: Logger = { log() {}, file: undefined, close() {} };

async function entriesOf(root: string): Promise<CatalogueEntry[]> {
  const out: CatalogueEntry[] = [];
  for await (const e of catalogue(runtime.fs, { dirs: [root] }, { root, excludeDirs: [], respectGitignore: true })) out.push(e);
  return out;
}

/** A fixture tree catalogued in a fresh code.db, the text stage not run yet. */
async function catalogued(files: Record<string, string | Uint8Array>): Promise<{ root: string; db: Database; store: CodeStore; entries: CatalogueEntry[] }> {
  const root = fixture(files as Record<string, string>);
  const data = fixture();
  dirs.push(root, data);
  const db = await openDatabase(runtime, path.join(data, 'code.db'), { busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
  const store = new CodeStore(db);
  const entries = await entriesOf(root);
  await syncCatalogue(store, entries);
  return { root, db, store, entries };
}

function readerOf(root: string, db: Database) {
  return createTextIndexReader({ root, fs: runtime.fs, open: async () => db, current: () => db, state: () => 'ready', error: () => undefined });
}

/** The files a full scan finds (line by line, as both grep engines match). */
function scan(root: string, files: readonly string[], q: TextQuery): string[] {
  const re = RE2JS.compile(q.literal ? RE2JS.quote(q.pattern) : q.pattern, q.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return files.filter((f) => readFileSync(path.join(root, f), 'utf8').split('\n').some((line) => re.matcher(line).find()));
}

async function assertSuperset(root: string, db: Database, label: string): Promise<number> {
  const reader = readerOf(root, db);
  const files = Object.keys(CORPUS).filter((f) => CORPUS[f] !== undefined);
  let narrowed = 0;
  for (const pattern of PATTERNS) {
    for (const ignoreCase of [false, true]) {
      for (const literal of [false, true]) {
        const q = { pattern, literal, ignoreCase };
        const found = await reader.candidates(q, '');
        if (!found) continue;
        narrowed++;
        for (const f of scan(root, files, q)) assert.ok(found.files.includes(f), `${label}: ${JSON.stringify(q)} ruled out ${f}, which matches`);
        assert.deepEqual(found.files, [...found.files].sort(), 'candidates are sorted');
      }
    }
  }
  return narrowed;
}

describe('the text index', () => {
  it('narrows every query to a superset of the files a scan matches, across many segments and after compaction', async () => {
    const { root, db, store, entries } = await catalogued(CORPUS);
    // Tiny segments: one or two files each.
    const result = await runTextStage(textWork(store, entries), { db, fs: runtime.fs, flushBytes: 40 });
    assert.ok(result.segments > 5, `${result.segments} segments`);
    const narrowed = await assertSuperset(root, db, 'segments');
    assert.ok(narrowed > PATTERNS.length, 'most queries narrow');
    assert.ok((await compact(db)) > 1, 'compaction merged the segments');
    assert.equal(Number(db.value('SELECT count(*) FROM text_segments')), 1);
    await assertSuperset(root, db, 'compacted');
    const rare = await readerOf(root, db).candidates({ pattern: 'kmalloc_array', literal: true, ignoreCase: false }, '');
    assert.deepEqual(rare?.files, ['src/alloc.c']);
    const folded = await readerOf(root, db).candidates({ pattern: 'KMALLOC', literal: true, ignoreCase: true }, '');
    assert.deepEqual(folded?.files, ['src/alloc.c', 'src/mixed.go', 'src/upper.txt']);
    db.close();
  });

  it('narrows a whole-word query to the files holding the word, and uses trigrams while a segment without words holds live files', async () => {
    const { root, db, store, entries } = await catalogued({
      'a.c': 'list_add(x);\n',
      'b.c': 'list_add_tail(x);\n',
      'c.c': 'void list_add(struct l *n);\n',
      'd.txt': 'see list_add\u2014and more\n',
      'e.c': 'LIST_ADD = 1;\n',
      'f.c': 'mylist_add();\n',
      'g.c': 'int \u00c4list_add;\n',
    });
    await runTextStage(textWork(store, entries), { db, fs: runtime.fs });
    const reader = readerOf(root, db);
    const word = { pattern: 'list_add', literal: true, ignoreCase: false, word: true };
    // Files holding the word (any case: keys fold ASCII; g.c: a letter past ASCII ends an indexed word, so it stays a candidate).
    assert.deepEqual((await reader.candidates(word, ''))?.files, ['a.c', 'c.c', 'd.txt', 'e.c', 'g.c']);
    const trigrams = (await reader.candidates({ ...word, word: false }, ''))?.files;
    assert.deepEqual(trigrams, ['a.c', 'b.c', 'c.c', 'd.txt', 'e.c', 'f.c', 'g.c']);
    // A segment written before words were indexed (or merged with one) cannot answer for a word.
    db.run('UPDATE text_segments SET words = 0');
    db.run('UPDATE text_state SET gen = gen + 1');
    assert.deepEqual((await readerOf(root, db).candidates(word, ''))?.files, trigrams);
    db.close();
  });

  it('counts files under a scope and returns only those, with how many it ruled out', async () => {
    const { root, db, store, entries } = await catalogued(CORPUS);
    await runTextStage(textWork(store, entries), { db, fs: runtime.fs });
    const reader = readerOf(root, db);
    const r = await reader.candidates({ pattern: 'foo', literal: true, ignoreCase: false }, 'src');
    // FOO in upper.txt: the index folds case, the exact scan tells them apart.
    assert.deepEqual(r?.files, ['src/foo.ts', 'src/newline.txt', 'src/regexy.js', 'src/tabs.py', 'src/upper.txt']);
    assert.equal(r?.ruledOut, entries.filter((e) => e.path.startsWith('src/')).length - 5);
    assert.deepEqual((await reader.candidates({ pattern: 'foo', literal: true, ignoreCase: false }, 'doc'))?.files, []);
    const one = await reader.candidates({ pattern: 'foo', literal: true, ignoreCase: false }, '/src/foo.ts');
    assert.deepEqual([one?.files, one?.ruledOut], [['src/foo.ts'], 0], 'a file as the scope: that file alone');
    assert.deepEqual((await reader.candidates({ pattern: 'foo', literal: true, ignoreCase: false }, 'sr'))?.files, [], 'a folder is not a prefix of a name');
    assert.equal(await reader.candidates({ pattern: 'a.b', literal: false, ignoreCase: false }, ''), undefined, 'no trigram required: the caller scans');
    db.close();
  });

  it('makes files it has not indexed yet candidates for every query, so it is usable while it builds', async () => {
    const { root, db, store, entries } = await catalogued({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n', 'd.txt': 'delta\n' });
    const reader = readerOf(root, db);
    assert.equal(await reader.candidates({ pattern: 'alpha', literal: true, ignoreCase: false }, ''), undefined, 'nothing indexed yet: the caller scans');
    await runTextStage(textWork(store, entries.slice(0, 3)), { db, fs: runtime.fs });
    assert.deepEqual((await reader.candidates({ pattern: 'alpha', literal: true, ignoreCase: false }, ''))?.files, ['a.txt', 'd.txt']);
    assert.deepEqual(reader.status(), { state: 'ready', indexed: 3, total: 4, bytes: reader.status().bytes });
    db.close();
  });

  it('skips binary files and files over 10 MB, as the grep engines do', async () => {
    const big = `${'needle_in_big '.repeat(800_000)}\n`;
    const { root, db, store, entries } = await catalogued({ 'text.txt': 'needle_in_big here\n', 'big.txt': big, 'blob.bin': 'needle_in_big\u0000binary\n' });
    await runTextStage(textWork(store, entries), { db, fs: runtime.fs });
    const found = await readerOf(root, db).candidates({ pattern: 'needle_in_big', literal: true, ignoreCase: false }, '');
    assert.deepEqual(found?.files, ['text.txt']);
    db.close();
  });

  it('keeps stored postings to a fraction of the source', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/f${i}.c`] = Array.from({ length: 200 }, (_, k) => `static int value_${i}_${k} = compute(${k}, "${i}");`).join('\n');
    const { root, db, store, entries } = await catalogued(files);
    await runTextStage(textWork(store, entries), { db, fs: runtime.fs });
    const source = entries.reduce((n, e) => n + e.size, 0);
    const status = readerOf(root, db).status();
    assert.ok(status.bytes > 0 && status.bytes < source / 2, `${status.bytes} bytes of postings for ${source} bytes of source`);
    db.close();
  });
});

describe('the text index in the code index refresh pass', () => {
  function codeIndexOf(files: Record<string, string>, logger: Logger = silent, textSegmentFiles?: number): { root: string; data: string; index: CodeIndex } {
    const root = fixture(files);
    const data = fixture();
    dirs.push(root, data);
    const index = createCodeIndex({
      fs: runtime.fs,
      grammars: createGrammars(runtime),
      logger,
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: ['node_modules'], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, path.join(data, 'code.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
      ...(textSegmentFiles ? { textSegmentFiles } : {}),
    });
    return { root, data, index };
  }
  const q = (pattern: string): TextQuery => ({ pattern, literal: true, ignoreCase: false });

  it('is built by the same pass as the code model, and answers once the catalogue is known', async () => {
    const { index } = codeIndexOf({ 'src/a.ts': 'export function alpha() { return "needle"; }\n', 'src/b.py': 'def beta():\n    pass\n', 'README.md': 'no needle here? yes: needle\n' });
    await index.refresh();
    assert.deepEqual((await index.text.candidates(q('needle'), ''))?.files, ['README.md', 'src/a.ts']);
    assert.equal(index.text.status().state, 'ready');
    assert.equal(index.text.status().indexed, 3);
    await index.close();
  });

  it('merges the segments of a build beside its parse stage, and ends with one segment and every file parsed', async () => {
    // Segments of up to 400 files (4,000 by default): the text stage writes three, two of a size.
    const files: Record<string, string> = {};
    for (let i = 0; i < 810; i++) files[`notes/n${i}.txt`] = `note number_${i} here\n`;
    for (let i = 0; i < 40; i++) files[`src/m${i}.ts`] = `export function handler_${i}() {\n  return "number_${i}";\n}\n`;
    const events: string[] = [];
    const { data, index } = codeIndexOf(files, { log: (event, fields) => void events.push(event === 'text_index_done' ? `${event} ${fields?.segments}` : event), file: undefined, close() {} }, 400);
    await index.refresh();
    assert.ok(events.includes('text_index_done 3'), events.join(' '));
    assert.ok(events.includes('text_index_compacted'), events.join(' '));
    assert.ok(events.indexOf('text_index_compacted') < events.indexOf('code_index_done'), 'the pass ends once compaction has');
    const db = await openDatabase(runtime, path.join(data, 'code.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    try {
      assert.equal(Number(db.value('SELECT count(*) FROM text_segments')), 1);
      assert.equal(Number(db.value("SELECT count(*) FROM code_files WHERE language = 'typescript' AND parsed_of = version")), 40);
    } finally {
      db.close();
    }
    // Candidates (a superset the search then verifies) from both segments' files.
    assert.ok((await index.text.candidates(q('number_809 '), ''))?.files.includes('notes/n809.txt'));
    assert.ok((await index.text.candidates(q('number_7"'), ''))?.files.includes('src/m7.ts'));
    await index.close();
  });

  it('never serves a stale answer: a touched file is a candidate until the index has taken its new version', async () => {
    const { root, index } = codeIndexOf({ 'a.txt': 'old words\n', 'b.txt': 'other words\n' });
    await index.refresh();
    assert.deepEqual((await index.text.candidates(q('zebra_crossing'), ''))?.files, []);
    writeFileSync(path.join(root, 'a.txt'), 'now a zebra_crossing\n');
    writeFileSync(path.join(root, 'c.txt'), 'a new zebra_crossing\n');
    index.text.touched(['a.txt', 'c.txt']);
    assert.deepEqual((await index.text.candidates(q('zebra_crossing'), ''))?.files, ['a.txt', 'c.txt']);
    // The touched files are taken into the index shortly after (a burst of edits: one refresh).
    await index.fresh(['a.txt', 'c.txt']);
    assert.deepEqual((await index.text.candidates(q('zebra_crossing'), ''))?.files, ['a.txt', 'c.txt']);
    assert.deepEqual((await index.text.candidates(q('old words'), ''))?.files, [], 'the old version of a.txt is no longer a candidate');
    await index.close();
  });

  it('drops deleted files and takes new and changed ones on the next pass, re-reading only what changed', async () => {
    const { root, index } = codeIndexOf({ 'a.ts': 'export const keep = "needle";\n', 'gone.ts': 'export const gone = "needle";\n' });
    await index.refresh();
    unlinkSync(path.join(root, 'gone.ts'));
    writeFileSync(path.join(root, 'new.ts'), 'export const added = "needle";\n');
    await index.refresh();
    assert.deepEqual((await index.text.candidates(q('needle'), ''))?.files, ['a.ts', 'new.ts']);
    await index.close();
  });
});

describe('text index upkeep', () => {
  it('merges the many segments of a build into one, small edit segments among themselves once there are several, and leaves a few alone', async () => {
    const { pickSegments } = await import('../../src/textindex/compact.ts');
    const seg = (id: number, postings: number) => ({ id, bits: 10, docs: 1, min_doc: id, max_doc: id, postings, bytes: postings, words: 1 });
    const build = Array.from({ length: 24 }, (_, i) => seg(i + 1, 1000));
    assert.equal(pickSegments(build).length, 24);
    const edits = (n: number) => [seg(1, 100_000), ...Array.from({ length: n }, (_, i) => seg(i + 2, 10))];
    assert.deepEqual(pickSegments(edits(3)), []);
    assert.deepEqual(pickSegments(edits(8)).map((s) => s.id), [2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(pickSegments([seg(1, 100_000), seg(2, 90_000), seg(3, 10)]).length, 3, 'two big segments merge with everything');
  });

  it('upgrades a code index of schema 1: indexes the text of its files, and parses them again into the rows of schema 7', async () => {
    const { PARSER_VERSION } = await import('../../src/code/index.ts');
    const root = fixture({ 'a.ts': 'export const needle = 1;\n' });
    const data = fixture();
    dirs.push(root, data);
    const dbFile = path.join(data, 'code.db');
    const st = runtime.fs.statSync(path.join(root, 'a.ts'))!;
    const old = await openDatabase(runtime, dbFile, { busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.slice(0, 1) });
    old.run("INSERT INTO code_files (path, size, mtime_ms, hash, language, lines, parser) VALUES ('a.ts', ?, ?, 'old-string-hash', 'typescript', 2, ?)", [st.size, st.mtimeMs, PARSER_VERSION]);
    for (const [k, v] of [['root', root], ['parser', String(PARSER_VERSION)], ['complete', '1']]) old.run('INSERT INTO code_meta (key, value) VALUES (?, ?)', [k!, v!]);
    old.close();
    const events: { event: string; fields?: Record<string, unknown> }[] = [];
    const index = createCodeIndex({
      fs: runtime.fs,
      grammars: createGrammars(runtime),
      logger: { log: (event, fields) => events.push({ event, fields }), file: undefined, close() {} },
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: [], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
    });
    await index.refresh();
    assert.equal(events.find((e) => e.event === 'code_index_done')?.fields?.parsed, 1, 'its file parsed again into the rows of schema 7');
    assert.deepEqual((await index.text.candidates({ pattern: 'needle', literal: true, ignoreCase: false }, ''))?.files, ['a.ts']);
    await index.close();
  });

  it('upgrades a text index of schema 2: every file is indexed again with its words (and parsed again, which schema 7 asks of every older index)', async () => {
    const root = fixture({ 'a.ts': 'export const list_add = 1;\n', 'b.ts': 'export const list_add_tail = 2;\n' });
    const data = fixture();
    dirs.push(root, data);
    const dbFile = path.join(data, 'code.db');
    const open = () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    const indexOn = (logger: Logger = silent) =>
      createCodeIndex({ fs: runtime.fs, grammars: createGrammars(runtime), logger, workdirs: { dirs: [root] }, root, scan: { excludeDirs: [], respectGitignore: true }, openDatabase: open });
    // An index as a ctxgate of schema 2 left it: built, taken by the text stage, no words column.
    const first = indexOn();
    await first.refresh();
    await first.close();
    const db = await open();
    db.exec('ALTER TABLE text_segments DROP COLUMN words; ALTER TABLE code_files DROP COLUMN ctime_ms; ALTER TABLE code_files DROP COLUMN ino; ALTER TABLE code_files DROP COLUMN taken_at; DROP TABLE code_locals; DROP TABLE code_names; DROP TABLE code_name_keys; DROP TABLE code_name_keys_new; DROP TABLE code_file_rows; DROP TABLE code_file_macros; DROP TABLE code_macro_keys; DROP TABLE code_name_sweep; ALTER TABLE code_defs DROP COLUMN bases; DROP TABLE code_imports; DROP TABLE code_import_targets; CREATE TABLE code_imports (file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE, line INTEGER NOT NULL, source TEXT NOT NULL, target TEXT); CREATE INDEX code_imports_file ON code_imports(file_id); CREATE INDEX code_imports_target ON code_imports(target); PRAGMA user_version=2;');
    db.close();
    const events: { event: string; fields?: Record<string, unknown> }[] = [];
    const index = indexOn({ log: (event, fields) => events.push({ event, fields }), file: undefined, close() {} });
    await index.refresh();
    assert.equal(events.find((e) => e.event === 'code_index_done')?.fields?.parsed, 2, 'both files parsed again into the rows of schema 7');
    assert.deepEqual((await index.text.candidates({ pattern: 'list_add', literal: true, ignoreCase: false, word: true }, ''))?.files, ['a.ts'], 'the word narrows');
    await index.close();
  });

  it('takes touched files into the index by itself shortly after a burst of touches', async () => {
    const root = fixture({ 'a.txt': 'first words\n', 'b.txt': 'other\n', 'c.txt': 'more\n' });
    const data = fixture();
    dirs.push(root, data);
    const index = createCodeIndex({
      fs: runtime.fs,
      grammars: createGrammars(runtime),
      logger: silent,
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: [], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, path.join(data, 'code.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
    });
    await index.refresh();
    writeFileSync(path.join(root, 'a.txt'), 'second words\n');
    index.text.touched(['a.txt']);
    const q = { pattern: 'first words', literal: true, ignoreCase: false };
    assert.deepEqual((await index.text.candidates(q, ''))?.files, ['a.txt'], 'touched: a candidate whatever its trigrams say');
    // Polled, not timed: the refresh runs in the background after the touches settle.
    for (let i = 0; i < 100 && (await index.text.candidates(q, ''))?.files.length; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual((await index.text.candidates(q, ''))?.files, [], 'its new version is indexed and no longer holds the old words');
    await index.close();
  });
});
