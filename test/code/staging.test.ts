// A build's staged rows (store-write.ts): references, locals and constant-table keys wait in the
// builder's connection and are merged in key order; until then their files count as not parsed. These tests stop a builder
// between a staged write and its merge, and let another connection (another process) write a staged
// file meanwhile: the index ends with the rows a build that wrote everything directly leaves.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { parseInThread } from '../../src/code/parse-pool.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import { finishMerge, mergeStagedKeys, mergeStagedRange } from '../../src/code/store-write.ts';
import type { LanguageId } from '../../src/code/languages.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { codeIndexOf, testDir } from '../helpers/code-index.ts';
import { readFileSync } from 'node:fs';

const FILES = {
  'a.ts': 'export function alpha(count: number) {\n  const shared = beta(count);\n  return helper.run(shared) + beta(shared);\n}\n',
  'b.ts': 'export function beta(count: number) {\n  const shared = count + 1;\n  return alpha(shared);\n}\nexport class Box {\n  size = 0;\n  grow(by: number) {\n    this.size += by;\n    return beta(this.size);\n  }\n}\n',
  'c.py': 'def gamma(value):\n    total = value + 1\n    return delta(total)\n\ndef delta(v):\n    return gamma(v)\n',
};

/** A header whose object-like macros make a constant table (table-macros.ts): its names are found through code_macro_keys. */
const REGS_H = `${Array.from({ length: 24 }, (_, i) => `#define REG_${String.fromCharCode(65 + i)}_OFFSET 0x${(i * 4).toString(16)}`).join('\n')}\nint reg_read(int at);\n`;

const grammars = createGrammars(runtime);

async function open(dbFile: string): Promise<Database> {
  return openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS });
}

/** Every reference, local and definition of the index, by path and name (ids differ between builds). */
function snapshot(db: Database): { refs: unknown[]; locals: unknown[]; defs: unknown[]; parsed: unknown[] } {
  return {
    refs: db.all(
      `SELECT f.path, n.name, r.kind, r.line, r.more, r.also, dn.name AS def_name FROM code_refs r JOIN code_files f ON f.id = r.file_id JOIN code_names n ON n.id = r.name_id
         LEFT JOIN code_file_rows fr ON fr.file_id = r.file_id LEFT JOIN code_defs d ON d.id = fr.first_def + r.def_off LEFT JOIN code_names dn ON dn.id = d.name_id ORDER BY 1, 2, 3, 4`,
    ),
    locals: db.all(
      `SELECT f.path, n.name, l.line, l.kind, l.also, dn.name AS def_name FROM code_locals l JOIN code_files f ON f.id = l.file_id JOIN code_names n ON n.id = l.name_id
         LEFT JOIN code_file_rows fr ON fr.file_id = l.file_id LEFT JOIN code_defs d ON d.id = fr.first_def + l.def_off LEFT JOIN code_names dn ON dn.id = d.name_id ORDER BY 1, 2, 3`,
    ),
    defs: db.all('SELECT f.path, n.name, d.kind, d.start_line, d.signature FROM code_defs d JOIN code_files f ON f.id = d.file_id JOIN code_names n ON n.id = d.name_id ORDER BY 1, 2, 4'),
    parsed: db.all('SELECT path FROM code_files WHERE parsed_of = version ORDER BY path'),
  };
}

/** The constant-table keys of the index, by path. */
function macroKeys(db: Database): unknown[] {
  return db.all('SELECT f.path, k.h FROM code_macro_keys k JOIN code_files f ON f.id = k.file_id ORDER BY 1, 2');
}

/** An index of FILES built by a pass, closed; its root and code.db. */
async function built(files: Record<string, string> = FILES): Promise<{ root: string; dbFile: string }> {
  const dbFile = path.join(testDir(), 'code.db');
  const { root, index } = codeIndexOf(files, dbFile);
  await index.refresh();
  await index.close();
  return { root, dbFile };
}

/** Parses one file of the index again and writes it through `store` (staged or directly), as a pass or an on-demand parse does. */
async function writeFile(store: CodeStore, root: string, rel: string, stage: boolean): Promise<number> {
  const row = store.file(rel);
  assert.ok(row?.language, `${rel} is catalogued with a language`);
  const text = readFileSync(path.join(root, rel), 'utf8');
  const { parsed } = await parseInThread(grammars, { language: row.language as LanguageId, text, path: rel });
  const meta = { path: rel, size: row.size, mtimeMs: row.mtime_ms, hash: row.hash, language: row.language, lines: row.lines, parser: row.parser, version: row.version };
  return store.db.writeTransaction(() => store.replace(meta, parsed, [], stage));
}

describe('staged rows of a build', () => {
  it('are not seen before their merge: a stop in between leaves the files unparsed, and the next pass parses them into the same rows', async () => {
    const { root, dbFile } = await built();
    const reference = snapshot(await open(dbFile));

    const builder = new CodeStore(await open(dbFile));
    const staged = (await writeFile(builder, root, 'a.ts', true)) + (await writeFile(builder, root, 'c.py', true));
    assert.ok(staged > 0, 'references and locals were staged');
    // Another process meanwhile: the staged files count as not parsed, and none of their references or locals show.
    const reader = await open(dbFile);
    const seen = snapshot(reader);
    assert.deepEqual(seen.parsed, [{ path: 'b.ts' }]);
    assert.deepEqual(
      seen.refs.filter((r) => (r as { path: string }).path !== 'b.ts'),
      [],
    );
    assert.deepEqual(
      seen.locals.filter((r) => (r as { path: string }).path !== 'b.ts'),
      [],
    );
    reader.close();
    // The stop: the connection goes with its staged rows (they never reached the file).
    builder.db.close();

    const again = codeIndexOf({ root }, dbFile);
    await again.index.refresh();
    await again.index.close();
    assert.deepEqual(snapshot(await open(dbFile)), reference);
  });

  it('are merged in key order into the rows a direct write leaves; a file another process wrote meanwhile keeps that write, once', async () => {
    const { root, dbFile } = await built();
    const reference = snapshot(await open(dbFile));

    const builder = new CodeStore(await open(dbFile));
    for (const rel of ['a.ts', 'b.ts', 'c.py']) await writeFile(builder, root, rel, true);
    // Another process asks about b.ts: not parsed, so it parses and writes it directly.
    const other = new CodeStore(await open(dbFile));
    assert.equal(other.file('b.ts')?.parsed_of, 0);
    await writeFile(other, root, 'b.ts', false);
    other.db.close();

    // The event loop gets its turn after each range's transaction (a build's parse worker is fed meanwhile).
    const turns: string[] = [];
    const merged = await builder.mergeStaged(undefined, async () => {
      turns.push(builder.db.inTransaction ? 'inside' : 'between');
    });
    assert.deepEqual(turns, ['between', 'between'], 'one turn after the references and locals, one after the constant-table keys');
    assert.equal(merged, 2, 'a.ts and c.py; b.ts was taken by the other write');
    assert.deepEqual(snapshot(builder.db), reference);
    // Nothing left staged: a second merge takes no file.
    assert.equal(await builder.mergeStaged(), 0);
    builder.db.close();
  });

  it('of a file written again before the merge are replaced, not added twice', async () => {
    const { root, dbFile } = await built();
    const reference = snapshot(await open(dbFile));
    const builder = new CodeStore(await open(dbFile));
    await writeFile(builder, root, 'b.ts', true);
    await writeFile(builder, root, 'b.ts', true);
    assert.equal(await builder.mergeStaged(), 1);
    assert.deepEqual(snapshot(builder.db), reference);
    // Staged, then written directly by the same connection (an on-demand parse in the builder's process).
    await writeFile(builder, root, 'a.ts', true);
    await writeFile(builder, root, 'a.ts', false);
    assert.equal(await builder.mergeStaged(), 0);
    assert.deepEqual(snapshot(builder.db), reference);
    builder.db.close();
  });

  it('merged a range of names at a time: a stop between two ranges, or another write between them, leaves no half-merged file', async () => {
    const { root, dbFile } = await built();
    const reference = snapshot(await open(dbFile));
    /** A name id in the middle of the staged references: the first range takes the names below it. */
    const middle = (db: Database) => Number(db.value('SELECT name_id FROM temp.code_refs_staged ORDER BY name_id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM temp.code_refs_staged)'));

    // Another process writes b.ts between the two ranges; the builder goes on and finishes.
    let builder = new CodeStore(await open(dbFile));
    for (const rel of ['a.ts', 'b.ts', 'c.py']) await writeFile(builder, root, rel, true);
    let cut = middle(builder.db);
    await builder.db.writeTransaction(() => mergeStagedRange(builder.db, 0, cut));
    const other = new CodeStore(await open(dbFile));
    await writeFile(other, root, 'b.ts', false);
    other.db.close();
    await builder.db.writeTransaction(() => mergeStagedRange(builder.db, cut, undefined));
    assert.equal(await builder.db.writeTransaction(() => finishMerge(builder.db)), 2);
    assert.deepEqual(snapshot(builder.db), reference);
    builder.db.close();

    // The builder stops after the first range: its files stay unparsed, and the next pass parses them whole.
    builder = new CodeStore(await open(dbFile));
    for (const rel of ['a.ts', 'c.py']) await writeFile(builder, root, rel, true);
    cut = middle(builder.db);
    await builder.db.writeTransaction(() => mergeStagedRange(builder.db, 0, cut));
    const between = snapshot(builder.db);
    assert.deepEqual(between.parsed, [{ path: 'b.ts' }], 'half-merged files are not parsed yet');
    assert.ok(between.refs.length < reference.refs.length, 'the second range is still staged');
    builder.db.close();
    const again = codeIndexOf({ root }, dbFile);
    await again.index.refresh();
    await again.index.close();
    assert.deepEqual(snapshot(await open(dbFile)), reference);
  });

  it('include constant-table keys: none is seen before the merge, the merge adds them all, and a stop between two ranges of keys leaves the file to the next pass', async () => {
    const { root, dbFile } = await built({ ...FILES, 'regs.h': REGS_H });
    const reference = { ...snapshot(await open(dbFile)), keys: macroKeys(await open(dbFile)) };
    assert.equal((reference.keys as unknown[]).length, 24, 'the header made a constant table of 24 names');

    let builder = new CodeStore(await open(dbFile));
    assert.ok((await writeFile(builder, root, 'regs.h', true)) >= 24, 'its keys count among the rows staged');
    const reader = new CodeStore(await open(dbFile));
    assert.deepEqual(macroKeys(reader.db), [], 'no key of a staged file is seen');
    assert.equal(reader.file('regs.h')?.parsed_of, 0, 'the header counts as not parsed (readers parse it on demand)');
    assert.equal(await builder.mergeStaged(), 1);
    assert.deepEqual({ ...snapshot(reader.db), keys: macroKeys(reader.db) }, reference);
    assert.deepEqual(
      reader.definitionsNamed('REG_C_OFFSET').map((d) => [d.path, d.kind]),
      [['regs.h', 'macro']],
    );
    reader.db.close();
    builder.db.close();

    // Stopped after the first range of keys: the file stays unparsed, and the next pass writes it whole.
    builder = new CodeStore(await open(dbFile));
    await writeFile(builder, root, 'regs.h', true);
    const cut = Number(builder.db.value('SELECT h FROM temp.code_macro_keys_staged ORDER BY h LIMIT 1 OFFSET 12'));
    await builder.db.writeTransaction(() => mergeStagedKeys(builder.db, 0, cut));
    assert.equal((macroKeys(builder.db) as unknown[]).length, 12, 'half the keys are merged');
    assert.equal(builder.file('regs.h')?.parsed_of, 0);
    builder.db.close();
    const again = codeIndexOf({ root }, dbFile);
    await again.index.refresh();
    await again.index.close();
    const after = await open(dbFile);
    assert.deepEqual({ ...snapshot(after), keys: macroKeys(after) }, reference);
    after.close();
  });
});
