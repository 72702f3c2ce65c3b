import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { expandLines, type GroupLine, groupLines } from '../../src/code/line-groups.ts';
import { NAME_MARK, nameHash, packIds, packSignature, packWords, packWordsSql, unpackWords, unpackWordsSql } from '../../src/code/row-formats.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore, type LocalRow } from '../../src/code/store.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { findDefinitions } from '../../src/code/graph.ts';
import { builtIndex, indexAtSchema, rebuiltIndex, testDir } from '../helpers/code-index.ts';

const SOURCE = [
  'int open_dev(struct device *dev)', // 1
  '{',
  '  int err = 0;',
  '  return err;',
  '}',
  'int close_dev(struct device *dev, int err)', // 6
  '{',
  '  return err;',
  '}',
  'struct holder { struct device *dev; };', // 10
  '',
].join('\n');

const shown = (rows: LocalRow[]) => rows.map((l) => [l.path, l.line, l.kind, l.def_name, l.def_kind, l.def_start, l.def_end]);

/** Lines grouped as the parse stores them and read back as the store reads them. */
function roundTrip(lines: readonly GroupLine[]): GroupLine[] {
  const { first, count, also } = groupLines(lines);
  const back = expandLines(first.line, first.kind, first.defOff, also);
  assert.equal(count ?? 1, back.length, 'the row counts its lines');
  return back;
}

describe('schema 12: references and locals as one row per name and file', () => {
  it('gives back every occurrence of a name in a file with the definition each sits in, from one row', async () => {
    const index = await builtIndex({ 'd.c': SOURCE });
    const store = await index.ready();
    assert.ok(store);
    assert.deepEqual(shown(store.localsNamed('dev')), [
      ['d.c', 1, 'parameter', 'open_dev', 'function', 1, 5],
      ['d.c', 6, 'parameter', 'close_dev', 'function', 6, 9],
      ['d.c', 10, 'field', 'holder', 'struct', 10, 10],
    ]);
    assert.deepEqual(shown(store.localsNamed('err')), [
      ['d.c', 3, 'local', 'open_dev', 'function', 1, 5],
      ['d.c', 6, 'parameter', 'close_dev', 'function', 6, 9],
    ]);
    assert.deepEqual(store.db.all("SELECT l.line, l.lines, l.also FROM code_locals l JOIN code_names n ON n.id = l.name_id WHERE n.name IN ('dev', 'err') ORDER BY n.name"), [
      // dev: 5 lines on, its definition the next (1 + zigzag(1)); 4 on, the next again and kind 2 (field).
      { line: 1, lines: 3, also: Uint8Array.from([5 * 4 + 1, 3, 4 * 4 + 3, 3, 2]) },
      { line: 3, lines: 2, also: Uint8Array.from([3 * 4 + 3, 3, 1]) },
    ]);
    assert.equal(store.counts().locals, Number(store.db.value('SELECT count(*) FROM code_locals')) + 3, 'the counts are of lines');
  });

  it('groups the plain references of a name in a file and keeps a row for each other; lines, counts and ranges as before', async () => {
    const index = await builtIndex({
      'r.c': ['int check(int v);', 'int twice(int a)', '{', '  int x = check(a);', '  return check(x);', '}', 'int thrice(int a)', '{', '  return check(check(check(a)));', '}', ''].join('\n'),
    });
    const store = await index.ready();
    assert.ok(store);
    const calls = store.referencesNamed('check', ['call']);
    assert.deepEqual(calls.map((r) => [r.path, r.line, r.kind, r.n, r.def_name, r.def_line]), [
      ['r.c', 4, 'call', 1, 'twice', 2],
      ['r.c', 5, 'call', 1, 'twice', 2],
      ['r.c', 9, 'call', 3, 'thrice', 7],
    ]);
    assert.deepEqual(store.db.all("SELECT r.line, r.more, r.lines, r.also FROM code_refs r JOIN code_names n ON n.id = r.name_id WHERE n.name = 'check' ORDER BY r.line"), [
      { line: 4, more: null, lines: 2, also: Uint8Array.from([4]) },
      { line: 9, more: 3, lines: null, also: null },
    ]);
    assert.deepEqual(store.referencesWithin('r.c', 5, 9, 'call').map((r) => [r.name, r.line, r.n]), [['check', 5, 1], ['check', 9, 3]], 'a group that starts before the range gives its lines inside');
    assert.deepEqual(store.callSitesOf('check'), [{ path: 'r.c', qualifier: null, via: null, n: 5, calls: null, lines: 3 }]);
    assert.deepEqual(store.mostCalled(1), [{ name: 'check', n: 3 }]);
  });

  it('groups any lines and reads them back unchanged: kinds and definitions, none or repeated, in line order', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let group = 0; group < 200; group++) {
      let line = next(5);
      const lines: GroupLine[] = [];
      for (let i = next(8); i >= 0; i--) {
        line += 1 + next(400);
        lines.push({ line, kind: next(4), defOff: next(3) === 0 ? null : next(300) });
      }
      assert.deepEqual(roundTrip([...lines].reverse()), lines);
    }
    assert.deepEqual(roundTrip([{ line: 4, kind: 0, defOff: 1 }, { line: 2, kind: 1, defOff: null }, { line: 4, kind: 2, defOff: 2 }]), [
      { line: 2, kind: 1, defOff: null },
      { line: 4, kind: 0, defOff: 1 },
    ], 'a repeated line keeps the first given');
    assert.throws(() => groupLines([]), /at least one line/);
  });

  it("stores a signature's common words as one character each, in JavaScript and in SQL alike, and any text back unchanged", async () => {
    const signatures = [
      `static int ${NAME_MARK}(struct platform_device *pdev, const struct net_device *nd)`,
      `static inline void ${NAME_MARK}(void)`,
      `${NAME_MARK}(unsigned long x, u8 *p, void *q)`,
      `typedef enum ${NAME_MARK}`,
      'struct struct struct ',
      "it's, 'quoted', \u00e9t\u00e9 \u{1f600} void",
      'a\ttab, and a \u0005 control',
      '\u007fstarts with the escape, int ',
      '\u0002struct a code first',
      'x',
      '',
    ].map((sig) => packSignature(sig));
    const db = await openDatabase(runtime, path.join(testDir(), 'words.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: [] });
    for (const packed of signatures) {
      const stored = packWords(packed);
      assert.equal(unpackWords(stored), packed);
      assert.equal(db.value(`SELECT ${packWordsSql('?1')}`, [packed]), stored, `the migration's SQL stores ${JSON.stringify(packed)} as packWords does`);
      assert.equal(db.value(`SELECT ${unpackWordsSql('?1')}`, [stored]), packed);
    }
    db.close();
    assert.equal(packWords(signatures[0]!).length, signatures[0]!.length - 'platform_device *'.length - 'net_device *'.length - 2 * 'struct '.length - 'const '.length - ', '.length + 6);
    assert.equal(packWords(signatures[6]!), `\u007f${signatures[6]}`, 'a signature holding a code character is stored as it is');
  });

  it("gives a definition its parent's name as its container without storing it", async () => {
    const index = await builtIndex({ 'q.ts': 'export class Queue {\n  push(x: number) {\n    return x;\n  }\n}\nexport function free() {\n  return 1;\n}\n' });
    assert.deepEqual((await findDefinitions(index, 'push'))?.map((d) => [d.file, d.line, d.kind, d.container, d.signature]), [['q.ts', 2, 'method', 'Queue', 'push(x: number)']]);
    const store = await index.ready();
    assert.ok(store);
    assert.deepEqual(store.definitionsIn('q.ts').map((d) => [d.name, d.container]), [['Queue', null], ['push', 'Queue'], ['free', null]]);
    assert.deepEqual(store.db.all('SELECT container, parent_id IS NOT NULL AS nested FROM code_defs ORDER BY id'), [
      { container: null, nested: 0 },
      { container: null, nested: 1 },
      { container: null, nested: 0 },
    ]);
  });

  it('refuses a malformed stored line group with a clear error', () => {
    assert.throws(() => expandLines(3, 0, null, Uint8Array.from([4, 0x85])), /truncated line group/);
    assert.throws(() => expandLines(3, 0, null, Uint8Array.from([1, 3])), /malformed line group/);
    assert.deepEqual(expandLines(3, 0, null, Uint8Array.from([2 * 4 + 3, 0, 1, 1 * 4 + 1, 9])), [
      { line: 3, kind: 0, defOff: null },
      { line: 5, kind: 1, defOff: null },
      { line: 6, kind: 1, defOff: 4 },
    ]);
  });

  it('upgrades an index of schema 11 at once: its rows answer as they are and are grouped when their file is parsed again', async () => {
    const root = testDir({ 'd.c': SOURCE });
    const { db, dbFile } = await indexAtSchema(11, root, 'd.c');
    for (const [i, name] of ['open_dev', 'close_dev', 'dev', 'err'].entries()) db.run('INSERT INTO code_names (id, h, name) VALUES (?, ?, ?)', [i + 1, nameHash(name), name]);
    db.run('INSERT INTO code_defs (id, file_id, name_id, kind, signature, start_line, name_offset, end_offset, exported, bodiless) VALUES (1, 1, 1, 0, ?, 1, 0, 4, 1, 0), (2, 1, 2, 0, ?, 6, 0, 3, 1, 0)', [
      packSignature(`int ${NAME_MARK}(struct device *dev)`),
      packSignature(`int ${NAME_MARK}(struct device *dev, int err)`),
    ]);
    // Nested: one whose container is its parent's name, one with none, one with another.
    db.run("INSERT INTO code_defs (id, file_id, name_id, kind, container, parent_id, signature, start_line, name_offset, end_offset, exported, bodiless) VALUES (3, 1, 4, 12, 'open_dev', 1, 'int err', 3, 0, 0, 0, 0), (4, 1, 3, 12, NULL, 1, ?, 3, 0, 0, 0, 0), (5, 1, 3, 12, 'other', 2, 'x', 7, 0, 0, 0, 0)", [packSignature(`struct device *${NAME_MARK}`)]);
    db.run('INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (1, 1, 5, ?)', [packIds([3, 4])]);
    // Schema 11's rows: one per occurrence, the definition by its place in the file.
    db.exec('INSERT INTO code_locals (name_id, file_id, line, kind, def_off) VALUES (3, 1, 1, 1, 0), (3, 1, 6, 1, 1), (3, 1, 10, 2, NULL), (4, 1, 3, 0, 0), (4, 1, 6, 1, 1);');
    // Imports as schema 11 wrote them: the target's path in each row.
    db.exec("INSERT INTO code_imports (file_id, line, source, target, names) VALUES (1, 1, 'dev.h', 'inc/dev.h', NULL), (1, 1, 'gone.h', NULL, NULL), (1, 2, 'dev.h', 'inc/dev.h', 'x');");
    db.close();
    const upgraded = new CodeStore(await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }));
    assert.equal(upgraded.db.value('PRAGMA user_version'), CODE_MIGRATIONS.at(-1)?.version);
    assert.deepEqual(shown(upgraded.localsNamed('dev')), [
      ['d.c', 1, 'parameter', 'open_dev', 'function', 1, 5],
      ['d.c', 6, 'parameter', 'close_dev', 'function', 6, 9],
      ['d.c', 10, 'field', null, null, null, null],
    ]);
    assert.deepEqual(shown(upgraded.localsNamed('err')), [
      ['d.c', 3, 'local', 'open_dev', 'function', 1, 5],
      ['d.c', 6, 'parameter', 'close_dev', 'function', 6, 9],
    ]);
    assert.deepEqual(upgraded.db.all('SELECT name_id, line, also FROM code_locals ORDER BY name_id, line'), [
      { name_id: 3, line: 1, also: null },
      { name_id: 3, line: 6, also: null },
      { name_id: 3, line: 10, also: null },
      { name_id: 4, line: 3, also: null },
      { name_id: 4, line: 6, also: null },
    ], 'the rows of schema 11 stay as they were');
    assert.equal(upgraded.file('d.c')?.parsed_of, 1, 'no file is parsed again for it');
    assert.deepEqual(upgraded.definitionsIn('d.c').map((d) => [d.id, d.name, d.container, d.parent_id, d.signature]), [
      [1, 'open_dev', null, null, 'int open_dev(struct device *dev)'],
      [3, 'err', 'open_dev', 1, 'int err'],
      [4, 'dev', null, 1, 'struct device *dev'],
      [2, 'close_dev', null, null, 'int close_dev(struct device *dev, int err)'],
      [5, 'dev', 'other', 2, 'x'],
    ], 'definitions converted: containers, signatures');
    assert.deepEqual(upgraded.db.all('SELECT container FROM code_defs WHERE parent_id IS NOT NULL ORDER BY id'), [{ container: 'open_dev' }, { container: null }, { container: 'other' }], 'kept as they were');
    assert.equal(upgraded.meta('defs_12'), '6', 'the rows written from here on start after them');
    const imports = [
      { path: 'd.c', line: 1, source: 'dev.h', target: 'inc/dev.h', names: null },
      { path: 'd.c', line: 1, source: 'gone.h', target: null, names: null },
      { path: 'd.c', line: 2, source: 'dev.h', target: 'inc/dev.h', names: 'x' },
    ];
    assert.deepEqual(upgraded.importsOf('d.c'), imports, 'imports converted: their targets by id, in their order');
    assert.deepEqual(upgraded.importersOf('inc/dev.h'), [imports[0], imports[2]]);
    assert.deepEqual(upgraded.importEdges(), [{ path: 'd.c', target: 'inc/dev.h' }, { path: 'd.c', target: 'inc/dev.h' }]);
    assert.deepEqual(upgraded.db.all('SELECT path FROM code_import_targets'), [{ path: 'inc/dev.h' }], 'each target path once');
    assert.deepEqual(upgraded.db.all('SELECT source FROM code_imports ORDER BY seq'), [{ source: 4 }, { source: 'gone.h' }, { source: 4 }], 'a source that ends its target is where it begins there');
    upgraded.db.close();
    // The file changed since (the catalogue's size and time are not its own): parsed again, its rows grouped.
    const { store } = await rebuiltIndex(root, dbFile);
    assert.deepEqual(shown(store.localsNamed('dev')), [
      ['d.c', 1, 'parameter', 'open_dev', 'function', 1, 5],
      ['d.c', 6, 'parameter', 'close_dev', 'function', 6, 9],
      ['d.c', 10, 'field', 'holder', 'struct', 10, 10],
    ]);
    assert.equal(store.db.value("SELECT count(*) FROM code_locals l JOIN code_names n ON n.id = l.name_id WHERE n.name = 'dev'"), 1);
    assert.deepEqual(store.importsOf('d.c'), []);
    assert.ok(Number(store.db.value('SELECT min(id) FROM code_defs')) >= 6, 'no row of the new form takes an id of the older ones');
    assert.deepEqual(store.definitionsIn('d.c').map((d) => [d.name, d.container, d.signature]), [
      ['open_dev', null, 'int open_dev(struct device *dev)'],
      ['close_dev', null, 'int close_dev(struct device *dev, int err)'],
      ['holder', null, 'struct holder'],
    ]);
    assert.equal(store.db.value('SELECT count(*) FROM code_import_targets'), 0, 'a target no import names any more is gone with the last import naming it');
  });
});
