import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findDefinitions, searchBlocks } from '../../src/code/graph.ts';
import { NAME_MARK, nameHash, packIds, packSignature } from '../../src/code/row-formats.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore, type ReferenceRow } from '../../src/code/store.ts';
import { withMatchingBlocks } from '../../src/code/store-blocks.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { builtIndex, indexAtSchema, rebuiltIndex, testDir } from '../helpers/code-index.ts';

const SOURCE = [
  '/* Flushes the pending writes of a queue. */',
  'int flush_queue(struct queue *q)',
  '{',
  '  return drain_pending(q);',
  '}',
  '/* Drains a queue. */',
  'int drain_pending(struct queue *q)',
  '{',
  '  return flush_count(q);',
  '}',
  '',
].join('\n');

const hitsOf = async (index: Parameters<typeof searchBlocks>[0], question: string) =>
  (await searchBlocks(index, question, () => true, 5))?.hits.map((h) => [h.name, h.file, h.line]);

const tables = (store: CodeStore) => (store.db.all("SELECT name FROM sqlite_schema WHERE name IN ('code_blocks', 'code_blocks_v10') ORDER BY name") as { name: string }[]).map((r) => r.name);

describe('schema 11: definition blocks with the body words first, references and locals by place', () => {
  it('ranks by the weight of the column a word is in: a name above a doc comment above a body', async () => {
    const index = await builtIndex({ 'q.c': SOURCE });
    // flush: flush_queue's name, drain_pending's body (flush_count); pending: drain_pending's name, flush_queue's body and doc.
    assert.deepEqual(await hitsOf(index, 'flush'), [['flush_queue', 'q.c', 2], ['drain_pending', 'q.c', 7]]);
    assert.deepEqual(await hitsOf(index, 'pending'), [['drain_pending', 'q.c', 7], ['flush_queue', 'q.c', 2]]);
    assert.deepEqual(await hitsOf(index, 'flush queue'), [['flush_queue', 'q.c', 2], ['drain_pending', 'q.c', 7]], 'the phrase in a name first, a block with either word below');
    const store = await index.ready();
    assert.ok(store);
    assert.deepEqual(tables(store), ['code_blocks']);
    assert.match(String(store.db.value("SELECT sql FROM sqlite_schema WHERE name = 'code_blocks'")), /fts5\(body, name, signature, doc,/);
  });

  it('upgrades an index of schema 10: references and locals converted, its blocks answering until every file is parsed again, then dropped', async () => {
    const root = testDir({ 'q.c': SOURCE });
    // Schema 10 as its store wrote it: the blocks' columns name, signature, doc, body.
    const { db, dbFile } = await indexAtSchema(10, root, 'q.c');
    const defs = [
      ['flush_queue', 2, 'flush queue', 'Flushes the pending writes of a queue.', 'drain pending'],
      ['drain_pending', 7, 'drain pending', 'Drains a queue.', 'flush count'],
    ] as const;
    defs.forEach(([name, line, words, doc, body], i) => {
      db.run('INSERT INTO code_names (id, h, name) VALUES (?, ?, ?)', [i + 1, nameHash(name), name]);
      db.run('INSERT INTO code_defs (id, file_id, name_id, kind, signature, start_line, name_offset, end_offset, exported, bodiless) VALUES (?, 1, ?, 0, ?, ?, 0, 3, 1, 0)', [i + 1, i + 1, packSignature(`int ${NAME_MARK}(struct queue *q)`), line]);
      db.run('INSERT INTO code_blocks (rowid, name, signature, doc, body) VALUES (?, ?, ?, ?, ?)', [i + 1, words, 'int (struct queue *q)', doc, body]);
    });
    db.run('INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (1, 1, 2, ?)', [packIds([1, 2, 3, 4])]);
    // References and locals as schema 10 wrote them: the enclosing definition by id, every column its own.
    db.exec(`INSERT INTO code_names (id, h, name) VALUES (3, ${nameHash('flush_count')}, 'flush_count'), (4, ${nameHash('q')}, 'q');
      INSERT INTO code_refs (name_id, kind, file_id, line, qualifier, def_id, via, n, calls) VALUES
        (2, 0, 1, 4, NULL, 1, NULL, 1, NULL), (3, 0, 1, 9, 'q', 2, 'queue', 2, '[["q","queue",1,null],["r",null,1,null]]'), (3, 0, 1, 12, NULL, NULL, NULL, 1, NULL), (3, 1, 1, 13, NULL, NULL, NULL, 3, NULL), (3, 2, 1, 14, 'q', NULL, NULL, 1, NULL);
      INSERT INTO code_locals (name_id, file_id, line, kind, def_id) VALUES (4, 1, 2, 1, 1), (4, 1, 7, 1, 2), (4, 1, 11, 0, NULL);
      INSERT INTO code_names (id, h, name) VALUES (5, ${nameHash('orphan')}, 'orphan');`);
    db.close();
    const upgraded = new CodeStore(await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }));
    assert.equal(upgraded.db.value('PRAGMA user_version'), CODE_MIGRATIONS.at(-1)?.version);
    assert.deepEqual(tables(upgraded), ['code_blocks', 'code_blocks_v10']);
    assert.deepEqual(
      upgraded.searchBlocks('"flush"', 5).map((r) => [r.name, r.name_line]),
      [['flush_queue', 2], ['drain_pending', 7]],
      'the old rows answer, ranked by their columns as before',
    );
    assert.deepEqual([...upgraded.blocksPerFile('"pending"')], [['q.c', 2]]);
    const call = (r: ReferenceRow) => [r.line, r.def_id, r.def_name, r.def_line, r.qualifier, r.via, r.n, r.calls];
    assert.deepEqual(upgraded.referencesNamed('drain_pending', ['call']).map(call), [[4, 1, 'flush_queue', 2, null, null, 1, null]]);
    assert.deepEqual(upgraded.referencesNamed('flush_count', ['call']).map(call), [
      [9, 2, 'drain_pending', 7, 'q', 'queue', 2, '[["q","queue",1,null],["r",null,1,null]]'],
      [12, null, null, null, null, null, 1, null],
    ]);
    assert.deepEqual(upgraded.referencesNamed('flush_count', ['type', 'import']).map(call), [
      [13, null, null, null, null, null, 3, null],
      [14, null, null, null, 'q', null, 1, null],
    ]);
    assert.deepEqual(upgraded.callSitesOf('flush_count'), [
      { path: 'q.c', qualifier: null, via: null, n: 1, calls: null, lines: 1 },
      { path: 'q.c', qualifier: 'q', via: 'queue', n: 2, calls: '[["q","queue",1,null],["r",null,1,null]]', lines: 1 },
    ]);
    assert.deepEqual(upgraded.referencesWithin('q.c', 1, 10, 'call').map((r) => [r.name, r.line, r.def_id, r.qualifier, r.n]), [['drain_pending', 4, 1, null, 1], ['flush_count', 9, 2, 'q', 2]]);
    assert.deepEqual(
      upgraded.localsNamed('q').map((l) => [l.line, l.kind, l.def_id, l.def_name, l.def_start, l.def_end]),
      [[2, 'parameter', 1, 'flush_queue', 2, 5], [7, 'parameter', 2, 'drain_pending', 7, 10], [11, 'local', null, null, null, null]],
    );
    assert.deepEqual(upgraded.db.all('SELECT def_off, more FROM code_refs ORDER BY line'), [
      { def_off: 0, more: null },
      { def_off: 1, more: '["q","queue",2,"[[\\"q\\",\\"queue\\",1,null],[\\"r\\",null,1,null]]"]' },
      { def_off: null, more: null },
      { def_off: null, more: 3 },
      { def_off: null, more: '["q"]' },
    ], 'stored as places in the file and one column for the rare ones');
    assert.equal(upgraded.file('q.c')?.parsed_of, 0, 'the file is to be parsed again');
    assert.equal(upgraded.db.value('SELECT count(*) FROM code_name_sweep'), 5, 'every name is to be checked');
    assert.equal(upgraded.meta('complete'), '1', 'the index stays complete');
    upgraded.db.close();
    const { index, store } = await rebuiltIndex(root, dbFile);
    assert.deepEqual(tables(store), ['code_blocks'], 'the pass that parsed every file again dropped the old table');
    assert.deepEqual(await hitsOf(index, 'flush'), [['flush_queue', 'q.c', 2], ['drain_pending', 'q.c', 7]]);
    assert.deepEqual(store.searchBlocks('"queue"', 5).length, 2);
    assert.deepEqual(store.db.all("SELECT name FROM code_names WHERE name IN ('orphan', 'flush_count', 'q') ORDER BY name"), [{ name: 'flush_count' }, { name: 'q' }], 'the name no row used is gone');
    assert.equal(store.db.value('SELECT count(*) FROM code_name_sweep'), 0);
  });

  it('sweeps the names no row uses any more once a pass has written the files that used them', async () => {
    const root = testDir({ 'a.c': 'int keep_me(int v) { return v; }\nint old_name(int gone_param) { return gone_call(gone_param) + keep_me(1); }\n', 'b.c': 'int other(void) { return keep_me(2); }\n' });
    const dbFile = path.join(testDir(), 'code.db');
    const index = await builtIndex({ root }, dbFile);
    const store = await index.ready();
    assert.ok(store);
    const named = (names: string[]) => (store.db.all(`SELECT name FROM code_names WHERE name IN (${names.map(() => '?').join(', ')}) ORDER BY name`, names) as { name: string }[]).map((r) => r.name);
    const all = ['gone_call', 'gone_param', 'keep_me', 'old_name', 'other', 'v'];
    assert.deepEqual(named(all), all);
    writeFileSync(path.join(root, 'a.c'), 'int keep_me(int v) { return v; }\n');
    await index.refresh();
    assert.deepEqual(named(all), ['keep_me', 'other', 'v'], 'a definition, a parameter and a call gone: their names too; keep_me is still called from b.c');
    assert.equal(store.db.value('SELECT count(*) FROM code_name_sweep'), 0);
    unlinkSync(path.join(root, 'b.c'));
    await index.refresh();
    assert.deepEqual(named(all), ['keep_me', 'v']);
    assert.deepEqual((await findDefinitions(index, 'keep_me'))?.map((d) => [d.file, d.line]), [['a.c', 1]]);
  });

  it('answers from both tables while the old one stays; a file cleared leaves neither', async () => {
    const root = testDir({ 'q.c': SOURCE, 'r.c': SOURCE.replaceAll('flush_queue', 'flush_ring').replaceAll('drain_pending', 'drain_ring') });
    const dbFile = path.join(testDir(), 'code.db');
    const built = await builtIndex({ root }, dbFile);
    const store = await built.ready();
    assert.ok(store);
    // As if r.c's blocks were still schema 10's: moved to an old table of that form.
    store.db.exec(`CREATE VIRTUAL TABLE code_blocks_v10 USING fts5(name, signature, doc, body, content='', contentless_delete=1, tokenize='porter unicode61');
      INSERT INTO code_blocks_v10 (rowid, name, signature, doc, body) SELECT d.id, 'flush ring', '', '', 'drain ring' FROM code_defs d JOIN code_files f ON f.id = d.file_id JOIN code_names n ON n.id = d.name_id WHERE f.path = 'r.c' AND n.name = 'flush_ring';
      DELETE FROM code_blocks WHERE rowid IN (SELECT d.id FROM code_defs d JOIN code_files f ON f.id = d.file_id WHERE f.path = 'r.c');`);
    assert.deepEqual(store.searchBlocks('"flush"', 5).map((r) => r.name).sort(), ['drain_pending', 'flush_queue', 'flush_ring']);
    // Another process's pass drops the old table between the check and the query: asked again without it.
    const asked: boolean[] = [];
    const hits = withMatchingBlocks(store.db, (matching) => {
      asked.push(matching.includes('code_blocks_v10'));
      if (asked.length === 1) store.db.exec('ALTER TABLE code_blocks_v10 RENAME TO code_blocks_gone');
      return store.db.all(`${matching} ORDER BY rank`, ['flush']).length;
    });
    assert.deepEqual([asked, hits], [[true, false], 2]);
    store.db.exec('ALTER TABLE code_blocks_gone RENAME TO code_blocks_v10');
    store.remove('r.c');
    assert.equal(store.db.value('SELECT count(*) FROM code_blocks_v10'), 0, "clearing a file's rows clears its old blocks too");
    assert.deepEqual(store.searchBlocks('"flush"', 5).map((r) => r.name).sort(), ['drain_pending', 'flush_queue']);
  });
});
