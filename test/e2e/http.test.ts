import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import path from 'node:path';
import { fixture, onDeno, removeDir } from '../helpers/env.ts';
import { type HttpServer, startHttp } from '../helpers/server.ts';

const TOKEN = 'test-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const accept = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } });
  const client = new Client({ name: 'ctxgate-http-test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

describe('Streamable HTTP server', () => {
  let server: HttpServer;
  let project: string;
  let dataDir: string;

  before(async () => {
    project = fixture({ 'lib/util.py': 'def util():\n    return 1\n' });
    dataDir = fixture();
    server = await startHttp(['--project-root', project], { CTXGATE_TOKEN: TOKEN, CTXGATE_DATA_DIR: dataDir });
  });

  after(async () => {
    await server.stop();
    removeDir(project);
    removeDir(dataDir);
  });

  it('serves tools to the SDK client and reuses the session', async () => {
    const { client, transport } = await connect(server.url);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'ctx_fs'));
    const sessionId = transport.sessionId;
    assert.ok(sessionId);
    const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'glob', pattern: '*.py' } })) as { content: { text: string }[] };
    assert.match(result.content[0]!.text, /lib\/util\.py/);
    assert.equal(transport.sessionId, sessionId, 'same session for later calls');
    await client.close();
  });

  it('shares one knowledge base between sessions of the same server', async () => {
    const a = await connect(server.url);
    const b = await connect(server.url);
    const indexed = (await a.client.callTool({ name: 'ctx_kb', arguments: { action: 'index', path: 'lib' } })) as { content: { text: string }[] };
    assert.match(indexed.content[0]!.text, /indexed 1 file/);
    const found = (await b.client.callTool({ name: 'ctx_kb', arguments: { action: 'search', query: 'util' } })) as { content: { text: string }[] };
    assert.match(found.content[0]!.text, /lib\/util\.py/);
    await a.client.close();
    await b.client.close();
  });

  it('surfaces a tool error as isError', async () => {
    const { client } = await connect(server.url);
    const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'ls', path: '../..' } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /outside the workdirs/);
    await client.close();
  });

  it('ends a session on DELETE, after which its id is unknown', async () => {
    const { client, transport } = await connect(server.url);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { ...auth, ...accept, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /Session not found/);
    await client.close().catch(() => undefined);
  });

  it('refuses a missing or wrong token with 401, a Bearer challenge and a JSON-RPC body saying how to authenticate', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'Bearer realm="ctxgate"'],
      [{ authorization: 'Bearer wrong-token-wrong-token' }, 'Bearer realm="ctxgate", error="invalid_token"'],
      [{ authorization: TOKEN }, 'Bearer realm="ctxgate", error="invalid_token"'],
    ];
    for (const [headers, challenge] of cases) {
      const res = await fetch(server.url, { method: 'POST', headers: { ...accept, ...headers }, body: JSON.stringify(initialize) });
      assert.equal(res.status, 401);
      // Without the challenge Claude Code takes the 401 for OAuth and shows a discovery 404 instead.
      assert.equal(res.headers.get('www-authenticate'), challenge);
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
      assert.equal(body.jsonrpc, '2.0');
      assert.match(body.error.message, /^Unauthorized: .*"Authorization: Bearer <token>"/);
      assert.doesNotMatch(JSON.stringify(body), /at .*\.(ts|js|mjs):\d+/);
    }
  });

  it('keeps accepting new clients after 64 initializes that never ended their sessions', async () => {
    for (let i = 0; i < 64; i++) {
      const res = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept }, body: JSON.stringify(initialize) });
      assert.equal(res.status, 200);
      await res.text();
    }
    const { client } = await connect(server.url);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'locate'));
    await client.close();
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding)', async () => {
    const badOrigin = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept, origin: 'http://evil.example' }, body: JSON.stringify(initialize) });
    assert.equal(badOrigin.status, 403);
    assert.match(((await badOrigin.json()) as { error: { message: string } }).error.message, /Origin 'http:\/\/evil\.example' is not allowed/);

    // Issue 23.11: another program's page on localhost is another origin.
    const otherPort = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept, origin: `http://localhost:${server.port === 65535 ? 1 : server.port + 1}` }, body: JSON.stringify(initialize) });
    assert.equal(otherPort.status, 403);
    assert.match(((await otherPort.json()) as { error: { message: string } }).error.message, /is on port \d+, not the server's port/);

    const goodOrigin = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept, origin: `http://localhost:${server.port}` }, body: JSON.stringify(initialize) });
    assert.equal(goodOrigin.status, 200);
    await goodOrigin.body?.cancel();

    // fetch() will not forge Host; a raw request does.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/healthz', headers: { host: `rebind.example:${server.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it('answers malformed JSON with a parse error and a non-initialize first call with 400', async () => {
    const res = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept }, body: '{"jsonrpc": "2.0", ' });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32700);

    const noSession = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(noSession.status, 400);
    assert.match(((await noSession.json()) as { error: { message: string } }).error.message, /initialize/);
  });

  it('refuses a body over the limit with 413', async () => {
    const big = JSON.stringify({ ...initialize, params: { ...initialize.params, padding: 'x'.repeat(5 * 1024 * 1024) } });
    const res = await fetch(server.url, { method: 'POST', headers: { ...auth, ...accept }, body: big });
    assert.equal(res.status, 413);
  });

  it('reports health without a token and without secrets', async () => {
    const res = await fetch(server.url.replace(/\/mcp$/, '/healthz'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as { status: string };
    assert.equal(body.status, 'ok');
    assert.doesNotMatch(JSON.stringify(body), new RegExp(TOKEN));
  });
});

describe('HTTP token', () => {
  let project: string;
  let saved: string | undefined;

  before(() => {
    project = fixture({ 'a.txt': 'x' });
    saved = process.env.CTXGATE_TOKEN;
    delete process.env.CTXGATE_TOKEN;
  });
  after(() => {
    if (saved !== undefined) process.env.CTXGATE_TOKEN = saved;
    removeDir(project);
  });

  /** Starts a server on `dataDir` and reads the token line it prints. */
  async function start(dataDir: string, ...args: string[]): Promise<{ server: HttpServer; token: string; how: string; file: string }> {
    const server = await startHttp(['--project-root', project, ...args], { CTXGATE_DATA_DIR: dataDir });
    const m = /token: (\S+) \((new|reused|rotated)[^;]*? (?:in|from) (\S+?);/.exec(server.stderr());
    if (!m) {
      await server.stop();
      assert.fail(`token line printed: ${server.stderr()}`);
    }
    return { server, token: m[1]!, how: m[2]!, file: m[3]! };
  }

  async function status(url: string, token: string): Promise<{ status: number; challenge: string | null }> {
    const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...accept }, body: JSON.stringify(initialize) });
    await res.body?.cancel();
    return { status: res.status, challenge: res.headers.get('www-authenticate') };
  }

  it('refuses to start with a CTXGATE_TOKEN shorter than 16 characters', async () => {
    const dataDir = fixture();
    const server = await startHttp(['--project-root', project], { CTXGATE_DATA_DIR: dataDir, CTXGATE_TOKEN: '' }).catch((e) => e as Error);
    // An empty CTXGATE_TOKEN is too short: the server refuses to start rather than run unprotected.
    assert.ok(server instanceof Error);
    assert.match(server.message, /CTXGATE_TOKEN is shorter than 16 characters/);
    removeDir(dataDir);
  });

  it('is generated when CTXGATE_TOKEN is unset, printed and written 0600 to the data dir', async () => {
    const dataDir = fixture();
    const { server, token, how, file } = await start(dataDir);
    try {
      assert.equal(how, 'new');
      const { readFileSync, statSync } = await import('node:fs');
      assert.equal(readFileSync(file, 'utf8').trim(), token);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal((await status(server.url, token)).status, 200);
      const code = await server.stop();
      // Deno's child_process reports a child we signalled as code null even when it exited 0.
      if (!onDeno) assert.equal(code, 0, 'exits 0 on SIGTERM');
      const log = readFileSync(path.join(path.dirname(file), 'ctxgate.log'), 'utf8');
      assert.match(log, /"event":"server_stop","reason":"SIGTERM"/, 'shut down gracefully');
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });

  it('prints links that work when it listens on every address (0.0.0.0)', async () => {
    const dataDir = fixture();
    const { server, token } = await start(dataDir, '--host', '0.0.0.0');
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.equal((await status(server.url, token)).status, 200);
      const login = /status page: (http:\/\/\S+)/.exec(server.stderr())?.[1];
      assert.match(login ?? '', /^http:\/\/127\.0\.0\.1:\d+\/status\/login\?code=/);
      const signedIn = await fetch(login!, { redirect: 'manual' });
      assert.equal(signedIn.status, 303);
      assert.match(server.stderr(), /claude mcp add --transport http ctxgate http:\/\/127\.0\.0\.1:/);
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });

  it('stays the same across restarts, so a saved client header keeps working, until --rotate-token', async () => {
    const dataDir = fixture();
    try {
      const first = await start(dataDir);
      await first.server.stop();
      const second = await start(dataDir);
      await second.server.stop();
      assert.equal(second.how, 'reused');
      assert.equal(second.token, first.token);
      assert.equal(second.file, first.file);

      const rotated = await start(dataDir, '--rotate-token');
      try {
        assert.equal(rotated.how, 'rotated');
        assert.notEqual(rotated.token, first.token);
        assert.deepEqual(await status(rotated.server.url, first.token), { status: 401, challenge: 'Bearer realm="ctxgate", error="invalid_token"' });
        assert.equal((await status(rotated.server.url, rotated.token)).status, 200);
      } finally {
        await rotated.server.stop();
      }
      const third = await start(dataDir);
      await third.server.stop();
      assert.equal(third.token, rotated.token, 'the rotated token is the one reused from then on');
    } finally {
      removeDir(dataDir);
    }
  });
});
