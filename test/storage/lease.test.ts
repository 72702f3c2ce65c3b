import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { indexPath } from '../../src/kb/indexer.ts';
import { KB_MIGRATIONS } from '../../src/kb/schema.ts';
import { KnowledgeBase } from '../../src/kb/store.ts';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { acquireLease } from '../../src/storage/lease.ts';
import { startChild } from '../helpers/db-process.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];

describe('leases in the database', () => {
  let dir: string;
  let db: Database;
  before(async () => {
    dir = fixture();
    db = await openDatabase(runtime, path.join(dir, 'lease.db'), { busyTimeoutMs: 30_000, migrations: MIGRATIONS });
  });
  after(() => {
    db.close();
    removeDir(dir);
  });

  it('gives a lease to one holder at a time, and to the next once it is released', async () => {
    const first = await acquireLease(db, 'index:/a', 60_000);
    assert.ok(first.ok);
    const second = await acquireLease(db, 'index:/a', 60_000);
    assert.ok(!second.ok, 'held');
    assert.equal(second.holder.pid, runtime.pid);
    assert.ok((await acquireLease(db, 'index:/b', 60_000)).ok, 'another name is free');
    await first.lease.release();
    assert.ok((await acquireLease(db, 'index:/a', 60_000)).ok);
  });

  it('takes over a lease nobody renewed in time, and the old holder learns it lost it', async () => {
    const stale = await acquireLease(db, 'expiring', 0);
    assert.ok(stale.ok);
    const next = await acquireLease(db, 'expiring', 60_000);
    assert.ok(next.ok, 'an expired lease is free');
    assert.equal(stale.lease.renew(), false);
    assert.equal(next.lease.renew(), true);
  });

  it('names a live holder in another process, and takes over the lease once that process is killed', async () => {
    const file = path.join(dir, 'lease.db');
    const holder = startChild('other', 'lease', file, 'index:/shared');
    await holder.waitFor('leased');
    const taken = await acquireLease(db, 'index:/shared', 60_000);
    assert.ok(!taken.ok);
    assert.equal(taken.holder.pid, holder.proc.pid);
    holder.proc.kill('SIGKILL');
    await holder.exited;
    assert.ok((await acquireLease(db, 'index:/shared', 60_000)).ok, "a dead holder's lease is taken over");
  });

  it('indexes a folder in one process at a time: a second call meanwhile is told who is doing it', async () => {
    const root = fixture({ 'docs/a.md': '# A\n\nalpha\n' });
    const kbDb = await openDatabase(runtime, path.join(dir, 'kb.db'), { busyTimeoutMs: 30_000, migrations: KB_MIGRATIONS });
    const kb = new KnowledgeBase(kbDb, 'test');
    const workdirs = { dirs: [root] };
    const target = resolveSafe(runtime.fs, workdirs, 'docs');
    const busy = await acquireLease(kbDb, `index:${target.real}`, 60_000);
    assert.ok(busy.ok);
    const report = await indexPath(runtime.fs, kb, target, { workdirs, respectGitignore: true });
    assert.deepEqual(report.busyBy?.pid, runtime.pid);
    assert.equal(report.indexed, 0);
    await busy.lease.release();
    assert.equal((await indexPath(runtime.fs, kb, target, { workdirs, respectGitignore: true })).indexed, 1);
    kb.close();
    removeDir(root);
  });
});
