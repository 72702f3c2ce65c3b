// Transactions when the disk fills up (issue 11, item 7): a runtime whose file writes fail with
// ENOSPC on demand stands in for a full disk, so this runs anywhere.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Runtime, SyncFiles } from '../../src/runtime/types.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { isStorageError } from '../../src/storage/storage-error.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

interface Disk {
  runtime: Runtime;
  /** Writes to files whose path ends with this fail with ENOSPC; undefined: the disk has room. */
  fullFor: string | undefined;
}

function fillableDisk(base: Runtime): Disk {
  const paths = new Map<number, string>();
  const disk: Disk = { runtime: base, fullFor: undefined };
  const files: SyncFiles = {
    ...base.fs.files,
    open(p, flags, mode) {
      const fd = base.fs.files.open(p, flags, mode);
      paths.set(fd, p);
      return fd;
    },
    write(fd, from, position) {
      if (disk.fullFor !== undefined && paths.get(fd)?.endsWith(disk.fullFor)) {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return base.fs.files.write(fd, from, position);
    },
  };
  disk.runtime = { ...base, fs: { ...base.fs, files } };
  return disk;
}

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];
const rows = (db: Database) => db.value('SELECT count(*) FROM t');
const insertMany = (db: Database, n: number, tag: string) => {
  for (let i = 0; i < n; i++) db.run('INSERT INTO t (body) VALUES (?)', [`${tag} ${i} ${'x'.repeat(2000)}`]);
};

describe('transactions when the disk is full', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  it('answers "disk full" when COMMIT cannot write the database file, keeps the database intact, and works again once there is room', async () => {
    const disk = fillableDisk(runtime);
    const db = await openDatabase(disk.runtime, path.join(dir, 'commit.db'), { busyTimeoutMs: 1000, migrations: MIGRATIONS });
    db.transaction(() => insertMany(db, 10, 'kept'));
    disk.fullFor = 'commit.db';
    const failure = (() => {
      try {
        db.transaction(() => db.transaction(() => insertMany(db, 200, 'lost')));
      } catch (error) {
        return error;
      }
    })();
    assert.ok(isStorageError(failure), `a StorageError, not ${failure}`);
    assert.equal(failure.reason, 'full');
    assert.match(failure.message, /disk full/);
    assert.doesNotMatch(failure.message, /savepoint|syntax error/);
    disk.fullFor = undefined;
    assert.equal(db.inTransaction, false);
    assert.equal(rows(db), 10, 'nothing of the failed transaction, everything before it');
    db.transaction(() => db.transaction(() => insertMany(db, 5, 'after')));
    await db.writeTransaction(() => insertMany(db, 5, 'after async'));
    assert.equal(rows(db), 20);
    assert.equal(db.value('PRAGMA integrity_check'), 'ok');
    db.close();
  });

  it('answers "disk full" when the journal cannot be written inside a nested savepoint, and the next transactions work', async () => {
    const disk = fillableDisk(runtime);
    const db = await openDatabase(disk.runtime, path.join(dir, 'journal.db'), { busyTimeoutMs: 1000, migrations: MIGRATIONS });
    db.transaction(() => insertMany(db, 10, 'kept'));
    disk.fullFor = 'journal.db-journal';
    assert.throws(
      () =>
        db.transaction(() => {
          db.transaction(() => db.run('UPDATE t SET body = body || ?', ['changed']));
        }),
      (error: unknown) => isStorageError(error) && error.reason === 'full' && !/savepoint/.test(error.message),
    );
    disk.fullFor = undefined;
    assert.equal(db.inTransaction, false);
    assert.equal(db.value("SELECT count(*) FROM t WHERE body LIKE '%changed'"), 0);
    db.transaction(() => db.transaction(() => insertMany(db, 3, 'after')));
    assert.equal(rows(db), 13);
    assert.equal(db.value('PRAGMA integrity_check'), 'ok');
    db.close();
  });
});
