import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Logger } from '../../src/logging/logger.ts';
import type { Runtime } from '../../src/runtime/types.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { DatabaseLock, LockLevel, lockDirOf } from '../../src/storage/database-lock.ts';
import { databaseUse } from '../../src/storage/database-users.ts';
import { FOREIGN_EXPIRY_MS, HEARTBEAT_MS } from '../../src/storage/lock-host.ts';
import { parseUser } from '../../src/storage/lock-judge.ts';
import { ownerForConnection } from '../../src/storage/lock-owner.ts';
import { child, startChildUnder } from '../helpers/db-process.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];
const deadPid = () => spawnSync('true').pid!;
const here = runtime.bootIdentity()!;
/** This machine's boot id and pid namespace, separately. */
const [bootId, ...ns] = here.boot.split(' ');
/** A runtime that says it runs on another machine (its pid is still this process's). */
const onHostB: Runtime = { ...runtime, bootIdentity: () => ({ host: 'host-b', boot: 'b0b0b0b0-0000-4000-8000-000000000000 pid:[4026531836]' }) };
/** A real second pid namespace (a container's view of processes), where user namespaces allow one. */
const NEW_PID_NAMESPACE = ['unshare', '--user', '--map-root-user', '--pid', '--fork', '--mount-proc', '--kill-child', '--'];
const namespacesWork = spawnSync(NEW_PID_NAMESPACE[0]!, [...NEW_PID_NAMESPACE.slice(1), 'true']).status === 0;
const bootedAt = () => Date.now() - runtime.ticksSinceBoot()! * 10;

function events(): Logger & { seen: { event: string; fields: Record<string, unknown> }[] } {
  const seen: { event: string; fields: Record<string, unknown> }[] = [];
  return { seen, file: undefined, close() {}, log: (event, fields = {}) => void seen.push({ event, fields }) };
}

/** Writes a lock link and its owner's user marker by hand, as a process elsewhere would have. */
function plantOwner(dir: string, entry: 'reserved' | 'pending' | 'reader', owner: { pid: number; host?: string; boot?: string; beatAt?: number }): void {
  const start = '4242';
  const conn = 77;
  mkdirSync(dir, { recursive: true });
  if (entry === 'reader') symlinkSync('.', path.join(dir, `s.${owner.pid}.${start}.${conn}`));
  else symlinkSync(`${owner.pid} ${start} ${conn}`, path.join(dir, entry));
  const opened = Date.now() - 60_000;
  const user = owner.host ? `${opened} node ${owner.beatAt ?? Date.now()} ${owner.host} ${owner.boot}` : `${opened} node`;
  symlinkSync(user, path.join(dir, `u.${owner.pid}.${start}.${conn}`));
}

describe('locks and leases of processes on other machines sharing the data folder', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  const newDb = async (name: string, logger?: Logger) => {
    const file = path.join(dir, `${name}.db`);
    const db = await openDatabase(runtime, file, { busyTimeoutMs: 300, migrations: MIGRATIONS, ...(logger ? { logger } : {}) });
    return { file, db, locks: lockDirOf(file) };
  };

  it('honours a lock whose owner is a live process on this machine, even when its heartbeat is old', async () => {
    const { db, locks } = await newDb('live-local');
    const owner = spawn('sleep', ['60']);
    const pid = owner.pid!;
    const start = runtime.processStartTime(pid);
    symlinkSync(`${pid} ${start} 99`, path.join(locks, 'reserved'));
    symlinkSync(`${Date.now()} node ${Date.now() - FOREIGN_EXPIRY_MS * 2} ${here.host} ${here.boot}`, path.join(locks, `u.${pid}.${start}.99`));
    await assert.rejects(db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')")), new RegExp(`stayed busy .*: pid ${pid} \\(writing`));
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    await db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('once the owner died, its lock is broken')"));
    db.close();
  });

  it('honours the lock of a writer on another machine although its pid is not running here, and names that machine', async () => {
    const { db, locks } = await newDb('foreign');
    const pid = deadPid();
    plantOwner(locks, 'reserved', { pid, host: 'host-b', boot: 'b0b0 pid:[1]' });
    await assert.rejects(
      db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')")),
      new RegExp(`stayed busy .*: pid ${pid} on host-b \\(writing`),
    );
    assert.equal(databaseUse(runtime, db.file).users.find((u) => u.pid === pid)?.host, 'host-b', 'doctor names the machine');
    assert.ok(lstatSync(path.join(locks, 'reserved')).isSymbolicLink(), 'the lock is left alone');
    db.close();
  });

  it('keeps a writer from overrunning a reader on another machine', async () => {
    const { file, locks } = await newDb('foreign-reader');
    plantOwner(locks, 'reader', { pid: deadPid(), host: 'host-b', boot: 'b0b0 pid:[1]' });
    const lock = new DatabaseLock(runtime, file, ownerForConnection(runtime));
    lock.open();
    assert.equal(lock.lock(LockLevel.Reserved), true, 'the journal may be filled meanwhile');
    assert.equal(lock.lock(LockLevel.Exclusive), false, 'but the database file is not written under a live reader');
    lock.close();
    assert.equal(readdirSync(locks).filter((n) => n.startsWith('s.')).length, 1, "the reader's marker stays");
  });

  it('breaks a lock of another machine that has not beaten for longer than the expiry, with a warning in the log', async () => {
    const log = events();
    const { db, locks } = await newDb('foreign-expired', log);
    const pid = deadPid();
    plantOwner(locks, 'reserved', { pid, host: 'host-b', boot: 'b0b0 pid:[1]', beatAt: Date.now() - FOREIGN_EXPIRY_MS - 1000 });
    await db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')"));
    assert.equal(db.value('SELECT count(*) FROM t'), 1);
    const warned = log.seen.find((e) => e.event === 'storage_lock_expired');
    assert.ok(warned, JSON.stringify(log.seen));
    assert.deepEqual({ pid: warned.fields.pid, host: warned.fields.host, level: warned.fields.level }, { pid, host: 'host-b', level: 'warn' });
    assert.ok(Number(warned.fields.silent_s) >= FOREIGN_EXPIRY_MS / 1000);
    db.close();
  });

  it('breaks at once a lock from an earlier boot of this machine', async () => {
    const { db, locks } = await newDb('earlier-boot');
    plantOwner(locks, 'reserved', { pid: deadPid(), host: here.host, boot: ['0dd0dd00-0000-4000-8000-000000000000', ...ns].join(' '), beatAt: bootedAt() - 60_000 });
    plantOwner(locks, 'reader', { pid: deadPid(), host: here.host, boot: ['0dd0dd00-0000-4000-8000-000000000000', ...ns].join(' '), beatAt: bootedAt() - 60_000 });
    await db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')"));
    db.close();
    databaseUse(runtime, db.file);
    assert.deepEqual(readdirSync(locks), [], 'its locks and markers are gone');
  });

  it('honours a lock naming this host name and another boot that beat after this machine booted (another machine of the same name)', async () => {
    const { db, locks } = await newDb('same-name');
    plantOwner(locks, 'reserved', { pid: deadPid(), host: here.host, boot: `0dd0dd00-0000-4000-8000-000000000000 ${ns.join(' ')}`, beatAt: Date.now() });
    await assert.rejects(db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')")), /stayed busy/);
    db.close();
  });

  it('honours a lock of another pid namespace on this machine (a container) by its heartbeat, not by pid', async () => {
    const { db, locks } = await newDb('container');
    // pid 1 is running here (this machine's init), but not as the process that took the lock.
    plantOwner(locks, 'pending', { pid: 1, host: here.host, boot: `${bootId} pid:[1]`, beatAt: Date.now() });
    await assert.rejects(db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')")), /stayed busy/);
    db.close();
  });

  it('still judges lock links and user markers of an older ctxgate by pid', async () => {
    const { db, locks } = await newDb('old-format');
    plantOwner(locks, 'reserved', { pid: deadPid() });
    await db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('dead owner: broken')"));
    symlinkSync(`${process.pid} ${runtime.processStartTime(process.pid)} 5`, path.join(locks, 'reserved'));
    await assert.rejects(db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('x')")), /stayed busy/, 'a live owner is honoured');
    unlinkSync(path.join(locks, 'reserved'));
    db.close();
  });

  it('writes lock links an older ctxgate reads, and says where it runs in its user marker', () => {
    const file = path.join(dir, 'format.db');
    const lock = new DatabaseLock(runtime, file, ownerForConnection(runtime));
    lock.open();
    assert.equal(lock.lock(LockLevel.Reserved), true);
    const locks = lockDirOf(file);
    // The pattern an older ctxgate parses lock links with.
    assert.match(readlinkSync(path.join(locks, 'reserved')), /^(\d+) (\d+|unknown)(?: (\d+))?\n?$/);
    const user = readdirSync(locks).find((n) => n.startsWith('u.'))!;
    assert.match(user, /^([su])\.(\d+)\.(\d+|unknown)\.(\d+)$/);
    assert.deepEqual(parseUser(readlinkSync(path.join(locks, user))).identity, here);
    lock.close();
  });

  it('refreshes its heartbeat while it holds a lock, and stops writing once a stall cost it the lock', () => {
    const file = path.join(dir, 'stall.db');
    let now = Date.now();
    const log = events();
    const stalled = new DatabaseLock(onHostB, file, ownerForConnection(onHostB), { clock: () => now, logger: log });
    stalled.open();
    assert.equal(stalled.lock(LockLevel.Reserved), true);
    const userMarker = path.join(lockDirOf(file), `u.${stalled.me.pid}.${stalled.me.startTime}.${stalled.me.conn}`);
    const written = () => lstatSync(userMarker).ino;
    const first = written();
    now += HEARTBEAT_MS / 2;
    assert.equal(stalled.mayWrite(), true);
    assert.equal(written(), first, 'no beat before it is due');
    now += HEARTBEAT_MS / 2;
    assert.equal(stalled.mayWrite(), true);
    assert.notEqual(written(), first, 'the marker was written anew');
    // Then host B's process stalls: its last beat grows older than the expiry, and this machine takes over.
    const record = readlinkSync(userMarker).split(' ');
    record[2] = String(Date.now() - FOREIGN_EXPIRY_MS - 1000);
    unlinkSync(userMarker);
    symlinkSync(record.join(' '), userMarker);
    const other = new DatabaseLock(runtime, file, ownerForConnection(runtime));
    other.open();
    assert.equal(other.lock(LockLevel.Reserved), true, "the stalled machine's lock is broken");
    // When it wakes, its first write finds out.
    now += FOREIGN_EXPIRY_MS;
    assert.equal(stalled.mayWrite(), false, 'the stalled holder writes nothing more');
    assert.ok(log.seen.some((e) => e.event === 'storage_lock_lost'));
    assert.throws(() => stalled.lock(LockLevel.Exclusive), /broken while this process stalled/);
    stalled.unlock(LockLevel.None);
    assert.equal(stalled.lock(LockLevel.Shared), true, 'the next transaction starts afresh');
    other.close();
    stalled.close();
  });

  it('agrees on the age of a beat with machines whose clocks are hours off: beats are on the file system clock', () => {
    const file = path.join(dir, 'skew.db');
    const hours = 3 * 3600_000;
    const behind = new DatabaseLock(onHostB, file, ownerForConnection(onHostB), { clock: () => Date.now() - hours });
    behind.open();
    assert.equal(behind.lock(LockLevel.Reserved), true);
    const ahead = new DatabaseLock(runtime, file, ownerForConnection(runtime), { clock: () => Date.now() + hours });
    ahead.open();
    assert.equal(ahead.lock(LockLevel.Reserved), false, 'a beating holder keeps its lock, whatever the two clocks say');
    ahead.close();
    behind.close();
  });

  it('keeps the lock of a writer in another pid namespace whose pid means something else here, until its heartbeat expires', { skip: !namespacesWork && 'unshare cannot make a pid namespace here' }, async () => {
    const file = path.join(dir, 'namespace.db');
    assert.match(child('same', 'write', file, '1'), /wrote 1/);
    const holder = startChildUnder(NEW_PID_NAMESPACE, 'same', 'hold', file);
    try {
      await holder.waitFor('holding');
      const locks = lockDirOf(file);
      const [pid] = readlinkSync(path.join(locks, 'reserved')).split(' ');
      assert.ok(Number(pid) < 10, `the writer is pid ${pid} in its namespace (this machine's pid ${pid} is another process)`);
      const db = await openDatabase(runtime, file, { busyTimeoutMs: 300, migrations: MIGRATIONS });
      const write = () => db.writeTransaction(() => db.run("INSERT INTO t (body) VALUES ('parent')"));
      await assert.rejects(write(), /stayed busy/, 'the writer in the other namespace keeps its lock');
      holder.proc.kill('SIGKILL');
      await holder.exited;
      await assert.rejects(write(), /stayed busy/, 'its pid is not running anywhere this process can see, and it is not judged by pid');
      // Five minutes later, as far as its heartbeat says:
      const user = readdirSync(locks).find((n) => n.startsWith(`u.${pid}.`))!;
      const record = readlinkSync(path.join(locks, user)).split(' ');
      record[2] = String(Date.now() - FOREIGN_EXPIRY_MS - 1000);
      unlinkSync(path.join(locks, user));
      symlinkSync(record.join(' '), path.join(locks, user));
      await write();
      db.close();
    } finally {
      // Killing unshare kills the writer too (--kill-child).
      holder.proc.kill('SIGKILL');
    }
    assert.match(child('same', 'count', file), /count 2 integrity ok/, "the dead writer's transaction was rolled back");
  });
});
