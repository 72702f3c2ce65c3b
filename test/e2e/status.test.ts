import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { type HttpServer, startHttp } from '../helpers/server.ts';

// Issue 16: the status page of `ctxgate serve`, checked in a real browser (Debian's chromium) after
// real tool calls. CTXGATE_STATUS_SCREENSHOT=<file.png> keeps a screenshot (the README's).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const TOKEN = 'status-test-token-0123456789';

describe('status page', () => {
  let root: string;
  let dataDir: string;
  let server: HttpServer;
  let client: Client;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  const base = () => server.url.replace(/\/mcp$/, '');
  const loginLink = () => {
    const links = [...server.stderr().matchAll(/(http:\/\/\S+\/status\/login\?code=\S+)/g)];
    return links[links.length - 1]![1]!;
  };

  before(async () => {
    root = fixture({
      'docs/guide.md': `# Guide\n\n${'Widgets render in frames.\n'.repeat(50)}`,
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`lib/w${i}.ts`, `export function render${i}() {\n  return widget(${i});\n}\n`])),
    });
    dataDir = fixture();
    server = await startHttp(['--project-root', root], { CTXGATE_DATA_DIR: dataDir, CTXGATE_TOKEN: TOKEN });
    client = new Client({ name: 'status-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    await call('ctx_kb', { action: 'index', path: 'docs' });
    await call('ctx_run', { action: 'execute', command: 'seq 1 60000' });
    await call('search', { pattern: 'widget' });
    await call('search', { pattern: 'widget', scope: 'lib', force: true, max_hits: 3 });
    await call('ctx_run', { action: 'execute', command: 'echo job-started; sleep 30', background: true });
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    removeDir(root);
    removeDir(dataDir);
  });

  it('refuses without the cookie or the token, and never takes the token in a URL', async () => {
    for (const p of ['/status', '/status/events', '/status.json', '/status/login?code=wrong', `/status?token=${TOKEN}`]) {
      const r = await fetch(`${base()}${p}`);
      assert.equal(r.status, 401, p);
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/, p);
      await r.body?.cancel();
    }
    const page = await fetch(`${base()}/status`);
    assert.match(await page.text(), /<form method="post" action="\/status\/login">/);
  });

  it('serves scripts that send the bearer token, with every figure the page shows', async () => {
    const r = await fetch(`${base()}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(r.status, 200);
    const s = (await r.json()) as { codeSearch: string; usage: { project: { calls: number; savedBytes: number; byBasis: { basis: string }[] } }; gate: { refused: { reason: string }[]; followed: number }; jobs: { running: boolean }[] };
    assert.ok(s.usage.project.calls >= 5);
    assert.ok(s.usage.project.savedBytes > 0);
    assert.deepEqual(s.usage.project.byBasis.map((b) => b.basis).sort(), ['output kept out', 'rg -n output']);
    assert.equal(s.gate.refused.length, 1);
    assert.equal(s.gate.followed, 1);
    assert.equal(s.jobs.filter((j) => j.running).length, 1);
    assert.match(s.codeSearch, /^code index(?: building: \d+ of \d+ files|: (?:complete|first build not finished), \d+ files)/, 'the gate calls started the code index');
  });

  it('shows savings, the gate, recent calls, jobs and the knowledge base in a browser, live', { skip: CHROMIUM ? false : 'chromium is not installed (apt-get install chromium)' }, async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const cspErrors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') cspErrors.push(m.text());
      });
      const link = loginLink();
      const response = await page.goto(link);
      assert.equal(response?.status(), 200);
      assert.equal(new URL(page.url()).pathname, '/status', 'the link signs in and lands on the page');
      assert.equal(await page.title(), `ctxgate status — ${root}`);
      const main = page.locator('main');
      // innerText: what a reader sees, laid out (textContent would run cells together).
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
      const text = await main.innerText();
      assert.match(text, /kept out of replies/);
      assert.match(text, /output kept out/);
      assert.match(text, /rg -n output/);
      assert.match(text, /refused \(/);
      assert.match(text, /answered \(1 right after a refusal\)/);
      assert.match(text, /ctx_run execute/);
      assert.match(text, /running/);
      assert.match(text, /job-started/);
      assert.match(text, /documents, \d+ chunks/);
      assert.equal(await page.locator('svg[role="img"]').count(), 1);
      assert.ok((await page.locator('table th[scope="col"]').count()) > 5, 'tables have header cells');
      // waitForFunction checks every animation frame unless told otherwise: 100 ms apart is plenty for
      // a page the server updates every 2 s (and spares the renderer laying out the page 60 times a second).
      const every = 100;
      await page.waitForFunction(() => document.getElementById('live')?.textContent === 'live', undefined, { timeout: 15_000, polling: every });

      // A new call shows up without a reload.
      await call('ctx_fs', { action: 'ls' });
      await page.waitForFunction(() => document.querySelector('main')?.textContent?.includes('ctx_fs ls'), undefined, { timeout: 15_000, polling: every });
      assert.deepEqual(cspErrors, [], 'the page runs under its CSP without errors');

      // A call that is still running shows with its arguments and how long it has run, then moves
      // to the recent calls once it answers: ctx_run waits on a FIFO until the test writes to it.
      execFileSync('mkfifo', [path.join(root, 'hold.fifo')]);
      const held = call('ctx_run', { action: 'execute', command: 'read line < hold.fifo; echo "released $line"' });
      const inFlight = page.locator('section[aria-labelledby="h-in-flight"]');
      await inFlight.locator('td', { hasText: 'hold.fifo' }).waitFor({ timeout: 20_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
      const running = await inFlight.innerText();
      assert.match(running, /1 being answered now/);
      assert.match(running, /ctx_run execute\s+command="read line < hold\.fifo; echo \\"released \$line\\""\s+\d+(?: ms|\.\d s)/, running);
      await writeFile(path.join(root, 'hold.fifo'), 'now\n');
      assert.match(JSON.stringify((await held).content), /released now/);
      await inFlight.getByText('No call is being answered now.').waitFor({ timeout: 20_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
      const recent = await page.locator('section[aria-labelledby="h-recent"]').innerText();
      assert.match(recent, /ctx_run execute\s+command="read line < hold\.fifo;/, 'the finished call is among the recent ones, with its arguments');
      assert.match(recent, /search\s+pattern="widget" scope="lib" force=true max_hits=3/, 'two search calls told apart by their arguments');
      assert.match(recent, /search\s+pattern="widget"\s+refused/);

      // Sessions: this test's client holds its stream open (active); a client that goes away without
      // ending its session shows as gone; one that ends it (DELETE) is no longer counted.
      const gone = new Client({ name: 'leaves-without-a-word', version: '2' });
      await gone.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      // The SDK opens the client's GET stream after connect() has returned: closed before the server
      // holds that stream, the client would not have hung up on anything (idle, not gone).
      await page.waitForFunction(
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
        () => /leaves-without-a-word 2\s+active/.test((document.querySelector('section[aria-labelledby="h-sessions"]') as HTMLElement | null)?.innerText ?? ''),
        undefined,
        { timeout: 20_000, polling: every },
      );
      const polite = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
      await new Client({ name: 'says-goodbye', version: '3' }).connect(polite);
      await polite.terminateSession();
      await polite.close();
      await gone.close();
      const sessions = page.locator('section[aria-labelledby="h-sessions"]');
      await sessions.getByText('2 open: 1 active, 1 client gone').waitFor({ timeout: 20_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
      const table = await sessions.innerText();
      assert.match(table, /status-test 1\s+active/);
      assert.match(table, /leaves-without-a-word 2\s+client hung up .* ago\s+\S+\s+in .* unless it comes back/);
      assert.doesNotMatch(table, /says-goodbye/);

      const shot = process.env.CTXGATE_STATUS_SCREENSHOT;
      if (shot) {
        mkdirSync(path.dirname(path.resolve(shot)), { recursive: true });
        await page.setViewportSize({ width: 1100, height: 1000 });
        await page.screenshot({ path: shot, fullPage: false });
      }

      // A used link does not sign in again; a fresh browser without the cookie is refused.
      const other = await browser.newPage();
      const again = await other.goto(link);
      assert.equal(again?.status(), 401);
      const narrow = await browser.newPage({ viewport: { width: 360, height: 800 } });
      const refused = await narrow.goto(`${base()}/status`);
      assert.equal(refused?.status(), 401);
      await narrow.goto(loginLink());
      const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `no sideways scrolling on a narrow window (${overflow} px)`);
    } finally {
      await browser.close();
    }
  });
});
