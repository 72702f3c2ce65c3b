// Name ids from a hash of the name (code.db schema 8): two names with the same hash both get an id
// and are both found, in a fresh index and after an edit.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { NAME_PROBES, nameKey } from '../../src/code/name-key.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

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
    const root = fixture({ 'a.ts': `export function ${FIRST}() {\n  return 1;\n}\nexport function ${SECOND}() {\n  return ${FIRST}();\n}\n` });
    const data = fixture();
    dirs.push(root, data);
    const dbFile = path.join(data, 'code.db');
    const index = createCodeIndex({
      fs: runtime.fs,
      grammars: createGrammars(runtime),
      logger: { log() {}, file: undefined, close() {} },
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: ['node_modules'], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
    });
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
});
