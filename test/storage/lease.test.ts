import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { indexPath } from '../../src/kb/indexer.ts';
import { KB_MIGRATIONS } from '../../src/kb/schema.ts';
import { KnowledgeBase } from '../../src/kb/store.ts';
import { sqliteKnowledgeStore } from '../../src/kb/sqlite-store.ts';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { acquireLease } from '../../src/storage/lease.ts';
import { spawnSync } from 'node:child_process';
import { startChild } from '../helpers/db-process.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const deadPid = () => spawnSync('true').pid!;

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
    const kb = sqliteKnowledgeStore(new KnowledgeBase(kbDb, 'test'), runtime.fs);
    const workdirs = { dirs: [root] };
    const target = resolveSafe(runtime.fs, workdirs, 'docs');
    const busy = await acquireLease(kbDb, `index:${target.real}`, 60_000);
    assert.ok(busy.ok);
    const report = await indexPath(runtime.fs, kb, target, { workdirs, respectGitignore: true });
    assert.deepEqual(report.busyBy?.pid, runtime.pid);
    assert.equal(report.indexed, 0);
    await busy.lease.release();
    assert.equal((await indexPath(runtime.fs, kb, target, { workdirs, respectGitignore: true })).indexed, 1);
    await kb.close();
    removeDir(root);
  });

  /** A lease row as another process would have written it. */
  async function plantLease(name: string, row: { pid: number; start?: string; acquiredAt?: number; expiresAt: number; host?: string; boot?: string }): Promise<void> {
    const made = await acquireLease(db, name, 1); // creates the table (and the row, replaced below)
    assert.ok(made.ok);
    await db.writeTransaction(() =>
      db.run('UPDATE leases SET pid = ?, start = ?, acquired_at = ?, expires_at = ?, host = ?, boot = ? WHERE name = ?', [
        row.pid,
        row.start ?? '4242',
        row.acquiredAt ?? Date.now() - 1000,
        row.expiresAt,
        row.host ?? null,
        row.boot ?? null,
        name,
      ]),
    );
  }

  it('does not take over a lease held on another machine before it expires, though its pid is not running here', async () => {
    const pid = deadPid();
    await plantLease('index:/foreign', { pid, expiresAt: Date.now() + 60_000, host: 'host-b', boot: 'b0b0 pid:[1]' });
    const taken = await acquireLease(db, 'index:/foreign', 60_000);
    assert.ok(!taken.ok, 'held');
    assert.deepEqual({ pid: taken.holder.pid, host: taken.holder.host }, { pid, host: 'host-b' });
    await db.writeTransaction(() => db.run('UPDATE leases SET expires_at = ? WHERE name = ?', [Date.now() - 1, 'index:/foreign']));
    assert.ok((await acquireLease(db, 'index:/foreign', 60_000)).ok, 'taken over once it expired');
  });

  it('takes over at once a lease taken in an earlier boot of this machine', async () => {
    const here = runtime.bootIdentity()!;
    const bootedAt = Date.now() - runtime.ticksSinceBoot()! * 10;
    const boot = ['0dd0dd00-0000-4000-8000-000000000000', ...here.boot.split(' ').slice(1)].join(' ');
    // This process's pid and start time: judged by pid, the holder would look alive.
    await plantLease('index:/rebooted', { pid: process.pid, start: runtime.processStartTime(process.pid)!, acquiredAt: bootedAt - 60_000, expiresAt: Date.now() + 60_000, host: here.host, boot });
    assert.ok((await acquireLease(db, 'index:/rebooted', 60_000)).ok);
  });

  it('adds the host columns to a leases table an older ctxgate made, and judges its rows by pid as before', async () => {
    const old = await openDatabase(runtime, path.join(dir, 'old-leases.db'), { busyTimeoutMs: 30_000, migrations: MIGRATIONS });
    old.exec('CREATE TABLE leases (name TEXT PRIMARY KEY, pid INTEGER NOT NULL, start TEXT NOT NULL, token TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)');
    const later = Date.now() + 60_000;
    old.run('INSERT INTO leases VALUES (?, ?, ?, ?, ?, ?)', ['live', process.pid, runtime.processStartTime(process.pid)!, 'x', Date.now(), later]);
    old.run('INSERT INTO leases VALUES (?, ?, ?, ?, ?, ?)', ['dead', deadPid(), '4242', 'y', Date.now(), later]);
    const live = await acquireLease(old, 'live', 60_000);
    assert.ok(!live.ok && live.holder.host === undefined, 'a live holder of this machine keeps it');
    assert.ok((await acquireLease(old, 'dead', 60_000)).ok, "a dead holder's is taken over");
    assert.deepEqual(
      old.all<{ name: string }>('PRAGMA table_info(leases)').map((c) => c.name),
      ['name', 'pid', 'start', 'token', 'acquired_at', 'expires_at', 'host', 'boot'],
    );
    old.close();
  });
});
