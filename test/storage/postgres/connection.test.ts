import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isStorageError } from '../../../src/storage/storage-error.ts';
import { openPostgres, type PgDatabase } from '../../../src/storage/postgres/connection.ts';
import { migratePostgres, schemaVersions } from '../../../src/storage/postgres/migrate.ts';
import { redactPasswordIn, redactUrl } from '../../../src/storage/postgres/redact.ts';
import { KB_PG_COMPONENT, KB_PG_MIGRATIONS } from '../../../src/kb/pg-schema.ts';
import { USERS_PG_COMPONENT, USERS_PG_MIGRATIONS } from '../../../src/users/postgres-users.ts';
import { type PgCluster, startCluster } from '../../helpers/postgres.ts';

describe('redacting a database URL', () => {
  it('hides the password and password-like parameters, and keeps everything else', () => {
    assert.equal(redactUrl('postgres://alice:s3cr%40t@db.example.test:5432/team'), 'postgres://alice:***@db.example.test:5432/team');
    assert.equal(redactUrl('postgres://db.example.test/team?password=hunter22&sslmode=require'), 'postgres://db.example.test/team?password=***&sslmode=require');
    assert.equal(redactUrl('postgres://alice@db.example.test/team'), 'postgres://alice@db.example.test/team');
    assert.equal(redactUrl('postgres://bob:p w@[bad'), 'postgres://***@[bad');
  });

  it('scrubs the password out of any message, encoded or decoded', () => {
    const url = 'postgres://alice:s3cr%40t@db.example.test/team';
    assert.equal(redactPasswordIn(`failed for ${url} with s3cr@t and s3cr%40t`, url), 'failed for postgres://alice:***@db.example.test/team with *** and ***');
  });
});

const cluster: PgCluster | undefined = await startCluster('the Postgres connection tests');

describe('Postgres connection and migrations', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let url: string;
  const open: PgDatabase[] = [];
  before(async () => {
    url = await cluster!.createDatabase('conn');
  });
  after(async () => {
    await Promise.all(open.map((db) => db.close()));
    cluster?.destroy();
  });
  const connect = async (u = url) => {
    const db = await openPostgres(u);
    open.push(db);
    return db;
  };

  it('refuses to start against an unreachable server, naming it without its password and saying what to do', async () => {
    const closed = `postgres://alice:topsecret@127.0.0.1:${cluster!.port + 1}/nowhere`;
    const error = await openPostgres(closed, { connectTimeoutSeconds: 5 }).then(
      () => assert.fail('connected to a closed port'),
      (e: unknown) => e,
    );
    assert.ok(isStorageError(error) && error.reason === 'unreachable', String(error));
    assert.match(error.message, /cannot reach the Postgres database at postgres:\/\/alice:\*\*\*@127\.0\.0\.1:\d+\/nowhere/);
    assert.doesNotMatch(`${error.message} ${error.hint}`, /topsecret/);
    assert.match(error.hint ?? '', /CTXGATE_DATABASE_URL/);
  });

  it('says so when the database named in the URL does not exist', async () => {
    const error = await openPostgres(url.replace(/\/conn$/, '/missing_db')).then(
      () => assert.fail('opened a missing database'),
      (e: unknown) => e,
    );
    assert.ok(isStorageError(error), String(error));
    assert.match(error.message, /no such database/);
    assert.match(error.hint ?? '', /createdb/);
  });

  it('migrates once when several servers start together, and records the version', async () => {
    const dbs = await Promise.all([1, 2, 3].map(() => connect()));
    const migrations = [
      { version: 1, description: 'a table', sql: 'CREATE TABLE once_only (id INT); INSERT INTO once_only VALUES (1);' },
      { version: 2, description: 'a column', sql: 'ALTER TABLE once_only ADD COLUMN note TEXT;' },
    ];
    const versions = await Promise.all(dbs.map((db) => migratePostgres(db, 'test', migrations)));
    assert.deepEqual(versions, [2, 2, 2]);
    const [row] = await dbs[0]!.run((sql) => sql`SELECT count(*)::int AS n FROM once_only`);
    assert.equal(row?.n, 1, 'the first migration ran exactly once');
    assert.deepEqual(await schemaVersions(dbs[0]!), { test: 2 });
  });

  it('migrates the knowledge base and the users together on a fresh database, round after round', async () => {
    for (let round = 0; round < 5; round++) {
      const fresh = await cluster!.createDatabase(`fresh_${round}`);
      const [kbDb, usersDb] = await Promise.all([connect(fresh), connect(fresh)]);
      const versions = await Promise.all([migratePostgres(kbDb, KB_PG_COMPONENT, KB_PG_MIGRATIONS), migratePostgres(usersDb, USERS_PG_COMPONENT, USERS_PG_MIGRATIONS)]);
      assert.deepEqual(await schemaVersions(kbDb), { [KB_PG_COMPONENT]: versions[0], [USERS_PG_COMPONENT]: versions[1] }, `round ${round}`);
    }
  });

  it('says how to grant a role that may not create tables in schema public what it needs', async () => {
    const fresh = await cluster!.createDatabase('not_owner');
    const owner = await connect(fresh);
    await owner.run((sql) => sql`CREATE ROLE visitor LOGIN`);
    const visitor = await connect(fresh.replace('postgres://postgres@', 'postgres://visitor@'));
    const error = await migratePostgres(visitor, 'test', [{ version: 1, description: 'a table', sql: 'CREATE TABLE t (id INT)' }]).then(
      () => assert.fail('a role without CREATE on public created tables'),
      (e: unknown) => e as { message: string; hint?: string },
    );
    assert.match(error.message, /^Postgres at postgres:\/\/visitor@127\.0\.0\.1:\d+\/not_owner: the role visitor cannot create ctxgate's tables in schema public/);
    assert.match(error.hint ?? '', /GRANT CREATE ON SCHEMA public TO visitor/);
    await owner.run((sql) => sql`GRANT CREATE ON SCHEMA public TO visitor`);
    assert.equal(await migratePostgres(visitor, 'test', [{ version: 1, description: 'a table', sql: 'CREATE TABLE t (id INT)' }]), 1, 'the grant the hint names is enough');
  });

  it('refuses tables newer than it understands, leaving them untouched', async () => {
    const db = await connect();
    await migratePostgres(db, 'newer', [{ version: 3, description: 'x', sql: 'CREATE TABLE newer_t (id INT)' }]);
    await assert.rejects(migratePostgres(db, 'newer', [{ version: 1, description: 'x', sql: 'SELECT 1' }]), /schema version 3, newer than this ctxgate understands \(1\)/);
  });

  it('turns a connection lost mid-call into a clear error, and the next call reconnects', async () => {
    const db = await connect();
    const error = await db
      .run((sql) => sql`SELECT pg_terminate_backend(pg_backend_pid())`)
      .then(
        () => assert.fail('the call survived its own connection'),
        (e: unknown) => e,
      );
    assert.ok(isStorageError(error) && error.reason === 'unreachable', String(error));
    assert.match(error.message, /lost the connection to the Postgres database at postgres:\/\/postgres@127\.0\.0\.1/);
    assert.match(error.hint ?? '', /next call reconnects/);
    const [row] = await db.run((sql) => sql`SELECT 41 + 1 AS answer`);
    assert.equal(row?.answer, 42);
  });

  it('rolls a transaction back whole when it fails', async () => {
    const db = await connect();
    await db.run((sql) => sql`CREATE TABLE all_or_nothing (id INT PRIMARY KEY)`);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx`INSERT INTO all_or_nothing VALUES (1)`;
        await tx`INSERT INTO all_or_nothing VALUES (1)`;
      }),
      /duplicate key/,
    );
    const [row] = await db.run((sql) => sql`SELECT count(*)::int AS n FROM all_or_nothing`);
    assert.equal(row?.n, 0);
  });

  it('runs a transaction Postgres ended as a deadlock once more, so both sides of the deadlock commit', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    let attempts = 0;
    const signal = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      return { promise, resolve };
    };
    const aHolds = signal();
    const bHolds = signal();
    // Each takes one lock, waits until the other has its own, then wants the other's: a circle.
    const crossing = (db: PgDatabase, first: number, second: number, mine: ReturnType<typeof signal>, theirs: ReturnType<typeof signal>) =>
      db.transaction(async (tx) => {
        attempts++;
        await tx`SELECT pg_advisory_xact_lock(${first})`;
        mine.resolve();
        await theirs.promise;
        await tx`SELECT pg_advisory_xact_lock(${second})`;
        return 'committed';
      });
    const results = await Promise.all([crossing(a, 7001, 7002, aHolds, bHolds), crossing(b, 7002, 7001, bHolds, aHolds)]);
    assert.deepEqual(results, ['committed', 'committed']);
    assert.equal(attempts, 3, 'the side Postgres chose ran once more');
  });

  it('names the server version', async () => {
    const db = await connect();
    assert.match(await db.serverVersion(), /^\d+\.\d+/);
  });

  it('gives up on a server that stops answering (its own timeouts cannot fire), with a clear error, and the next call connects anew', { skip: process.getuid?.() !== 0 && 'freezing the server process needs root' }, async () => {
    const db = await openPostgres(url, { maxConnections: 1, answerDeadlineMs: 1500 });
    open.push(db);
    const [row] = await db.run((sql) => sql`SELECT pg_backend_pid() AS pid`);
    const backend = Number(row!.pid);
    process.kill(backend, 'SIGSTOP');
    try {
      const error = await db.run((sql) => sql`SELECT 1`).then(
        () => assert.fail('a frozen server answered'),
        (e: unknown) => e,
      );
      assert.ok(isStorageError(error) && error.reason === 'unreachable', String(error));
      assert.match(error.message, /did not answer within 2 s/);
      assert.match(error.hint ?? '', /the next call connects anew/);
    } finally {
      process.kill(backend, 'SIGCONT');
    }
    const [again] = await db.run((sql) => sql`SELECT pg_backend_pid() AS pid`);
    assert.notEqual(Number(again!.pid), backend, 'a new connection');
  });
});
