import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Runtime } from '../../src/runtime/types.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { DatabaseLock, LockLevel, lockDirOf } from '../../src/storage/database-lock.ts';
import { connectionElsewhere } from '../../src/storage/foreign-machine.ts';
import { FOREIGN_EXPIRY_MS } from '../../src/storage/lock-host.ts';
import { ownerForConnection } from '../../src/storage/lock-owner.ts';
import { isStorageError } from '../../src/storage/storage-error.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];
const here = runtime.bootIdentity()!;
const [bootId] = here.boot.split(' ');
const OTHER_KERNEL = 'b0b0b0b0-0000-4000-8000-000000000000 pid:[4026531836]';
/** A runtime that says it runs on another machine, host-b (its pid is still this process's). */
const onHostB: Runtime = { ...runtime, bootIdentity: () => ({ host: 'host-b', boot: OTHER_KERNEL }) };
const deadPid = () => spawnSync('true').pid!;
const bootedAt = () => Date.now() - runtime.ticksSinceBoot()! * 10;

/** A user marker (and optionally the `reserved` lock) as a connection elsewhere leaves them. */
function plantUser(locks: string, user: { host: string; boot: string; beatAt: number; holdsReserved?: boolean }): number {
  const pid = deadPid();
  mkdirSync(locks, { recursive: true });
  symlinkSync(`${Date.now() - 60_000} node ${user.beatAt} ${user.host} ${user.boot}`, path.join(locks, `u.${pid}.4242.77`));
  if (user.holdsReserved) symlinkSync(`${pid} 4242 77`, path.join(locks, 'reserved'));
  return pid;
}

describe('a SQLite data folder in use on another machine', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  const open = (file: string) => openDatabase(runtime, file, { busyTimeoutMs: 300, migrations: MIGRATIONS });

  it('is refused at open with a message naming the other machine and pointing to the Postgres backend', async () => {
    const file = path.join(dir, 'shared.db');
    const first = await openDatabase(onHostB, file, { busyTimeoutMs: 300, migrations: MIGRATIONS });
    try {
      const refused = await open(file).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(isStorageError(refused), `refused with a StorageError, got ${String(refused)}`);
      assert.equal(refused.reason, 'elsewhere');
      assert.match(refused.message, new RegExp(`data folder ${dir} is in use by ctxgate on another machine, host-b \\(pid ${process.pid} there`));
      assert.match(refused.hint ?? '', /storage\.backend: "postgres"/);
      assert.match(refused.hint ?? '', /README "Team endpoint"/);
      first.run("INSERT INTO t (body) VALUES ('host-b goes on writing')");
      assert.equal(first.value('SELECT count(*) FROM t'), 1);
    } finally {
      first.close();
    }
    const later = await open(file);
    assert.equal(later.value('SELECT count(*) FROM t'), 1, 'once host-b has closed it, this machine opens it');
    later.close();
  });

  it('is refused before anything is written: a new database file is not even created', async () => {
    const file = path.join(dir, 'never.db');
    const pid = plantUser(lockDirOf(file), { host: 'host-b', boot: OTHER_KERNEL, beatAt: Date.now() });
    await assert.rejects(open(file), new RegExp(`on another machine, host-b \\(pid ${pid} there, last heartbeat \\d+ s ago\\)`));
    assert.equal(existsSync(file), false);
  });

  it('is taken over as before once that machine has stopped beating for longer than the expiry', async () => {
    const file = path.join(dir, 'stale.db');
    plantUser(lockDirOf(file), { host: 'host-b', boot: OTHER_KERNEL, beatAt: Date.now() - FOREIGN_EXPIRY_MS - 1000, holdsReserved: true });
    const db = await open(file);
    await db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('the stale lock was broken')"));
    assert.equal(db.value('SELECT count(*) FROM t'), 1);
    db.close();
  });

  it('is not refused for a container on this machine (same kernel, another pid namespace): they share one disk', async () => {
    const file = path.join(dir, 'container.db');
    plantUser(lockDirOf(file), { host: 'a-container', boot: `${bootId} pid:[1]`, beatAt: Date.now() });
    const db = await open(file);
    db.close();
  });

  it('is not refused for a connection of an earlier boot of this machine', async () => {
    const file = path.join(dir, 'earlier.db');
    plantUser(lockDirOf(file), { host: here.host, boot: `0dd0dd00-0000-4000-8000-000000000000 pid:[1]`, beatAt: bootedAt() - 60_000 });
    const db = await open(file);
    db.close();
  });

  it('says nothing about the lock folder of a database only this machine uses, and leaves no probe behind', () => {
    const file = path.join(dir, 'local.db');
    const lock = new DatabaseLock(runtime, file, ownerForConnection(runtime));
    lock.open();
    assert.equal(lock.lock(LockLevel.Shared), true);
    plantUser(lockDirOf(file), { host: 'host-c', boot: OTHER_KERNEL, beatAt: Date.now() - FOREIGN_EXPIRY_MS - 1000 });
    assert.equal(connectionElsewhere(runtime, lockDirOf(file)), undefined);
    assert.deepEqual(
      readdirSync(lockDirOf(file)).filter((n) => n.startsWith('c.')),
      [],
    );
    lock.close();
  });
});
