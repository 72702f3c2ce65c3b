import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openPostgres } from '../../src/storage/postgres/connection.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';
import { type HttpServer, runCli, startHttp } from '../helpers/server.ts';

const PROJECT = 'example.test/acme/shop';
const cluster: PgCluster | undefined = await startCluster('the team endpoint user command tests');

/** Every file under `dir`, read as text (the data dir: log, token file, databases' lock folders). */
function textsUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

// On Node this runs the bundle (dist/ctxgate.mjs), on Deno src/main.ts.
describe('ctxgate users and serve on a team endpoint', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let project: string;
  let dataDir: string;
  let env: Record<string, string>;
  let server: HttpServer | undefined;
  const tokens: Record<string, string> = {};
  /** What `users list` printed after the adds and the revoke (checked for tokens at the end: the list does not change in between). */
  before(async () => {
    project = fixture({ 'ctxgate.config.yaml': `storage:\n  backend: postgres\n  projectKey: ${PROJECT}\n`, 'a.txt': 'a\n' });
    dataDir = fixture();
    // Trust authentication accepts any password: this one must never be printed.
    const url = (await cluster!.createDatabase('team')).replace('postgres@', 'postgres:hunter22@');
    env = { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: url };
  });
  after(async () => {
    await server?.stop();
    removeDir(project);
    removeDir(dataDir);
    cluster?.destroy();
  });
  const users = (...args: string[]) => runCli(['users', ...args, '--project-root', project], { env });

  it('adds users, printing each token once, lists them and revokes one', () => {
    const added = users('add', 'alice', '--project', PROJECT);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /^user alice added; may use project example\.test\/acme\/shop\ntoken \(shown this once; ctxgate keeps only its hash\): (ctxg_\S{43})\n/);
    tokens.alice = /ctxg_\S{43}/.exec(added.stdout)![0];
    tokens.bob = /ctxg_\S{43}/.exec(users('add', 'bob', '--project', 'example.test/acme/site').stdout)![0];
    tokens.carol = /ctxg_\S{43}/.exec(users('add', 'carol').stdout)![0];
    const again = users('add', 'alice');
    assert.equal(again.status, 1);
    assert.match(again.stderr, /(^|\n)ctxgate: user alice exists already \(in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/team\)\nhint: to give alice a new token, revoke the old one first/);
    const revoked = users('revoke', 'carol');
    assert.equal(revoked.status, 0, revoked.stderr);
    const listed = users('list');
    assert.match(listed.stdout, /^user +projects +tools +added +state\nalice +example\.test\/acme\/shop +all +\S+ \S+ UTC +active\nbob +example\.test\/acme\/site .* active\ncarol +all .* revoked /);
    const wrong = users('add', 'dave', '--project');
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /(^|\n)ctxgate: --project needs a value\nhint: run ctxgate --help for the usage/);
  });

  it('refuses the users command on SQLite, pointing to the Postgres backend', () => {
    const plain = fixture({ 'a.txt': 'a\n' });
    try {
      const r = runCli(['users', 'list', '--project-root', plain], { env: { CTXGATE_DATA_DIR: dataDir } });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /ctxgate users needs the Postgres backend.*\nhint: set storage\.backend: "postgres"/);
    } finally {
      removeDir(plain);
    }
  });

  it("serves users' tokens: 200 for a user of this project, 401 revoked, 403 for another project", async () => {
    server = await startHttp(['--project-root', project], env);
    assert.match(server.stderr(), /team endpoint: project example\.test\/acme\/shop in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/team/);
    const connect = async (token: string) => {
      const client = new Client({ name: 'team-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server!.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    };
    const alice = await connect(tokens.alice!);
    const listed = await alice.callTool({ name: 'ctx_fs', arguments: { action: 'ls' } });
    assert.ok(!listed.isError, JSON.stringify(listed));
    await alice.close();
    await assert.rejects(connect(tokens.carol!), /401|revoked/);
    await assert.rejects(connect(tokens.bob!), /403|no access to project/);
    const status = await fetch(`${server.url.replace(/\/mcp$/, '')}/status.json`, { headers: { authorization: `Bearer ${/token: (\S+)/.exec(server.stderr())![1]}` } });
    assert.equal(status.status, 200);
    const snapshot = (await status.json()) as { team?: { projectKey: string; users: { user: string | null; calls: number }[] } };
    assert.equal(snapshot.team?.projectKey, PROJECT);
    assert.deepEqual(
      snapshot.team?.users.map((u) => [u.user, u.calls]),
      [['alice', 1]],
      "the status shows alice's call, under her name",
    );
    const db = await openPostgres(env.CTXGATE_DATABASE_URL!);
    try {
      const rows = await db.run((sql) => sql`SELECT project_key, user_name, tool FROM calls`);
      assert.deepEqual(
        rows.map((r) => [r.project_key, r.user_name, r.tool]),
        [[PROJECT, 'alice', 'ctx_fs']],
        "the call's record names its user and its project",
      );
    } finally {
      await db.close();
    }
  });

  it('never shows a user token or the URL password in the log, the data dir, doctor or the server output', async () => {
    const served = server?.stderr() ?? '';
    await server?.stop();
    server = undefined;
    const doctor = runCli(['doctor', '--project-root', project], { env });
    // The list again, after the server has served the tokens: nothing it wrote meanwhile may show one.
    const listed = users('list');
    assert.equal(listed.status, 0, listed.stderr);
    const everything = [served, textsUnder(dataDir), doctor.stdout, doctor.stderr, listed.stdout, listed.stderr].join('\n');
    assert.ok(textsUnder(dataDir).includes('"http_refused"'), 'the refusals were logged');
    assert.doesNotMatch(everything, /hunter22/);
    for (const token of Object.values(tokens)) assert.ok(!everything.includes(token), 'no user token');
  });
});
