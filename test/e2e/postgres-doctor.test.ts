import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KB_PG_COMPONENT, KB_PG_MIGRATIONS } from '../../src/kb/pg-schema.ts';
import { openPostgres } from '../../src/storage/postgres/connection.ts';
import { migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';
import { runCli } from '../helpers/server.ts';

const cluster: PgCluster | undefined = await startCluster('the Postgres doctor tests');

// On Node this runs the bundle (dist/ctxgate.mjs), on Deno src/main.ts: both must load the driver.
describe('doctor and serve on the Postgres backend', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let project: string;
  let dataDir: string;
  let url: string;
  before(async () => {
    project = fixture({ 'ctxgate.config.yaml': 'storage:\n  backend: postgres\n', 'a.txt': 'a\n' });
    dataDir = fixture();
    // Trust authentication accepts any password: this one must never be printed.
    url = (await cluster!.createDatabase('doctor')).replace('postgres@', 'postgres:hunter22@');
    const db = await openPostgres(url);
    await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS);
    await db.close();
  });
  after(() => {
    removeDir(project);
    removeDir(dataDir);
    cluster?.destroy();
  });

  it('shows the backend, server version, schema version and reachability, never the password', () => {
    const r = runCli(['doctor', '--project-root', project], { env: { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: url } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\nstorage {7}postgres postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/doctor — reachable, server \d+\.\d+.*, schema kb v3\n/);
    const json = JSON.parse(runCli(['doctor', '--json', '--project-root', project], { env: { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: url } }).stdout);
    assert.deepEqual([json.storage.backend, json.storage.reachable, json.storage.schema], ['postgres', true, { kb: 3 }]);
    assert.doesNotMatch(r.stdout + r.stderr, /hunter22/);
  });

  it('warns, with what to do, when the database cannot be reached', () => {
    const closed = `postgres://postgres:hunter22@127.0.0.1:${cluster!.port + 1}/doctor`;
    const r = runCli(['doctor', '--project-root', project], { env: { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: closed } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /storage {7}postgres postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/doctor — unreachable/);
    assert.match(r.stdout, /the Postgres database is unreachable: cannot reach the Postgres database at .* — check that the server is running/);
    assert.doesNotMatch(r.stdout + r.stderr, /hunter22/);
  });

  it('refuses to serve when the database cannot be reached at start, saying where and what to do', () => {
    const closed = `postgres://postgres:hunter22@127.0.0.1:${cluster!.port + 1}/doctor`;
    const r = runCli(['serve', '--port', '0', '--project-root', project], { env: { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: closed } });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /cannot reach the Postgres database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/doctor/);
    assert.match(r.stderr, /check that the server is running/);
    assert.doesNotMatch(r.stdout + r.stderr, /hunter22|MCP endpoint/);
  });
});
