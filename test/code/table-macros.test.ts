import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { DefinitionKind } from '../../src/code/extracted.ts';
import { definitionAt, findDefinitions, outlineOf } from '../../src/code/graph.ts';
import { PARSER_VERSION } from '../../src/code/index.ts';
import { CodeStore } from '../../src/code/store.ts';
import { NAME_MARK, nameHash, packSignature } from '../../src/code/row-formats.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { decodeTableMacros, encodeTableMacros, type MacroCandidate, packTableMacros, type TableMacro, tableMacroPlaces, unpackTableMacros } from '../../src/code/table-macros.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { builtIndex, rebuiltIndex, testDir } from '../helpers/code-index.ts';

const candidate = (kind: DefinitionKind, signature: string, more: Partial<MacroCandidate> = {}): MacroCandidate => ({
  kind,
  packed: packSignature(signature),
  container: undefined,
  parent: undefined,
  searchable: false,
  bodiless: false,
  bases: undefined,
  ...more,
});

/** A header of `count` register constants, a documented one, a continued one, a function-like macro and a function. */
function registerHeader(count: number): string {
  const lines = ['#ifndef REGS_H', '#define REGS_H', '', '/* The first register. */', '#define REG_0 0x0'];
  for (let i = 1; i < count; i++) lines.push(`#define REG_${i} 0x${i.toString(16)}${i === 2 ? ' /* sizeof(struct regs) */' : ''}`);
  lines.push('#define REG_SUM \\', '\t(REG_1 + REG_2)', '#define REG_AT(n) (0x100 + (n))', 'static inline int reg_read(int n) { return REG_AT(n); }', '#endif');
  return `${lines.join('\n')}\n`;
}

describe('constant tables (object-like macros kept per file)', () => {
  it('encodes macros compactly and decodes them as they were, and refuses what the format cannot hold', () => {
    const macros: TableMacro[] = [
      { place: 0, name: 'MC_CONFIG__MCDW_WR_ENABLE_MASK', packed: packSignature(`#define ${NAME_MARK} 0x1L`), start: 27, nameLine: 27, end: 28, exported: true },
      { place: 1, name: 'MC_CONFIG__MCDW_WR_ENABLE__SHIFT', packed: packSignature(`#define ${NAME_MARK} 0x0`), start: 28, nameLine: 28, end: 29, exported: true },
      { place: 3, name: 'OTHER', packed: packSignature(`#define ${NAME_MARK}`), start: 31, nameLine: 33, end: 35, exported: false },
      { place: 4, name: 'OTHER_TOO', packed: '\u0002\u0003odd', start: 31, nameLine: 31, end: 31, exported: true },
    ];
    const text = encodeTableMacros(macros);
    assert.deepEqual(decodeTableMacros(text), macros);
    assert.equal(text.split('\n')[1], `26\t_SHIFT\t${macros[1]!.packed}`, 'a common macro is its shared prefix, its name suffix and its signature');
    assert.deepEqual(unpackTableMacros(packTableMacros(macros)), macros);
    assert.deepEqual(decodeTableMacros(''), []);
    assert.throws(() => encodeTableMacros([macros[1]!, macros[0]!]), /order of their places/);
    assert.throws(() => encodeTableMacros([{ ...macros[0]!, packed: 'a\tb' }]), /no tab or line break/);
    assert.throws(() => decodeTableMacros('12 no tabs'), /malformed constant table/);
  });

  it('takes the object-like macros of a file that has at least eight, never its last definition nor a parent', () => {
    const macros = Array.from({ length: 9 }, (_, i) => candidate('macro', `#define ${NAME_MARK} ${i}`));
    assert.deepEqual([...tableMacroPlaces(macros)], [0, 1, 2, 3, 4, 5, 6, 7], 'the last one stays a row');
    assert.deepEqual([...tableMacroPlaces(macros.slice(0, 8))], [], 'seven are too few');
    const mixed = [
      ...macros,
      candidate('macro', `#define ${NAME_MARK}(x) (x)`),
      candidate('macro', `#define ${NAME_MARK}`),
      candidate('macro', `# define ${NAME_MARK} 2`),
      candidate('function', `int ${NAME_MARK}(void)`),
      candidate('macro', `#define ${NAME_MARK} 3`, { searchable: true }),
      candidate('field', `int ${NAME_MARK}`, { parent: 2 }),
    ];
    assert.deepEqual([...tableMacroPlaces(mixed)], [0, 1, 3, 4, 5, 6, 7, 8, 10, 11], 'function-like macros, searchable ones and parents stay rows');
  });

  it('answers locate, read, outline and references for a table macro as for a row, and forgets it when the file changes', async () => {
    const index = await builtIndex({ 'regs.h': registerHeader(12), 'use.c': '#include "regs.h"\nint f(void) { return REG_3 + REG_SUM; }\n' });
    const store = await index.ready();
    assert.ok(store);
    assert.equal(store.db.value('SELECT count(*) FROM code_file_macros'), 1);
    assert.deepEqual(store.db.all('SELECT n.name FROM code_defs d JOIN code_names n ON n.id = d.name_id WHERE d.kind = 15 ORDER BY d.id'), [{ name: 'REG_AT' }], 'no row for an object-like macro');
    const found = (name: string) => findDefinitions(index, name).then((ds) => ds?.map((d) => [d.file, d.start, d.line, d.end, d.kind, d.signature, d.exported, d.topLevel]));
    assert.deepEqual(await found('REG_0'), [['regs.h', 4, 5, 6, 'macro', '#define REG_0 0x0', true, true]], 'its doc comment starts it');
    assert.deepEqual(await found('REG_11'), [['regs.h', 16, 16, 17, 'macro', '#define REG_11 0xb', true, true]]);
    assert.deepEqual(await found('REG_SUM'), [['regs.h', 17, 17, 19, 'macro', '#define REG_SUM \\', true, true]]);
    assert.deepEqual(await found('REG_AT'), [['regs.h', 19, 19, 20, 'macro', '#define REG_AT(n) (0x100 + (n))', true, true]], 'a function-like macro stays a row');
    assert.deepEqual(await found('REG_12'), []);
    const outline = (await outlineOf(index, 'regs.h'))?.map((d) => d.name);
    assert.deepEqual(outline, ['REGS_H', ...Array.from({ length: 12 }, (_, i) => `REG_${i}`), 'REG_SUM', 'REG_AT', 'reg_read']);
    assert.equal((await definitionAt(index, 'regs.h', 18))?.name, 'REG_SUM', 'the line of a continued macro');
    assert.equal((await definitionAt(index, 'regs.h', 9))?.name, 'REG_4');
    // A reference inside a table macro names it as its enclosing definition.
    assert.deepEqual(
      store.referencesNamed('sizeof', ['call', 'mention', 'type']).map((r) => [r.path, r.line, r.def_name, r.def_line]),
      [['regs.h', 7, 'REG_2', 7]],
    );
    assert.equal(store.definition(store.definitionsNamed('REG_5')[0]!.id)?.name, 'REG_5', 'found by its id');
    assert.deepEqual(store.mostCalled(10, { path: 'regs.h', isFile: true }).map((r) => r.name), ['REG_AT']);
    assert.equal(store.counts().definitions, 17);
    // Edited: the table is written again; a name it lost is gone with its key.
    const root = path.dirname(String(store.db.value("SELECT value FROM code_meta WHERE key = 'root'")) + '/x');
    writeFileSync(path.join(root, 'regs.h'), registerHeader(10));
    await index.refresh();
    assert.deepEqual(await found('REG_11'), []);
    assert.deepEqual(await found('REG_9'), [['regs.h', 14, 14, 15, 'macro', '#define REG_9 0x9', true, true]]);
    assert.equal(store.db.value('SELECT count(*) FROM code_macro_keys WHERE h = ?', [nameHash('REG_11')]), 0);
    unlinkSync(path.join(root, 'regs.h'));
    await index.refresh();
    assert.deepEqual(await found('REG_9'), []);
    assert.equal(store.db.value('SELECT count(*) FROM code_file_macros'), 0);
    assert.equal(store.db.value('SELECT count(*) FROM code_macro_keys'), 0);
  });

  it('counts calls of a table macro among the most-called names defined in its file or folder', async () => {
    const header = `${Array.from({ length: 9 }, (_, i) => `#define HW_${i} ${i}`).join('\n')}\n#define hw_write write_reg\nint write_reg(int r);\n`;
    const index = await builtIndex({ 'hw/regs.h': header, 'main.c': '#include "hw/regs.h"\nint main(void) { hw_write(HW_1); hw_write(HW_2); return write_reg(0); }\n' });
    const store = await index.ready();
    assert.ok(store);
    assert.equal(store.db.value('SELECT n FROM code_file_macros'), 10, 'the alias is a table macro too');
    const expected = [{ name: 'hw_write', n: 1 }, { name: 'write_reg', n: 1 }];
    const byName = (rows: { name: string; n: number }[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(byName(store.mostCalled(10, { path: 'hw/regs.h', isFile: true })), expected);
    assert.deepEqual(byName(store.mostCalled(10, { path: 'hw/', isFile: false })), expected);
    assert.deepEqual(store.mostCalled(10, { path: 'main.c', isFile: true }), [], 'main is called nowhere');
  });

  it('upgrades an index of schema 9: its macro rows answer until the file is parsed again into a table', async () => {
    const root = testDir({ 'regs.h': registerHeader(9) });
    const dbFile = path.join(testDir(), 'code.db');
    // Schema 9 as its store wrote it: every macro a code_defs row.
    const db = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= 9), pragmas: CODE_DB_PRAGMAS });
    const names = ['REGS_H', ...Array.from({ length: 9 }, (_, i) => `REG_${i}`)];
    db.exec(`INSERT INTO code_files (id, path, size, mtime_ms, hash, language, lines, parser, version, text_of, parsed_of) VALUES (1, 'regs.h', 1, 0, '', 'c', 20, ${PARSER_VERSION}, 1, 0, 1);
      INSERT INTO code_meta (key, value) VALUES ('root', '${root.replaceAll("'", "''")}'), ('parser', '${PARSER_VERSION}'), ('complete', '1');`);
    names.forEach((name, i) => {
      db.run('INSERT INTO code_names (id, h, name) VALUES (?, ?, ?)', [i + 1, nameHash(name), name]);
      db.run('INSERT INTO code_defs (id, file_id, name_id, kind, signature, start_line, name_offset, end_offset, exported, bodiless) VALUES (?, 1, ?, 15, ?, ?, 0, 1, 1, 0)', [i + 1, i + 1, packSignature(`#define ${NAME_MARK} ${i}`), 40 + i]);
    });
    db.run('INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (1, 1, ?, ?)', [names.length, new Uint8Array()]);
    db.close();
    const upgraded = new CodeStore(await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }));
    assert.equal(upgraded.db.value('PRAGMA user_version'), CODE_MIGRATIONS.at(-1)?.version);
    assert.deepEqual(upgraded.definitionsNamed('REG_4').map((d) => [d.path, d.name_line, d.signature]), [['regs.h', 45, '#define REG_4 5']], 'the old row answers');
    assert.equal(upgraded.file('regs.h')?.parsed_of, 0, 'the file is to be parsed again');
    assert.equal(upgraded.meta('complete'), '1', 'the index stays complete');
    upgraded.db.close();
    const { index, store } = await rebuiltIndex(root, dbFile);
    assert.deepEqual((await findDefinitions(index, 'REG_4'))?.map((d) => [d.file, d.line, d.signature]), [['regs.h', 9, '#define REG_4 0x4']]);
    assert.equal(store.db.value('SELECT count(*) FROM code_file_macros'), 1);
    assert.equal(store.db.value('SELECT n FROM code_file_macros'), 11);
  });
});
