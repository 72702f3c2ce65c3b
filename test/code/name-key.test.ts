// Name ids from a hash of the name (code.db schema 8): two names with the same hash both get an id
// and are both found, in a fresh index and after an edit.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { searchBlocks } from '../../src/code/graph.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, createCodeIndex } from '../../src/code/index.ts';
import { NAME_PROBES, nameKey } from '../../src/code/name-key.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

function indexOf(files: Record<string, string>, dbFile?: string): { root: string; index: CodeIndex; dbFile: string; events: string[] } {
  const root = fixture(files);
  const data = fixture();
  dirs.push(root, data);
  const file = dbFile ?? path.join(data, 'code.db');
  const events: string[] = [];
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars: createGrammars(runtime),
    logger: { log: (event, fields) => events.push(`${event} ${JSON.stringify(fields ?? {})}`), file: undefined, close() {} },
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, file, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
  });
  return { root, index, dbFile: file, events };
}

// Found by a birthday search over `name${i.toString(36)}`.
const [FIRST, SECOND] = ['name23zx', 'namedpad'];

describe('name ids', () => {
  it('are spread from FNV-1a over 31 bits, leaving room to probe', () => {
    assert.equal(nameKey(FIRST), nameKey(SECOND), 'the two names share a hash');
    assert.notEqual(nameKey('alpha'), nameKey('beta'));
    for (const name of ['', 'a', 'kmalloc_array', 'é', '\u{1F600}', 'x'.repeat(5000)]) {
      const key = nameKey(name);
      assert.ok(Number.isInteger(key) && key >= 0 && key + NAME_PROBES <= 2 ** 31, `${name.slice(0, 10)} → ${key}`);
    }
  });

  it('give two names with one hash an id each: both are found, in a fresh index and after an edit', async () => {
    const { root, index } = indexOf({ 'a.ts': `export function ${FIRST}() {\n  return 1;\n}\nexport function ${SECOND}() {\n  return ${FIRST}();\n}\n` });
    await index.refresh();
    const store = await index.ready();
    assert.ok(store, 'the index is built');
    const ids = (store.db.all('SELECT id, name FROM code_names WHERE name IN (?, ?) ORDER BY id', [FIRST, SECOND]) as { id: number; name: string }[]).map((r) => [r.name, r.id]);
    assert.deepEqual(ids, [[FIRST, nameKey(FIRST)], [SECOND, nameKey(FIRST) + 1]], 'the second takes the next id');
    const found = () => [FIRST, SECOND].map((n) => store.definitionsNamed(n).map((d) => [d.name, d.name_line, d.signature]));
    assert.deepEqual(found(), [[[FIRST, 1, `function ${FIRST}()`]], [[SECOND, 4, `function ${SECOND}()`]]]);
    assert.deepEqual(store.referencesNamed(FIRST, ['call']).map((r) => [r.line, r.def_name]), [[5, SECOND]]);
    assert.deepEqual(store.referencesNamed(SECOND, ['call']), []);
    writeFileSync(path.join(root, 'a.ts'), `export function ${SECOND}() {\n  return ${FIRST}() + ${FIRST}();\n}\nexport function ${FIRST}() {\n  return 2;\n}\n`);
    await index.refresh();
    assert.deepEqual(found(), [[[FIRST, 4, `function ${FIRST}()`]], [[SECOND, 1, `function ${SECOND}()`]]]);
    assert.deepEqual(store.referencesNamed(FIRST, ['call']).map((r) => [r.line, r.n, r.def_name]), [[2, 2, SECOND]]);
    await index.close();
  });

  it('upgrade a code index of schema 7: every file parsed again into hashed ids, no index of names left, the freed pages given back, blocks still ranked', async () => {
    const files = { 'src/retry.ts': '/** Retry the request until the count is reached. */\nexport function retryCount(limit: number) {\n  return limit;\n}\nexport function drain(queue: string[]) {\n  return queue.length;\n}\n' };
    const first = indexOf(files);
    await first.index.refresh();
    await first.index.close();
    // What schema 7 left: names numbered in order, with an index by name.
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    db.exec('DROP TABLE code_names; CREATE TABLE code_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE); INSERT INTO code_names (name) VALUES (\'retryCount\'), (\'drain\'); PRAGMA user_version=7;');
    db.close();
    const again = indexOf(files, first.dbFile);
    await again.index.refresh();
    const store = await again.index.ready();
    assert.ok(store, 'the index is built');
    assert.equal(store.db.value('PRAGMA user_version'), 8);
    assert.equal(store.db.value("SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'code_names' AND type = 'index'"), 0, 'no index of names');
    assert.equal(store.db.value("SELECT id FROM code_names WHERE name = 'retryCount'"), nameKey('retryCount'));
    assert.ok(again.events.some((e) => e.startsWith('code_index_done') && e.includes('"parsed":1')), 'its file parsed again');
    assert.deepEqual(store.definitionsNamed('retryCount').map((d) => [d.path, d.name_line]), [['src/retry.ts', 2]]);
    assert.equal(store.db.value('PRAGMA freelist_count'), 0, 'no free pages kept in the file');
    const blocks = store.searchBlocks('"retry" OR "count"', 5);
    assert.ok(blocks.length > 0 && blocks.every((b) => b.rank < 0), 'BM25 ranks the blocks (it gives 0 without word positions)');
    assert.deepEqual((await searchBlocks(again.index, 'retry the request', () => true, 5))?.hits.map((h) => h.name), ['retryCount']);
    await again.index.close();
  });
});
