import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Hono } from 'hono';
import { mountStatus, type StatusRoutes } from '../../src/transports/status-routes.ts';
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
    assert.match(ok.headers.get('set-cookie') ?? '', /^ctxgate_status=[^;]+; Path=\/status; HttpOnly; SameSite=Strict/);
  });

  it('holds only a few unsent updates for an event stream whose reader stopped reading', async () => {
    let renders = 0;
    // Every render differs, so every tick is an update for the stream.
    const { hono, routes } = app(() => emptySnapshot({ startedAt: ++renders }));
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
