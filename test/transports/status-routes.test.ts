import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Hono } from 'hono';
import { LOGIN_LINK_TTL_MS, mountStatus, type StatusRoutes } from '../../src/transports/status-routes.ts';
import type { StatusSnapshot } from '../../src/app/status.ts';
import { emptySnapshot } from '../helpers/status.ts';

const TOKEN = 'status-routes-token-0123456789';
const BASE = 'http://127.0.0.1:8787';

describe('status routes', () => {
  const mounted: StatusRoutes[] = [];
  after(() => {
    for (const m of mounted) m.close();
  });

  function app(snap: () => StatusSnapshot = () => emptySnapshot(), updateMs = 5) {
    const hono = new Hono();
    const routes = mountStatus(hono, { token: TOKEN, snapshot: async () => snap(), updateMs });
    mounted.push(routes);
    return { hono, routes };
  }

  it('refuses a huge sign-in post after reading only the start of it, and still signs in afterwards', async () => {
    const { hono } = app();
    const chunk = new TextEncoder().encode(`token=${'a'.repeat(64 * 1024)}`);
    let sent = 0;
    // 8 MiB without a content-length; without a limit all of it would be read (an endless one, until memory runs out).
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const refused = await hono.fetch(
      new Request(`${BASE}/status/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: endless, duplex: 'half' } as RequestInit),
    );
    assert.equal(refused.status, 413);
    assert.match(await refused.text(), /too large/);
    assert.ok(sent < 1024 * 1024, `read ${sent} bytes of the body`);

    const declared = await hono.fetch(
      new Request(`${BASE}/status/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${'a'.repeat(100_000)}` }),
    );
    assert.equal(declared.status, 413);
    await declared.body?.cancel();

    const ok = await hono.fetch(new Request(`${BASE}/status/login`, { method: 'POST', body: new URLSearchParams({ token: TOKEN }) }));
    assert.equal(ok.status, 303);
    assert.match(ok.headers.get('set-cookie') ?? '', /^ctxgate_status=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
  });

  // Issue 23.11: the cookie's path must cover /status.json, which is not under /status/.
  it('lets the sign-in cookie reach /status.json as well as /status', async () => {
    const { hono } = app();
    const login = await hono.fetch(new Request(`${BASE}/status/login`, { method: 'POST', body: new URLSearchParams({ token: TOKEN }) }));
    const setCookie = login.headers.get('set-cookie') ?? '';
    const cookie = setCookie.split(';')[0]!;
    const cookiePath = /Path=([^;]+)/.exec(setCookie)?.[1] ?? '';
    for (const route of ['/status', '/status.json']) {
      // A browser sends a cookie only where its path is the route or a folder above it.
      assert.ok(route === cookiePath || route.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`), `the cookie (Path=${cookiePath}) reaches ${route}`);
      const res = await hono.fetch(new Request(`${BASE}${route}`, { headers: { cookie } }));
      assert.equal(res.status, 200, route);
      await res.body?.cancel();
    }
  });

  // Issue 23.11: the JSON quoted job output the page hides.
  it('serves /status.json with the same lines and labels hidden as the page', async () => {
    const job = { id: 'j1', pid: 1, running: false, ageMs: 5, exit_code: 0, signal: null, log_bytes: 10, log_truncated: false };
    const snap = emptySnapshot({
      jobs: [{ ...job, label: 'deploy https://u:hunter2@db.example/x', tail: 'building\nMYPASS=hunter2\nGITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\ndone' }],
    });
    const { hono } = app(() => snap);
    const res = await hono.fetch(new Request(`${BASE}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } }));
    const body = (await res.json()) as StatusSnapshot;
    const text = JSON.stringify(body);
    assert.doesNotMatch(text, /hunter2|ghp_/);
    assert.equal(body.jobs[0]!.label, '(label not shown: it holds a URL with a password)');
    assert.equal(body.jobs[0]!.tail, 'building\n(line not shown: it holds a secret assignment)\n(line not shown: it holds an access token)\ndone');
    const page = await (await hono.fetch(new Request(`${BASE}/status`, { headers: { authorization: `Bearer ${TOKEN}` } }))).text();
    assert.match(page, /\(line not shown: it holds a secret assignment\)/);
    assert.doesNotMatch(page, /hunter2|ghp_/);
  });

  // Issue 23.11: a link nobody used stops working after five minutes; the server prints a new one.
  it('lets an unused sign-in link expire after 5 minutes and prints a new one', async () => {
    let clock = 1_000_000;
    const printed: string[] = [];
    const hono = new Hono();
    const routes = mountStatus(hono, { token: TOKEN, snapshot: async () => emptySnapshot(), now: () => clock, onNewLoginPath: (p) => printed.push(p) });
    mounted.push(routes);
    const first = routes.loginPath();
    clock += LOGIN_LINK_TTL_MS + 1;
    const late = await hono.fetch(new Request(`${BASE}${first}`));
    assert.equal(late.status, 401);
    assert.match(await late.text(), /This sign-in link has expired \(links work for 5 minutes\)/);
    assert.equal(printed.length, 1, 'a new link was printed');
    assert.notEqual(printed[0], first);
    clock += LOGIN_LINK_TTL_MS - 1;
    const fresh = await hono.fetch(new Request(`${BASE}${printed[0]}`));
    assert.equal(fresh.status, 303, 'the new link works within its 5 minutes');
    clock += LOGIN_LINK_TTL_MS + 1;
    const asked = routes.loginPath();
    assert.notEqual(asked, printed[1], 'a link asked for after its time is a new one');
    assert.equal((await hono.fetch(new Request(`${BASE}${asked}`))).status, 303);
  });

  it('holds only a few unsent updates for an event stream whose reader stopped reading', async () => {
    let renders = 0;
    // Every render differs, so every tick is an update for the stream.
    const { hono, routes } = app(() => emptySnapshot({ sessionsOpen: ++renders }));
    const res = await hono.fetch(new Request(`${BASE}/status/events`, { headers: { authorization: `Bearer ${TOKEN}` } }));
    assert.equal(res.status, 200);
    // Nobody reads while the ticker renders 40 updates.
    while (renders < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    routes.close();
    const text = await res.text();
    const updates = text.split('event: update').length - 1;
    assert.ok(updates >= 1, 'the stream got the body');
    assert.ok(updates <= 5, `${updates} of 40 updates were queued for a reader that never read`);
  });
});
