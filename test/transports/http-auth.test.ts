import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StatusSnapshot } from '../../src/app/status.ts';
import { runUsers } from '../../src/cli/users.ts';
import { KB_PG_COMPONENT, KB_PG_MIGRATIONS } from '../../src/kb/pg-schema.ts';
import type { CallRecord } from '../../src/kb/usage.ts';
import { openPostgres, type PgDatabase } from '../../src/storage/postgres/connection.ts';
import { migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { createHttpApp, type HttpApp } from '../../src/transports/http.ts';
import { openPostgresUsers } from '../../src/users/postgres-users.ts';
import type { UserStore } from '../../src/users/user-store.ts';
import { usageByUser } from '../../src/users/user-usage.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';

const SERVER_TOKEN = 'server-token-0123456789abcdef';
const PROJECT = 'example.test/acme/shop';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const callLs = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ctx_fs', arguments: { action: 'ls' } } };
/** The JSON-RPC message of a response, sent as JSON or as one server-sent event. */
const dataOf = (text: string) => (text.trimStart().startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text));

const cluster: PgCluster | undefined = await startCluster('the team endpoint user tests');

/** The token `ctxgate users add` printed. */
function tokenIn(text: string): string {
  const token = /ctxg_[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  assert.ok(token, text);
  return token;
}

describe('a team endpoint on Postgres: its users and their tokens', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let db: PgDatabase;
  let users: UserStore;
  let project: string;
  let t: TestApp;
  let http: HttpApp;
  const recorded: CallRecord[] = [];
  const tokens: Record<string, string> = {};

  before(async () => {
    db = await openPostgres(await cluster!.createDatabase('team'));
    await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS);
    users = await openPostgresUsers(db);
    project = fixture({ 'a.py': 'def a():\n    pass\n' });
    t = testApp(project);
    // Every call record the app makes, as the usage recorder receives it (it goes on to the database).
    const record = t.app.usage.record.bind(t.app.usage);
    t.app.usage.record = (call) => {
      recorded.push(call);
      record(call);
    };
    http = createHttpApp(t.app, createToolRegistry(TOOLS), {
      bindHost: '127.0.0.1',
      port: () => 8787,
      token: SERVER_TOKEN,
      team: { store: users, projectKey: PROJECT, usage: () => usageByUser(db, PROJECT) },
      allowedHosts: [],
      allowedOrigins: [],
      maxBodyBytes: 1024 * 1024,
      maxSessions: 64,
      sessionIdleMs: 60_000,
      sessionUnusedGraceMs: 60_000,
    });
  });
  after(async () => {
    await http?.close();
    await t?.close();
    if (project) removeDir(project);
    await db?.close();
    cluster?.destroy();
  });

  const send = (token: string, body: unknown, session?: string) =>
    http.fetch(
      new Request('http://127.0.0.1:8787/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1:8787',
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: number; message: string } }).error;

  it('adds users with the token printed once and kept only as its hash, lists and revokes them', async () => {
    const added = await runUsers(users, { verb: 'add', name: 'alice', projects: [PROJECT], tools: 'all' }, false);
    assert.match(added, /user alice added; may use project example\.test\/acme\/shop/);
    tokens.alice = tokenIn(added);
    tokens.bob = tokenIn(await runUsers(users, { verb: 'add', name: 'bob', projects: ['example.test/acme/site'], tools: 'all' }, false));
    tokens.carol = tokenIn(await runUsers(users, { verb: 'add', name: 'carol', projects: 'all', tools: 'all' }, false));
    tokens.dave = tokenIn(await runUsers(users, { verb: 'add', name: 'dave', projects: 'all', tools: 'all' }, false));
    await assert.rejects(runUsers(users, { verb: 'add', name: 'alice', projects: 'all', tools: 'all' }, false), /user alice exists already/);
    const stored = await db.run((sql) => sql`SELECT token_hash FROM ctxgate_users`);
    assert.equal(stored.length, 4);
    for (const token of Object.values(tokens)) assert.ok(!JSON.stringify(stored).includes(token.slice(5)), 'no token is stored');
    assert.match(await runUsers(users, { verb: 'revoke', name: 'dave' }, false), /user dave revoked/);
    await assert.rejects(runUsers(users, { verb: 'revoke', name: 'dave' }, false), /there is no active user named dave/);
    const listed = JSON.parse(await runUsers(users, { verb: 'list' }, true)) as { name: string; projects: unknown; revokedAt: string | null }[];
    assert.deepEqual(
      listed.map((u) => [u.name, u.projects, u.revokedAt !== null]),
      [
        ['alice', [PROJECT], false],
        ['bob', ['example.test/acme/site'], false],
        ['carol', 'all', false],
        ['dave', 'all', true],
      ],
    );
    assert.match(await runUsers(users, { verb: 'list' }, false), /^user +projects +tools +added +state\nalice +example\.test\/acme\/shop +all +\d{4}-\d\d-\d\d \d\d:\d\d UTC +active\n/);
  });

  it("records each call made with a user's token under that user's name", async () => {
    const opened = await send(tokens.alice!, initialize);
    assert.equal(opened.status, 200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const called = await send(tokens.alice!, callLs, session);
    assert.equal(called.status, 200);
    await called.text();
    const call = recorded.find((r) => r.clientSession === session);
    assert.equal(call?.tool, 'ctx_fs');
    assert.equal(call?.userName, 'alice');
  });

  it('gives a user allowed some tools a session that lists and answers only those', async () => {
    const added = await runUsers(users, { verb: 'add', name: 'erin', projects: [PROJECT], tools: ['locate', 'read', 'search', 'explore'] }, false);
    assert.match(added, /may use project example\.test\/acme\/shop\n[\s\S]*\ntools: only locate, read, search, explore$/);
    const token = tokenIn(added);
    const opened = await send(token, initialize);
    assert.equal(opened.status, 200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const listed = await send(token, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, session);
    assert.deepEqual((JSON.parse(dataOf(await listed.text())) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name), ['locate', 'read', 'search', 'explore']);
    const refused = await send(token, callLs, session);
    assert.match(await refused.text(), /unknown tool 'ctx_fs'/);
    assert.equal(recorded.some((r) => r.clientSession === session && r.tool === 'ctx_fs' && r.outcome === 'ok'), false);
  });

  it("records no user for the server's own token, which keeps working", async () => {
    const opened = await send(SERVER_TOKEN, initialize);
    assert.equal(opened.status, 200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    await (await send(SERVER_TOKEN, callLs, session)).text();
    const call = recorded.find((r) => r.clientSession === session);
    assert.ok(call);
    assert.equal('userName' in call, false);
  });

  it('answers 401 to a revoked or unknown token and 403 to a user of other projects, as JSON-RPC errors', async () => {
    const revoked = await send(tokens.dave!, initialize);
    assert.equal(revoked.status, 401);
    assert.match(revoked.headers.get('www-authenticate') ?? '', /Bearer/);
    assert.match((await errorOf(revoked)).message, /^Unauthorized: the token of user dave was revoked/);
    const unknown = await send(`ctxg_${'x'.repeat(43)}`, initialize);
    assert.equal(unknown.status, 401);
    assert.match((await errorOf(unknown)).message, /not known to this endpoint/);
    const elsewhere = await send(tokens.bob!, initialize);
    assert.equal(elsewhere.status, 403);
    const error = await errorOf(elsewhere);
    assert.equal(error.code, -32003);
    assert.match(error.message, /^Forbidden: user bob has no access to project example\.test\/acme\/shop \(it may use example\.test\/acme\/site\)/);
    assert.ok(!recorded.some((r) => r.userName === 'bob' || r.userName === 'dave'), 'nothing of theirs is recorded');
  });

  it('lets a refused user in once granted the project with the command the 403 names, and keeps the token', async () => {
    const { message } = await errorOf(await send(tokens.bob!, initialize));
    const command = /\((ctxgate users grant bob --project (\S+))\)$/.exec(message);
    assert.ok(command, message);
    assert.equal(command[2], PROJECT);
    assert.match(await runUsers(users, { verb: 'grant', name: 'bob', projects: [PROJECT] }, false), /^user bob may now use projects example\.test\/acme\/shop, example\.test\/acme\/site; the token is unchanged$/);
    const admitted = await send(tokens.bob!, initialize);
    assert.equal(admitted.status, 200);
    await admitted.text();
    assert.match(await runUsers(users, { verb: 'grant', name: 'carol', projects: [PROJECT] }, false), /user carol may now use every project/, 'a user of every project keeps every project');
    await assert.rejects(runUsers(users, { verb: 'grant', name: 'dave', projects: [PROJECT] }, false), /there is no active user named dave/);
  });

  it("refuses a session opened with one user's token to another user's token", async () => {
    const opened = await send(tokens.alice!, initialize);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const taken = await send(tokens.carol!, callLs, session);
    assert.equal(taken.status, 403);
    assert.match((await errorOf(taken)).message, /this session was opened with another token/);
  });

  it('answers a generic 503, not 500, while the users cannot be looked up, and logs where the database is', async () => {
    const lost = await openPostgres(await cluster!.createDatabase('lost'));
    const store = await openPostgresUsers(lost);
    await lost.close();
    const logged: { event: string; fields: Record<string, unknown> }[] = [];
    const logger = { file: undefined, close() {}, log: (event: string, fields: Record<string, unknown> = {}) => logged.push({ event, fields }) };
    const cut = createHttpApp({ ...t.app, logger }, createToolRegistry(TOOLS), {
      bindHost: '127.0.0.1',
      port: () => 8787,
      token: SERVER_TOKEN,
      team: { store, projectKey: PROJECT, usage: async () => [] },
      allowedHosts: [],
      allowedOrigins: [],
      maxBodyBytes: 1024 * 1024,
      maxSessions: 4,
      sessionIdleMs: 60_000,
      sessionUnusedGraceMs: 60_000,
    });
    try {
      const response = await cut.fetch(
        new Request('http://127.0.0.1:8787/mcp', {
          method: 'POST',
          headers: { host: '127.0.0.1:8787', authorization: `Bearer ${tokens.alice}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify(initialize),
        }),
      );
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '5');
      // The caller is not authenticated: nothing about the database (host, port, user, name) reaches it.
      assert.equal((await errorOf(response)).message, 'Unavailable: the team database is unreachable; try again shortly');
      const refusal = logged.find((l) => l.event === 'http_refused' && l.fields.status === 503);
      assert.match(String(refusal?.fields.error), /postgres:\/\/postgres@127\.0\.0\.1:\d+\/lost/, 'the log says which database');
    } finally {
      await cut.close();
    }
  });

  it('shows calls and savings per user of this project on the status JSON, and no token', async () => {
    // Call rows as the servers of a team write them (the knowledge base's Postgres tables), one of them another project's.
    const row = (project: string, user: string | null, saved: number, outcome = 'ok') => ({
      project_key: project,
      user_name: user,
      at: Date.now(),
      process_session: 'p',
      client_session: 'c',
      tool: 'ctx_run',
      outcome,
      duration_ms: 5,
      reply_bytes: 100,
      raw_bytes: 100 + saved,
      saved_bytes: saved,
      basis: 'output kept out',
    });
    const rows = [row(PROJECT, 'alice', 4000), row(PROJECT, 'alice', 1000, 'error'), row(PROJECT, 'carol', 9000), row(PROJECT, null, 10), row('example.test/acme/site', 'bob', 99_999)];
    await db.run((sql) => sql`INSERT INTO calls ${sql(rows)}`);
    const response = await http.fetch(new Request('http://127.0.0.1:8787/status.json', { headers: { host: '127.0.0.1:8787', authorization: `Bearer ${SERVER_TOKEN}` } }));
    assert.equal(response.status, 200);
    const text = await response.text();
    const status = JSON.parse(text) as StatusSnapshot;
    assert.equal(status.team?.projectKey, PROJECT);
    assert.deepEqual(
      status.team?.users.map((u) => [u.user, u.calls, u.errors, u.savedBytes, u.replyBytes]),
      [
        ['carol', 1, 0, 9000, 100],
        ['alice', 2, 1, 5000, 200],
        [null, 1, 0, 10, 100],
      ],
      "bob's calls in another project are not mixed in",
    );
    for (const token of Object.values(tokens)) assert.ok(!text.includes(token), 'no user token on the status JSON');
    const page = await http.fetch(new Request('http://127.0.0.1:8787/status', { headers: { host: '127.0.0.1:8787', authorization: `Bearer ${SERVER_TOKEN}` } }));
    const html = await page.text();
    assert.match(html, /<h2 id="h-team">People<\/h2>/);
    assert.match(html, /<th scope="row">carol<\/th><td>1<\/td>/);
  });

  it("opens the status page to a user token with access to this project, as /mcp does: 403 for another project's user, 401 revoked", async () => {
    const grace = tokenIn(await runUsers(users, { verb: 'add', name: 'grace', projects: [PROJECT], tools: 'all' }, false));
    const heidi = tokenIn(await runUsers(users, { verb: 'add', name: 'heidi', projects: ['example.test/acme/site'], tools: 'all' }, false));
    const get = (path: string, headers: Record<string, string>) => http.fetch(new Request(`http://127.0.0.1:8787${path}`, { headers: { host: '127.0.0.1:8787', ...headers } }));
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    const json = await get('/status.json', bearer(grace));
    assert.equal(json.status, 200);
    assert.equal(((await json.json()) as StatusSnapshot).team?.projectKey, PROJECT);
    assert.equal((await get('/status', bearer(grace))).status, 200);
    const other = await get('/status.json', bearer(heidi));
    assert.equal(other.status, 403);
    assert.match(((await other.json()) as { error: string }).error, /user heidi has no access to project example\.test\/acme\/shop/);
    const otherPage = await get('/status', bearer(heidi));
    assert.equal(otherPage.status, 403);
    assert.match(await otherPage.text(), /heidi has no access/);
    assert.equal((await get('/status.json', bearer(tokens.dave!))).status, 401, 'a revoked token');
    assert.equal((await get('/status.json', bearer(`ctxg_${'y'.repeat(43)}`))).status, 401, 'an unknown token');

    // The sign-in form takes a user token too; its cookie is checked against the user on every request.
    const form = (token: string) =>
      http.fetch(new Request('http://127.0.0.1:8787/status/login', { method: 'POST', headers: { host: '127.0.0.1:8787', 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(token)}` }));
    assert.equal((await form(heidi)).status, 403);
    const signedIn = await form(grace);
    assert.equal(signedIn.status, 303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.equal((await get('/status.json', { cookie })).status, 200);
    await runUsers(users, { verb: 'revoke', name: 'grace' }, false);
    assert.equal((await get('/status.json', { cookie })).status, 401, 'revoking the token closes the page signed in with it');
    assert.equal((await get('/status.json', bearer(grace))).status, 401);
  });
});
