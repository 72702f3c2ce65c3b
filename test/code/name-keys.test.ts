import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { findDefinitions } from '../../src/code/graph.ts';
import { nameHash } from '../../src/code/row-formats.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import { FOLD_KEYS, foldNameKeys } from '../../src/code/store-names.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { runtime } from '../helpers/env.ts';
import { rebuiltIndex, testDir } from '../helpers/code-index.ts';

const keysIn = (store: CodeStore, table: string) => Number(store.db.value(`SELECT count(*) FROM ${table}`));

describe("names found by their keys: new ones apart, folded in batches (store-names.ts)", () => {
  it('finds a name whether its key waits among the new ones or has been folded, adds no name twice, and folds in key order', async () => {
    const root = testDir({ 'a.c': 'int alpha(int count) { return beta(count); }\n', 'b.c': 'int beta(int count) { return count + 1; }\n' });
    const { index, store } = await rebuiltIndex(root, path.join(testDir(), 'code.db'));
    const names = Number(store.db.value('SELECT count(*) FROM code_names'));
    // A small build: every key still waits, none folded (FOLD_KEYS are far more).
    assert.equal(keysIn(store, 'code_name_keys_new'), names);
    assert.equal(keysIn(store, 'code_name_keys'), 0);
    assert.deepEqual((await findDefinitions(index, 'beta'))?.map((d) => [d.file, d.line]), [['b.c', 1]], 'found among the new keys');
    assert.equal(foldNameKeys(store.db, names + 1), 0, 'fewer than asked for: nothing folded');
    assert.equal(foldNameKeys(store.db, 1), names);
    assert.equal(keysIn(store, 'code_name_keys_new'), 0);
    assert.deepEqual(
      store.db.all('SELECT k.h, n.name FROM code_name_keys k JOIN code_names n ON n.id = k.id').map((r) => (r as { h: number; name: string }).h),
      [...store.db.all('SELECT name FROM code_names').map((r) => nameHash((r as { name: string }).name))].sort((x, y) => x - y),
      'every name keyed by its hash, in key order',
    );
    assert.deepEqual((await findDefinitions(index, 'beta'))?.map((d) => [d.file, d.line]), [['b.c', 1]], 'found among the folded keys');
    // An edit that names a folded name (beta) and a new one (gamma): only gamma is added, its key new.
    writeFileSync(path.join(root, 'a.c'), 'int alpha(int count) { return beta(count) + gamma(count); }\nint gamma(int v) { return v; }\n');
    await index.refresh();
    assert.deepEqual(store.db.all("SELECT name FROM code_names WHERE name IN ('beta', 'gamma', 'v') ORDER BY name").map((r) => (r as { name: string }).name), ['beta', 'gamma', 'v']);
    assert.equal(Number(store.db.value("SELECT count(*) FROM code_names WHERE name = 'beta'")), 1, 'a folded name is not added again');
    assert.equal(keysIn(store, 'code_name_keys_new'), 2, "gamma's and v's keys wait; the folded keys are untouched");
    assert.equal(keysIn(store, 'code_name_keys'), names);
    assert.deepEqual(store.callSitesOf('gamma').map((c) => [c.path, c.n]), [['a.c', 1]]);
    // A second edit naming gamma (still new) again: still one gamma.
    writeFileSync(path.join(root, 'b.c'), 'int beta(int count) { return gamma(count + 1); }\n');
    await index.refresh();
    assert.equal(Number(store.db.value("SELECT count(*) FROM code_names WHERE name = 'gamma'")), 1, 'a name whose key waits is not added again');
    assert.deepEqual(store.callSitesOf('gamma').map((c) => c.path).sort(), ['a.c', 'b.c']);
    assert.ok(FOLD_KEYS >= 10_000, 'a build folds now and then, not per batch');
  });

  it("sweeps an unused name's key from either table, and another process finds what one wrote", async () => {
    const root = testDir({ 'a.c': 'int keep_me(int v) { return v; }\nint old_name(int gone_param) { return gone_call(gone_param) + keep_me(1); }\n', 'b.c': 'int other(void) { return keep_me(2); }\n' });
    const dbFile = path.join(testDir(), 'code.db');
    const { index, store } = await rebuiltIndex(root, dbFile);
    // Half the keys folded, half waiting: gone_call's folded, gone_param's new.
    const id = (name: string) => Number(store.db.value('SELECT id FROM code_names WHERE name = ?', [name]));
    store.db.transaction(() => {
      store.db.run('DELETE FROM code_name_keys_new WHERE id IN (?, ?, ?)', [id('gone_call'), id('keep_me'), id('old_name')]);
      store.db.run('INSERT INTO code_name_keys (h, id) VALUES (?, ?), (?, ?), (?, ?)', [nameHash('gone_call'), id('gone_call'), nameHash('keep_me'), id('keep_me'), nameHash('old_name'), id('old_name')]);
    });
    // Another connection (another process's view of the same file) finds names in both tables.
    const other = new CodeStore(await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }));
    try {
      assert.deepEqual(other.definitionsNamed('keep_me').map((d) => d.path), ['a.c'], 'folded');
      assert.deepEqual(other.definitionsNamed('other').map((d) => d.path), ['b.c'], 'new');
      assert.deepEqual(other.localsNamed('gone_param').map((l) => l.path), ['a.c']);
    } finally {
      other.db.close();
    }
    writeFileSync(path.join(root, 'a.c'), 'int keep_me(int v) { return v; }\n');
    await index.refresh();
    const keyed = () => store.db.all('SELECT n.name FROM (SELECT id FROM code_name_keys UNION ALL SELECT id FROM code_name_keys_new) k JOIN code_names n ON n.id = k.id ORDER BY n.name').map((r) => (r as { name: string }).name);
    assert.deepEqual(keyed(), ['keep_me', 'other', 'v'], 'gone_call, gone_param and old_name swept with their keys, folded or not');
    assert.equal(keysIn(store, 'code_name_keys') + keysIn(store, 'code_name_keys_new'), Number(store.db.value('SELECT count(*) FROM code_names')), 'no key without its name');
    unlinkSync(path.join(root, 'b.c'));
    await index.refresh();
    assert.deepEqual(keyed(), ['keep_me', 'v']);
    assert.deepEqual((await findDefinitions(index, 'keep_me'))?.map((d) => [d.file, d.line]), [['a.c', 1]]);
  });
});
