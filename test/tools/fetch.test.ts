import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Network } from '../../src/net/fetch-url.ts';
import { createClientSession } from '../../src/app/context.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

const PUBLIC = '93.184.216.34';

const PAGE = `<!doctype html><html><head><title>Retry Guide</title><style>.x{color:red}</style><script>alert("tracking")</script></head>
<body><nav>Home | Docs | Blog</nav><main><h1>Retry Guide</h1><p>Use exponential backoff with jitter.</p>
<h2>Limits</h2><p>Give up after five attempts.</p><pre><code>retry(fn, { attempts: 5 })</code></pre></main><footer>© footer noise</footer></body></html>`;

describe('ctx_kb fetch', () => {
  let server: http.Server;
  let port: number;
  let root: string;
  let t: TestApp;
  const resolved: string[] = [];
  let rebindCount = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (url === '/page') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(PAGE);
      } else if (url === '/latin1') {
        res.setHeader('content-type', 'text/plain; charset=iso-8859-1');
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65])); // "café naïve"
      } else if (url === '/api') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ service: { name: 'orders', limits: { rps: 250 } } }));
      } else if (url === '/to-private') {
        res.statusCode = 302;
        res.setHeader('location', `http://127.0.0.1:${port}/secret`);
        res.end();
      } else if (url === '/to-page') {
        res.statusCode = 301;
        res.setHeader('location', '/page');
        res.end();
      } else if (url === '/missing') {
        res.statusCode = 404;
        res.end('not here');
      } else if (url === '/huge') {
        res.setHeader('content-type', 'text/plain');
        const line = `${'x'.repeat(99)}\n`;
        let sent = 0;
        const pump = () => {
          while (sent < 11 * 1024 * 1024) {
            sent += line.length;
            if (!res.write(line)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else if (url === '/slow') {
        res.setHeader('content-type', 'text/plain');
        res.write('start\n');
        setTimeout(() => res.end('late\n'), 3000);
      } else if (url.startsWith('/v')) {
        res.setHeader('content-type', 'text/plain');
        res.end(`version ${url}\n`);
      } else {
        res.statusCode = 500;
        res.end('unexpected');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    root = fixture();
    t = testApp(root);
    // The test network: names resolve to public addresses (so the policy lets them through), and
    // every connection is dialled to the local test server. No user-facing switch exists for this.
    const net: Network = {
      async resolve(host) {
        resolved.push(host);
        if (host === 'rebind.test') return [{ address: rebindCount++ === 0 ? PUBLIC : '127.0.0.1', family: 4 }];
        if (host === 'internal.test') return [{ address: PUBLIC, family: 4 }, { address: '10.0.0.5', family: 4 }];
        if (host === 'metadata.test') return [{ address: '::ffff:169.254.169.254', family: 6 }];
        return [{ address: PUBLIC, family: 4 }];
      },
      async request(options) {
        assert.ok(options.address === PUBLIC || options.address === '8.8.8.8', `connects only to checked addresses (got ${options.address})`);
        return runtime.httpRequest({ ...options, address: '127.0.0.1', family: 4 });
      },
    };
    t.app.net = net;
  });

  after(async () => {
    await t.close();
    removeDir(root);
    await new Promise((r) => server.close(r));
  });

  const call = async (args: Record<string, unknown>) => {
    const r = await t.call('ctx_kb', args, createClientSession(crypto.randomUUID()));
    return { r, text: textOf(r), data: (r.structuredContent ?? {}) as { results?: Record<string, unknown>[]; hits?: { label: string; snippet: string }[] } };
  };
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;

  it('turns a page into markdown without scripts, styles or page chrome, indexes it and answers with a preview', async () => {
    const { text, data } = await call({ action: 'fetch', url: `${at('docs.test', '/page')}#section-2` });
    assert.match(text, /HTTP 200, \d+ bytes → \d+ chunks — "Retry Guide"/);
    assert.match(text, /# Retry Guide\n\nUse exponential backoff with jitter\./);
    assert.doesNotMatch(text, /tracking|color:red|footer noise|Home \| Docs/);
    assert.equal(data.results?.[0]?.key, `web:markdown:${at('docs.test', '/page')}`, 'fragment stripped from the key');
    const found = await call({ action: 'search', query: 'five attempts' });
    assert.match(found.text, /Retry Guide > Limits/);
  });

  it('serves a fresh copy from the cache, and fetches again with force or ttl 0', async () => {
    const cached = await call({ action: 'fetch', url: at('docs.test', '/page') });
    assert.match(cached.text, /cached copy/);
    assert.match((await call({ action: 'fetch', url: at('docs.test', '/page'), force: true })).text, /HTTP 200/);
    assert.match((await call({ action: 'fetch', url: at('docs.test', '/page'), ttl: 0 })).text, /HTTP 200/);
  });

  it('keeps formats apart and never touches a longer sibling URL', async () => {
    await call({ action: 'fetch', url: at('api.test', '/api'), format: 'json' });
    await call({ action: 'fetch', url: at('api.test', '/api'), format: 'html' });
    await call({ action: 'fetch', url: at('api.test', '/v1') });
    await call({ action: 'fetch', url: at('api.test', '/v10') });
    await call({ action: 'fetch', url: at('api.test', '/v1'), force: true });
    const kb = await t.app.kb.get();
    for (const key of [`web:json:${at('api.test', '/api')}`, `web:html:${at('api.test', '/api')}`, `web:markdown:${at('api.test', '/v1')}`, `web:markdown:${at('api.test', '/v10')}`]) {
      assert.ok(kb.source(key), key);
    }
    const json = await call({ action: 'search', query: 'rps', source: '/api' });
    assert.match(json.text, /service\.limits: \{"rps":250\}/);
  });

  it('decodes the declared charset', async () => {
    const { text } = await call({ action: 'fetch', url: at('docs.test', '/latin1') });
    assert.match(text, /café naïve/);
  });

  it('follows redirects but checks each hop, and refuses one that leads to a private address', async () => {
    assert.match((await call({ action: 'fetch', url: at('docs.test', '/to-page'), ttl: 0 })).text, /"Retry Guide"/);
    const { r, text } = await call({ action: 'fetch', url: at('docs.test', '/to-private') });
    assert.equal(r.isError, true);
    assert.match(text, /blocked: 127\.0\.0\.1 resolves to 127\.0\.0\.1 is in a loopback/);
  });

  it('checks every address a name resolves to, embedded IPv4 included', async () => {
    assert.match((await call({ action: 'fetch', url: at('internal.test', '/page') })).text, /blocked: internal\.test resolves to 10\.0\.0\.5 is in a private/);
    assert.match((await call({ action: 'fetch', url: at('metadata.test', '/page') })).text, /carries 169\.254\.169\.254 .*link-local .*metadata/);
  });

  it('connects to the address it checked, so a second DNS answer cannot rebind it', async () => {
    const { text } = await call({ action: 'fetch', url: at('rebind.test', '/page') });
    assert.match(text, /HTTP 200/);
    assert.equal(resolved.filter((h) => h === 'rebind.test').length, 1, 'resolved once; the checked answer was used to connect');
  });

  it('refuses loopback, private and odd IPv4 spellings and localhost names before any request', async () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::1]/', 'http://[::ffff:7f00:1]/', 'http://localhost/', 'http://app.localhost:8080/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/', 'http://[fd00::1]/']) {
      const { r, text } = await call({ action: 'fetch', url, ttl: 0 });
      assert.equal(r.isError, true, url);
      assert.match(text, /blocked/, url);
    }
  });

  it('refuses other schemes and never repeats user:password from the URL', async () => {
    assert.match((await call({ action: 'fetch', url: 'file:///etc/passwd' })).text, /only http and https/);
    const { text } = await call({ action: 'fetch', url: 'http://admin:hunter2@127.0.0.1/' });
    assert.doesNotMatch(text, /hunter2|admin:/);
    const missing = await call({ action: 'fetch', url: `http://user:s3cret@docs.test:${port}/missing` });
    assert.match(missing.text, /HTTP 404; nothing was indexed/);
    assert.doesNotMatch(missing.text, /s3cret/);
  });

  it('cuts a body at 10 MB while reading and says so', async () => {
    const { text, data } = await call({ action: 'fetch', url: at('big.test', '/huge') });
    assert.match(text, /body truncated at 10MB/);
    assert.equal(data.results?.[0]?.bytes, 10 * 1024 * 1024);
    // The page stayed out of the reply: the usage row says so, against the page's text.
    await t.app.usage.flush();
    const row = (await (await t.app.kb.get()).recentCalls(20)).find((c) => c.tool === 'ctx_kb' && c.action === 'fetch');
    assert.equal(row?.basis, 'page kept out');
    assert.equal(row?.rawBytes, 10 * 1024 * 1024);
    assert.equal(row?.savedBytes, Number(row?.rawBytes) - Number(row?.replyBytes));
  });

  it('gives up on a slow body at timeoutMs', async () => {
    const started = Date.now();
    const { text } = await call({ action: 'fetch', url: at('slow.test', '/slow'), timeoutMs: 500 });
    assert.match(text, /took longer than 500 ms/);
    assert.ok(Date.now() - started < 2500);
  });

  it('fetches several URLs, reports each, and shares identical fetches in flight', async () => {
    const { text } = await call({ action: 'fetch', urls: [at('a.test', '/v2'), at('b.test', '/missing'), at('c.test', '/v3')], ttl: 0 });
    assert.match(text, /a\.test.*HTTP 200/);
    assert.match(text, /✗ .*b\.test.*HTTP 404/);
    assert.match(text, /c\.test.*HTTP 200/);
    const before = resolved.length;
    await Promise.all([call({ action: 'fetch', url: at('same.test', '/v9'), ttl: 0 }), call({ action: 'fetch', url: at('same.test', '/v9'), ttl: 0 })]);
    assert.equal(resolved.slice(before).filter((h) => h === 'same.test').length, 1, 'one request for two identical fetches');
    assert.match((await call({ action: 'fetch', urls: Array.from({ length: 11 }, (_, i) => at('x.test', `/v${i}`)) })).text, /at most 10 urls/);
  });
});
