import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../src/storage/database.ts';
import { LockFile } from '../../src/storage/lock-file.ts';
import { ownerForConnection } from '../../src/storage/lock-owner.ts';
import { child, startChild } from '../helpers/db-process.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];
const deadPid = () => spawnSync('true').pid!;

/**
 * The schema test/helpers/db-child.ts gives its databases (the same text: a child opening a file made
 * here migrates nothing), for the files this process makes or reads itself.
 */
const CHILD_MIGRATIONS = [
  {
    version: 1,
    description: 'test table',
    sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE VIRTUAL TABLE f USING fts5(body, content='t', content_rowid='id', tokenize='porter unicode61'); CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO f(rowid, body) VALUES (new.id, new.body); END;",
  },
];

/**
 * What db-child's `count` and `read` say, from this process (a process apart from the children, on
 * this runtime: the 'same' child did it at ~0.4 s of CPU each): the rows and the integrity check, and
 * with `fts` the FTS index's check and the rows it finds.
 */
async function countHere(file: string, what: 'count' | 'read' = 'count'): Promise<string> {
  const db = await openDatabase(runtime, file, { busyTimeoutMs: 10_000, migrations: CHILD_MIGRATIONS });
  try {
    const rows = `${what} ${db.value('SELECT count(*) FROM t')} integrity ${db.value('PRAGMA integrity_check')}`;
    if (what === 'read') return rows;
    return `${rows} fts ${db.run("INSERT INTO f(f, rank) VALUES ('integrity-check', 1)") >= 0 ? 'ok' : 'bad'} by ${db.value("SELECT count(*) FROM f WHERE f MATCH 'written'")}`;
  } finally {
    db.close();
  }
}

/** db-child's `write FILE n`, from this process: n rows in one transaction. */
async function writeHere(file: string, n: number): Promise<void> {
  const db = await openDatabase(runtime, file, { busyTimeoutMs: 10_000, migrations: CHILD_MIGRATIONS });
  try {
    await db.writeTransaction(() => {
      for (let i = 0; i < n; i++) db.run('INSERT INTO t (body) VALUES (?)', [`row ${i} written by ${runtime.name}`]);
    });
  } finally {
    db.close();
  }
}

describe('durable WASM SQLite storage shared by processes', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  it('keeps committed rows across processes and runtimes, in a path with spaces, %, # and ?', async () => {
    const file = path.join(dir, 'a b%c#d?e', 'kb.db');
    runtime.fs.mkdirSync(path.dirname(file), { recursive: true });
    await writeHere(file, 500); // this process, on this runtime, makes the file (mode 0600 below)
    assert.match(child('other', 'write', file, '250'), /wrote 250/);
    assert.match(child('other', 'count', file), /count 750 integrity ok fts ok by 750/);
    assert.match(await countHere(file), /count 750 integrity ok/);
    assert.equal(runtime.fs.statSync(file)!.mode & 0o777, 0o600);
  });

  it('lets several processes on both runtimes write and read at once, every write succeeding exactly once', async () => {
    const file = path.join(dir, 'mixed.db');
    await writeHere(file, 0); // create it first: the race to create is another test
    const kids = ['a', 'b', 'c', 'd'].map((name, i) => ({ name, c: startChild(i % 2 ? 'other' : 'same', 'mix', file, name, '40') }));
    for (const { name, c } of kids) {
      await c.waitFor(`done ${name}`);
      assert.match(c.output(), new RegExp(`done ${name} rounds 40 errors 0`), c.output());
    }
    assert.match(await countHere(file), /count 160 integrity ok fts ok by 160/);
  });

  it('creates and migrates a new database once when several processes open it at the same moment', async () => {
    const file = path.join(dir, 'fresh.db');
    const kids = ['a', 'b', 'c'].map((name, i) => ({ name, c: startChild(i % 2 ? 'other' : 'same', 'mix', file, name, '3') }));
    for (const { name, c } of kids) assert.match(await c.waitFor(/done \w+ rounds 3 errors \d+/), new RegExp(`done ${name} rounds 3 errors 0`), c.output());
    assert.match(await countHere(file), /count 9 integrity ok/);
  });

  it("shows each process the others' commits on its next call, over connections held open", async () => {
    const file = path.join(dir, 'visible.db');
    const a = startChild('same', 'serve', file, 'A');
    const b = startChild('other', 'serve', file, 'B');
    for (let i = 0; i < 3; i++) {
      a.send(`w from-a-${i}`);
      await a.waitFor(`A ok from-a-${i}`);
      b.send(`r from-a-${i}`);
      assert.equal(await b.waitFor(new RegExp(`B read from-a-${i} \\d+`)), `B read from-a-${i} 1`);
      b.send(`w from-b-${i}`);
      await b.waitFor(`B ok from-b-${i}`);
      a.send(`r from-b-${i}`);
      assert.equal(await a.waitFor(new RegExp(`A read from-b-${i} \\d+`)), `A read from-b-${i} 1`);
    }
    a.send('q');
    b.send('q');
    assert.equal(await a.exited, 0);
    assert.equal(await b.exited, 0);
  });

  it("makes a writer wait for another process's transaction to end instead of failing", async () => {
    const file = path.join(dir, 'wait.db');
    const holder = startChild('same', 'hold', file);
    await holder.waitFor('holding');
    const writer = startChild('other', 'wait-write', file);
    await writer.waitFor(`busy seen: writer pid ${holder.proc.pid}`);
    holder.proc.stdin?.end();
    await holder.waitFor('released');
    await writer.waitFor('wrote 1');
    assert.equal(await writer.exited, 0, writer.output());
    assert.match(await countHere(file), /count 2 integrity ok/);
  });

  it("leaves a live writer's journal alone: a reader meanwhile sees the last commit and does not roll it back", async () => {
    const file = path.join(dir, 'journal.db');
    await writeHere(file, 3);
    const holder = startChild('other', 'hold', file);
    await holder.waitFor('holding');
    assert.ok(existsSync(`${file}-journal`), 'the writer has a journal');
    assert.match(await countHere(file, 'read'), /read 3 integrity ok/);
    assert.ok(existsSync(`${file}-journal`), 'the journal of a live writer is not hot');
    holder.proc.stdin?.end();
    await holder.waitFor('released');
    assert.match(await countHere(file), /count 4 integrity ok/);
  });

  it('survives kill -9 in the middle of a large transaction while other processes keep working', async () => {
    // The crasher runs on this file's runtime: the run under the other runtime kills the other one
    // (a round per runtime here ran each crasher twice a test run, with the same survivors of both).
    const file = path.join(dir, 'crash.db');
    const crasher = startChild('same', 'crash', file);
    await crasher.waitFor('committed');
    const others = ['x', 'y', 'z'].map((name, i) => ({ name, c: startChild(i % 2 ? 'other' : 'same', 'mix', file, name, '15') }));
    await crasher.waitFor('mid');
    crasher.proc.kill('SIGKILL');
    await crasher.exited;
    for (const { name, c } of others) {
      await c.waitFor(`done ${name}`);
      assert.match(c.output(), new RegExp(`done ${name} rounds 15 errors 0`), c.output());
    }
    assert.match(await countHere(file), /count 1045 integrity ok fts ok by 1045/);
    assert.ok(!existsSync(`${file}-journal`), 'the hot journal was rolled back');
  });

  it('breaks locks and reader markers left by a dead process or a reused pid', async () => {
    const file = path.join(dir, 'stale.db');
    await writeHere(file, 3);
    const locks = `${file}-lock`;
    symlinkSync(`${deadPid()} 12345 1`, path.join(locks, 'reserved'));
    // Our own pid with another start time: the pid was reused, so this lock is stale too.
    symlinkSync(`${process.pid} 1 1`, path.join(locks, 'pending'));
    symlinkSync('.', path.join(locks, `s.${deadPid()}.777.1`));
    assert.match(child('same', 'write', file, '2'), /wrote 2/);
    assert.match(child('other', 'count', file), /count 5 integrity ok/);
    assert.deepEqual(readdirSync(locks), [], 'nothing left behind');
  });

  it('lets only one breaker act: a live guard holder makes the others wait', () => {
    const locks = path.join(dir, 'guarded');
    mkdirSync(locks);
    const lockPath = path.join(locks, 'reserved');
    symlinkSync(`${deadPid()} 1 1`, lockPath);
    symlinkSync(`${process.pid} ${runtime.processStartTime(process.pid)} 99`, `${lockPath}.guard`);
    const lock = new LockFile(runtime, lockPath, ownerForConnection(runtime));
    assert.equal(lock.tryAcquire().ok, false, 'the guard is held by a live breaker');
    runtime.fs.removeSync(`${lockPath}.guard`);
    assert.equal(lock.tryAcquire().ok, true);
    lock.release();
    assert.deepEqual(readdirSync(locks), []);
  });

  it('takes over a guard whose holder died', () => {
    const locks = path.join(dir, 'dead-guard');
    mkdirSync(locks);
    const lockPath = path.join(locks, 'pending');
    symlinkSync(`${deadPid()} 1 1`, lockPath);
    symlinkSync(`${deadPid()} 1 1`, `${lockPath}.guard`);
    const lock = new LockFile(runtime, lockPath, ownerForConnection(runtime));
    const first = lock.tryAcquire().ok;
    assert.equal(first || lock.tryAcquire().ok, true);
    lock.release();
    assert.deepEqual(readdirSync(locks), []);
  });

  it('refuses to share a database an older ctxgate holds for its whole life, and takes over a dead one', async () => {
    const file = path.join(dir, 'legacy.db');
    writeFileSync(`${file}-lock`, `${process.pid} ${runtime.processStartTime(process.pid)}\n`);
    await assert.rejects(openDatabase(runtime, file, { busyTimeoutMs: 100, migrations: MIGRATIONS }), new RegExp(`held by an older ctxgate \\(pid ${process.pid}\\)`));
    writeFileSync(`${file}-lock`, `${deadPid()} 1\n`);
    const db = await openDatabase(runtime, file, { busyTimeoutMs: 100, migrations: MIGRATIONS });
    assert.equal(db.value('SELECT count(*) FROM t'), 0);
    db.close();
  });

  it('refuses a database from a newer schema without touching it', async () => {
    const file = path.join(dir, 'newer.db');
    const db = await openDatabase(runtime, file, { busyTimeoutMs: 100, migrations: MIGRATIONS });
    db.exec('PRAGMA user_version=99');
    db.close();
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    await assert.rejects(openDatabase(runtime, file, { busyTimeoutMs: 100, migrations: MIGRATIONS }), /schema version 99, newer than this ctxgate understands \(1\)/);
    assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), before);
  });

  it('rolls a failed transaction back whole', async () => {
    const file = path.join(dir, 'rollback.db');
    const db = await openDatabase(withEnv(runtime, {}), file, { busyTimeoutMs: 100, migrations: MIGRATIONS });
    assert.throws(() =>
      db.transaction(() => {
        db.run('INSERT INTO t (body) VALUES (?)', ['one']);
        db.transaction(() => db.run('INSERT INTO t (body) VALUES (?)', ['two']));
        throw new Error('boom');
      }),
    );
    assert.equal(db.value('SELECT count(*) FROM t'), 0);
    db.close();
  });
});
