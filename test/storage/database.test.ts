import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LockFile } from '../../src/storage/lock-file.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, onDeno, removeDir, repoRoot, runtime, withEnv } from '../helpers/env.ts';

const CHILD = path.join(repoRoot, 'test', 'helpers', 'db-child.ts');
const DENO = path.join(repoRoot, 'node_modules', '.bin', 'deno');

function commandFor(which: 'same' | 'other'): { command: string; args: string[] } {
  const deno = which === 'same' ? onDeno : !onDeno;
  return deno ? { command: DENO, args: ['run', '-A', CHILD] } : { command: 'node', args: ['--import', 'tsx', CHILD] };
}

function child(which: 'same' | 'other', ...args: string[]): string {
  const { command, args: base } = commandFor(which);
  const r = spawnSync(command, [...base, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return `${r.stderr}`.trim();
}

function startChild(which: 'same' | 'other', ...args: string[]): { proc: ChildProcess; waitFor(text: string): Promise<void> } {
  const { command, args: base } = commandFor(which);
  const proc = spawn(command, [...base, ...args], { cwd: repoRoot, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let err = '';
  const waiters: [string, () => void][] = [];
  proc.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
    for (const [text, resolve] of waiters) if (err.includes(text)) resolve();
  });
  return {
    proc,
    waitFor: (text) =>
      new Promise((resolve, reject) => {
        if (err.includes(text)) return resolve();
        waiters.push([text, resolve]);
        proc.once('exit', () => (err.includes(text) ? resolve() : reject(new Error(`child exited without '${text}': ${err}`))));
      }),
  };
}

const MIGRATIONS = [{ version: 1, description: 'x', sql: 'CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }];

describe('durable WASM SQLite storage', () => {
  let dir: string;
  before(() => {
    dir = fixture();
  });
  after(() => removeDir(dir));

  it('keeps committed rows across processes and runtimes, in a path with spaces, %, # and ?', () => {
    const file = path.join(dir, 'a b%c#d?e', 'kb.db');
    writeFileSync(path.join(dir, 'placeholder'), '');
    runtime.fs.mkdirSync(path.dirname(file), { recursive: true });
    assert.match(child('same', 'write', file, '500'), /wrote 500/);
    assert.match(child('other', 'write', file, '250'), /wrote 250/);
    assert.match(child('other', 'count', file), /count 750 integrity ok fts ok by 750/);
    assert.match(child('same', 'count', file), /count 750 integrity ok/);
    assert.equal(runtime.fs.statSync(file)!.mode & 0o777, 0o600);
  });

  it('refuses a second process while the owner holds the database, naming its pid', async () => {
    const file = path.join(dir, 'held.db');
    const holder = startChild('same', 'hold', file);
    await holder.waitFor('holding');
    const second = child('other', 'count', file);
    assert.match(second, new RegExp(`error database .*held\\.db is in use by pid ${holder.proc.pid}`));
    holder.proc.stdin?.end();
    await new Promise((r) => holder.proc.once('exit', r));
    assert.match(child('other', 'count', file), /count 0 integrity ok/, 'free again once the owner exits');
  });

  it('breaks a stale lock left by a dead process or a reused pid', async () => {
    const file = path.join(dir, 'stale.db');
    const dead = spawnSync('true').pid!;
    writeFileSync(`${file}-lock`, `${dead} 12345\n`);
    assert.match(child('same', 'write', file, '3'), /wrote 3/);
    // Our own pid with another start time: the pid was reused, the lock is stale.
    writeFileSync(`${file}-lock`, `${process.pid} 1\n`);
    const db = await openDatabase(runtime, file, { exclusive: true, busyTimeoutMs: 100, migrations: MIGRATIONS });
    assert.equal(db.value('SELECT count(*) FROM t'), 3);
    db.close();
  });

  it('lets only one breaker act: a live guard holder makes the others wait', () => {
    const file = path.join(dir, 'guarded.db');
    writeFileSync(`${file}-lock`, `${spawnSync('true').pid} 1\n`);
    writeFileSync(`${file}-lock.guard`, `${process.pid} ${runtime.processStartTime(process.pid)}\n`);
    const lock = new LockFile(runtime, `${file}-lock`);
    assert.equal(lock.tryAcquire().ok, false, 'the guard is held by a live breaker');
    runtime.fs.removeSync(`${file}-lock.guard`);
    assert.equal(lock.tryAcquire().ok, true);
    lock.release();
    assert.equal(runtime.fs.statSync(`${file}-lock`), undefined);
  });

  it('survives kill -9 in the middle of a large transaction with every committed row and none of the rest', async () => {
    for (const which of ['same', 'other'] as const) {
      const file = path.join(dir, `crash-${which}.db`);
      const c = startChild(which, 'crash', file);
      await c.waitFor('mid');
      c.proc.kill('SIGKILL');
      await new Promise((r) => c.proc.once('exit', r));
      assert.match(child('same', 'count', file), /count 1000 integrity ok fts ok by 1000/, which);
    }
  });

  it('refuses a database from a newer schema without touching it', async () => {
    const file = path.join(dir, 'newer.db');
    const db = await openDatabase(runtime, file, { exclusive: true, busyTimeoutMs: 100, migrations: MIGRATIONS });
    db.exec('PRAGMA user_version=99');
    db.close();
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    await assert.rejects(openDatabase(runtime, file, { exclusive: true, busyTimeoutMs: 100, migrations: MIGRATIONS }), /schema version 99, newer than this ctxgate understands \(1\)/);
    assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), before);
  });

  it('rolls a failed transaction back whole', async () => {
    const file = path.join(dir, 'rollback.db');
    const db = await openDatabase(withEnv(runtime, {}), file, { exclusive: true, busyTimeoutMs: 100, migrations: MIGRATIONS });
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
