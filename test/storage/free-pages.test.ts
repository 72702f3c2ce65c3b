import assert from 'node:assert/strict';
import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../src/storage/database.ts';
import { canReturnPages, freePages, returnFreePages, switchToIncremental } from '../../src/storage/free-pages.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const MIGRATIONS = [{ version: 1, description: 'blobs', sql: 'CREATE TABLE b (id INTEGER PRIMARY KEY, data BLOB NOT NULL)' }];
/** 2 MB of rows, 64 KB each (overflow pages, as the text index's buckets are): well under the PAGES_PER_STEP (16 MB) of one step. */
const ROWS = 32;

async function filled(file: string, pragmas: readonly string[]) {
  const db = await openDatabase(runtime, file, { busyTimeoutMs: 2000, migrations: MIGRATIONS, pragmas });
  await db.writeTransaction(() => {
    for (let i = 0; i < ROWS; i++) db.run('INSERT INTO b (id, data) VALUES (?, randomblob(65536))', [i]);
  });
  return db;
}

describe('giving freed pages back to the file system', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  it('shrinks a file opened with incremental vacuum after most of its rows are deleted', async () => {
    const file = path.join(dir, 'incremental.db');
    const db = await filled(file, ['auto_vacuum=INCREMENTAL']);
    const full = statSync(file).size;
    await db.writeTransaction(() => db.run('DELETE FROM b WHERE id >= ?', [ROWS / 8]));
    assert.ok(freePages(db) > 0, 'the deleted rows left free pages');
    assert.equal(statSync(file).size, full, 'a delete alone keeps the file as big');
    let steps = 0;
    const returned = await returnFreePages(db, { renew: () => void steps++ });
    assert.ok(returned > 1);
    assert.equal(freePages(db), 0);
    assert.equal(steps, 1, `${returned} pages in one step (one write transaction), not one page per step`);
    const size = statSync(file).size;
    assert.ok(size < full / 4, `${size} bytes after, ${full} before`);
    assert.equal(db.value('SELECT count(*) FROM b'), ROWS / 8, 'the rows kept are all there');
    assert.equal(db.value('PRAGMA integrity_check'), 'ok');
    db.close();
  });

  it('switches a file made without it by one VACUUM when the file is small, and then gives pages back', async () => {
    const file = path.join(dir, 'legacy.db');
    const db = await filled(file, []);
    assert.equal(canReturnPages(db), false);
    assert.equal(await returnFreePages(db), 0, 'a file not in incremental mode gives nothing back');
    assert.equal(switchToIncremental(db, 1024), false, 'too big to rewrite, and nothing free: left as it is');
    assert.equal(canReturnPages(db), false);
    assert.equal(switchToIncremental(db, 64 * 1024 * 1024), true);
    assert.equal(canReturnPages(db), true);
    const full = statSync(file).size;
    await db.writeTransaction(() => db.run('DELETE FROM b WHERE id % 2 = 0'));
    await returnFreePages(db);
    assert.ok(statSync(file).size < full * 0.6, 'half the rows deleted, about half the file given back');
    db.close();
  });

  it('switches a big file too when a quarter or more of it is free pages (the rewrite then shrinks it)', async () => {
    const file = path.join(dir, 'legacy-free.db');
    const db = await filled(file, []);
    const full = statSync(file).size;
    await db.writeTransaction(() => db.run('DELETE FROM b WHERE id >= ?', [ROWS / 2]));
    assert.equal(switchToIncremental(db, 1024), true);
    assert.ok(statSync(file).size < full * 0.6);
    db.close();
  });
  it('opens a file already in incremental mode without writing to it (every process opens it)', async () => {
    const file = path.join(dir, 'reopened.db');
    const db = await filled(file, ['auto_vacuum=INCREMENTAL']);
    db.close();
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(file, old, old);
    const before = statSync(file);
    const again = await openDatabase(runtime, file, { busyTimeoutMs: 2000, migrations: MIGRATIONS, pragmas: ['auto_vacuum=INCREMENTAL'] });
    assert.equal(canReturnPages(again), true);
    again.close();
    const after = statSync(file);
    assert.equal(after.mtimeMs, before.mtimeMs, 'the file was not written');
    assert.equal(after.size, before.size);
  });
});
