import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findDefinitions } from '../../src/code/graph.ts';
import { PARSER_VERSION } from '../../src/code/index.ts';
import { NAME_MARK, nameHash, packIds, packSignature, signatureSql, unpackIds, unpackSignature } from '../../src/code/row-formats.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { builtIndex, codeIndexOf, testDir } from '../helpers/code-index.ts';

const SIGNATURES = [
  `#define ${NAME_MARK} 0x80`,
  `#define ${NAME_MARK}(x) ((x) + 1)`,
  `#define ${NAME_MARK}`,
  `static int ${NAME_MARK}(struct device *dev)`,
  `static inline void ${NAME_MARK}(void)`,
  `${NAME_MARK} = 3`,
  `struct ${NAME_MARK}`,
  "const it's = 'quoted'",
  'no name here',
  '',
  '\u0002 a code character first',
  `\u0003#define ${NAME_MARK} 1`,
  '\u001f last code',
  ' \u0005 later',
  `export function ${NAME_MARK}(a: string): number`,
];

describe('code.db row formats', () => {
  it('packs common signature beginnings into one character and unpacks every signature, in JavaScript and in SQL', async () => {
    const db = await openDatabase(runtime, path.join(testDir(), 'formats.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: [] });
    try {
      for (const signature of SIGNATURES) {
        const packed = packSignature(signature);
        assert.equal(unpackSignature(packed), signature, JSON.stringify(signature));
        const sql = db.value(`SELECT ${signatureSql('?1', '?2')}`, [packed, 'NAME']);
        assert.equal(sql, signature.replaceAll(NAME_MARK, 'NAME'), JSON.stringify(signature));
      }
      assert.equal(packSignature(`#define ${NAME_MARK} 0x80`).length, 5, 'the beginning is one character');
      assert.equal(packSignature(`#define ${NAME_MARK}(x) x`), `${packSignature(`#define ${NAME_MARK}(`)}x) x`);
      assert.equal(packSignature('plain text'), 'plain text');
    } finally {
      db.close();
    }
  });

  it("packs a file's name ids as ascending gaps, a few bytes each, and refuses what is no id", () => {
    const ids = [5, 3_000_000, 1, 127, 128, 16_383, 16_384, 3_000_000, 2 ** 32 - 1];
    const packed = packIds(ids);
    assert.deepEqual(unpackIds(packed), [...new Set(ids)].sort((a, b) => a - b));
    assert.ok(packed.length <= 8 * 5);
    assert.deepEqual(unpackIds(packIds([])), []);
    assert.equal(packIds([100, 101, 102]).length, 3);
    assert.throws(() => packIds([0]), /positive 32-bit integer/);
    assert.throws(() => packIds([1.5]), /positive 32-bit integer/);
    assert.throws(() => unpackIds(Uint8Array.of(0x81)), /truncated/);
  });

  it('hashes names to 23 bits, and finds each of two names that share a hash', async () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const name = `name_${i}`;
      const h = nameHash(name);
      assert.ok(h >= 0 && h < 2 ** 23);
      const other = seen.get(h);
      if (other) pair = [other, name];
      seen.set(h, name);
    }
    const [a, b] = pair;
    assert.equal(nameHash(a), nameHash(b));
    assert.notEqual(nameHash('alpha'), nameHash('alphb'));
    const index = await builtIndex({
      'a.ts': `export function ${a}(x: number) {\n  return ${b}(x);\n}\n`,
      'b.ts': `export function ${b}(y: number) {\n  return y;\n}\n`,
    });
    assert.deepEqual((await findDefinitions(index, a))?.map((d) => [d.file, d.line, d.signature]), [["a.ts", 1, `function ${a}(x: number)`]]);
    assert.deepEqual((await findDefinitions(index, b))?.map((d) => [d.file, d.line, d.signature]), [["b.ts", 1, `function ${b}(y: number)`]]);
    const store = await index.ready();
    assert.deepEqual(store?.referencesNamed(b, ['call']).map((r) => [r.path, r.line, r.def_name]), [['a.ts', 2, a]]);
    assert.deepEqual(store?.referencesNamed(a, ['call']), []);
  });

  it('upgrades an index of schema 8: names and signatures are written again in the new form, the stale rows gone', async () => {
    const files = { 'regs.h': '#define REG_CTRL 0x80\n#define REG_MASK(x) ((x) << 2)\nstatic int probe(int dev)\n{\n  return REG_MASK(dev);\n}\n' };
    const dbFile = path.join(testDir(), 'code.db');
    const { root } = codeIndexOf(files, dbFile);
    // Schema 8 as its store wrote it: an index on the names' text, signatures unpacked.
    const db = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= 8), pragmas: CODE_DB_PRAGMAS });
    db.exec(`
      INSERT INTO code_files (id, path, size, mtime_ms, hash, language, lines, parser, version, text_of, parsed_of) VALUES (1, 'regs.h', 1, 0, '', 'c', 6, ${PARSER_VERSION}, 1, 1, 1);
      INSERT INTO code_names (id, name) VALUES (1, 'REG_OLD'), (2, 'probe');
      INSERT INTO code_defs (id, file_id, name_id, kind, signature, start_line, name_offset, end_offset, exported, bodiless) VALUES (1, 1, 1, 15, '#define ${NAME_MARK} 1', 1, 0, 0, 1, 0);
      INSERT INTO code_refs (name_id, kind, file_id, line, def_id) VALUES (1, 0, 1, 5, 1);
      INSERT INTO code_file_rows (file_id, first_def, last_def, names) VALUES (1, 1, 1, '[1]');
      INSERT INTO code_meta (key, value) VALUES ('root', '${root.replaceAll("'", "''")}'), ('parser', '${PARSER_VERSION}'), ('complete', '1');
    `);
    db.close();
    // The migration alone: every file is to be parsed and read into the text index again.
    const migrated = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS });
    assert.deepEqual(migrated.all('SELECT text_of, parsed_of FROM code_files'), [{ text_of: 0, parsed_of: 0 }]);
    assert.equal(migrated.value("SELECT count(*) FROM code_meta WHERE key = 'complete'"), 0);
    migrated.close();
    const index = await builtIndex({ root }, dbFile);
    const store = await index.ready();
    assert.ok(store, 'the index is built again');
    assert.equal(store.db.value('PRAGMA user_version'), CODE_MIGRATIONS.at(-1)?.version);
    assert.deepEqual(await findDefinitions(index, 'REG_OLD'), []);
    assert.deepEqual(
      (await findDefinitions(index, 'REG_MASK'))?.map((d) => [d.line, d.signature]),
      [[2, '#define REG_MASK(x) ((x) << 2)']],
    );
    assert.deepEqual((await findDefinitions(index, 'REG_CTRL'))?.map((d) => [d.line, d.signature]), [[1, '#define REG_CTRL 0x80']]);
    assert.deepEqual((await findDefinitions(index, 'probe'))?.map((d) => [d.line, d.signature]), [[3, 'static int probe(int dev)']]);
    const rows = store.db.all('SELECT h, name FROM code_names') as { h: number; name: string }[];
    assert.ok(rows.length > 2);
    for (const r of rows) assert.equal(r.h, nameHash(r.name), r.name);
    const stored = store.db.all('SELECT signature FROM code_defs') as { signature: string }[];
    assert.ok(stored.every((r) => !r.signature.startsWith('#define')), 'the beginnings are packed');
    assert.deepEqual(store.referencesNamed('REG_MASK', ['call']).map((r) => [r.path, r.line]), [['regs.h', 5]]);
    assert.deepEqual(store.db.all('SELECT count(*) AS n FROM code_files WHERE text_of = version AND text_doc IS NOT NULL'), [{ n: 1 }]);
  });
});
