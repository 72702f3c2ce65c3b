// Whether a catalogue is big enough for find's list (code/index-reconcile.ts holdsAtLeast): judged
// from its greatest id while that is under the size asked, counted past it — ids left by deleted
// files keep the greatest id up, never the count.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { type CatalogueEntry, catalogue } from '../../src/code/catalogue.ts';
import { syncCatalogue } from '../../src/code/catalogue-sync.ts';
import { holdsAtLeast } from '../../src/code/index-reconcile.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

async function listed(root: string): Promise<CatalogueEntry[]> {
  const entries: CatalogueEntry[] = [];
  for await (const e of catalogue(runtime.fs, { dirs: [root] }, { root, excludeDirs: [], respectGitignore: true })) entries.push(e);
  return entries;
}

describe('the catalogue size that decides between find and a stat of every file', () => {
  it('says small from the greatest id, and counts once that id is past the size asked', async () => {
    const root = fixture({ 'a.ts': 'a\n', 'b.ts': 'b\n', 'c.ts': 'c\n' });
    const data = fixture();
    dirs.push(root, data);
    const db = await openDatabase(runtime, path.join(data, 'code.db'), { busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    try {
      const store = new CodeStore(db);
      await syncCatalogue(store, await listed(root));
      assert.deepEqual([0, 1, 3, 4].map((n) => holdsAtLeast(store, n)), [true, true, true, false]);
      // Two files gone: one row left, the greatest id still 3 or more.
      rmSync(path.join(root, 'a.ts'));
      rmSync(path.join(root, 'b.ts'));
      await syncCatalogue(store, await listed(root));
      assert.equal(Number(db.value('SELECT count(*) FROM code_files')), 1);
      assert.ok(Number(db.value('SELECT max(id) FROM code_files')) >= 3);
      assert.deepEqual([1, 2, 3].map((n) => holdsAtLeast(store, n)), [true, false, false]);
    } finally {
      await db.close();
    }
  });
});
