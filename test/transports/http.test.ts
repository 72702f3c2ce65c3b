import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../src/transports/http.ts';

const TOKEN = 'test-token-0123456789abcdef';
const MINUTE = 60_000;

function rpc(method: string, id?: number, params: unknown = {}) {
  return { jsonrpc: '2.0', method, params, ...(id === undefined ? {} : { id }) };
}
const initialize = rpc('initialize', 1, { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });

describe('HTTP app sessions', () => {
  let project: string;
  let t: TestApp;
  const opened: HttpApp[] = [];
  let clock = 0;

  before(() => {
    project = fixture({ 'a.py': 'def a():\n    pass\n' });
    t = testApp(project);
  });
  after(async () => {
    await Promise.all(opened.map((h) => h.close()));
    await t.close();
    removeDir(project);
  });

  function httpApp(options: Partial<HttpAppOptions> = {}) {
    const http = createHttpApp(t.app, createToolRegistry(TOOLS), {
      bindHost: '127.0.0.1',
      port: () => 8787,
      token: TOKEN,
      allowedHosts: [],
      allowedOrigins: [],
      maxBodyBytes: 1024 * 1024,
      maxSessions: 64,
      sessionIdleMs: 30 * MINUTE,
      sessionUnusedGraceMs: MINUTE,
      now: () => clock,
      ...options,
    });
    opened.push(http);
    const send = (method: string, body?: unknown, session?: string) =>
      http.fetch(
        new Request('http://127.0.0.1:8787/mcp', {
          method,
          headers: {
            host: '127.0.0.1:8787',
            authorization: `Bearer ${TOKEN}`,
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    return {
      http,
      send,
      /** A bare initialize, its answer read to the end, never followed by anything. */
      async bare(): Promise<string> {
        const res = await send('POST', initialize);
        assert.equal(res.status, 200, await res.clone().text());
        await res.text();
        return res.headers.get('mcp-session-id')!;
      },
      /** What a real client does: initialize, then the initialized notification. */
      async client(): Promise<string> {
        const id = await this.bare();
        const res = await send('POST', rpc('notifications/initialized'), id);
        assert.equal(res.status, 202);
        return id;
      },
    };
  }

  it('still lets a new client in after 64 bare initializes that were never ended', async () => {
    const h = httpApp();
    for (let i = 0; i < 64; i++) await h.bare();
    assert.equal(h.http.sessionCount, 64);
    const id = await h.client();
    assert.equal(h.http.sessionCount, 64, 'the least recently used bare session made room');
    const listed = await h.send('POST', rpc('tools/list', 2), id);
    assert.equal(listed.status, 200);
    assert.match(await listed.text(), /ctx_fs/);
  });

  it('ends sessions nobody used after the grace, and idle ones after the idle time', async () => {
    const h = httpApp();
    await h.bare();
    await h.bare();
    const used = await h.client();
    clock += MINUTE + 1;
    const fresh = await h.client();
    assert.equal(h.http.sessionCount, 2, 'the two bare sessions are gone, the used one stays');
    const listed = await h.send('POST', rpc('tools/list', 2), used);
    assert.equal(listed.status, 200);
    await listed.text();
    clock += 30 * MINUTE + 1;
    await h.client();
    assert.equal(h.http.sessionCount, 1, 'both idle sessions ended when the next one started');
    const gone = await h.send('POST', rpc('tools/list', 3), fresh);
    assert.equal(gone.status, 404);
  });

  it('never evicts a session with an open stream, and answers 503 with Retry-After only when all are busy', async () => {
    const h = httpApp({ maxSessions: 2 });
    const streaming = await h.client();
    const stream = await h.send('GET', undefined, streaming);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    await h.client();
    await h.client();
    await h.client();
    assert.equal(h.http.sessionCount, 2);
    const listed = await h.send('POST', rpc('tools/list', 2), streaming);
    assert.equal(listed.status, 200, 'the streaming session survived three evictions');
    await listed.text();

    const only = httpApp({ maxSessions: 1 });
    const busy = await only.client();
    const held = await only.send('GET', undefined, busy);
    const refused = await only.send('POST', initialize);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    const body = (await refused.json()) as { jsonrpc: string; error: { message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.match(body.error.message, /all 1 have a request in flight or a stream open/);
    await held.body?.cancel();
    await only.bare();
    await stream.body?.cancel();
  });
});
