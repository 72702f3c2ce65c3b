// Outgoing HTTP for the fetcher, over `node:http`/`node:https` (Deno implements both, `lookup`
// included): the connection goes to the address the caller already checked, while the Host header,
// SNI and certificate check use the URL's host name.
import { lookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import type { HttpRequestOptions, HttpResponseStream, ResolvedAddress } from './types.ts';

export async function resolveHost(hostname: string): Promise<ResolvedAddress[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export function httpRequest(options: HttpRequestOptions): Promise<HttpResponseStream> {
  const url = options.url;
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      {
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: options.headers,
        signal: options.signal,
        // Pin the connection to the checked address: no second DNS answer can redirect it.
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          if (opts?.all) cb(null, [{ address: options.address, family: options.family }]);
          else cb(null, options.address, options.family);
        }) as unknown as http.RequestOptions['lookup'],
      },
      (res) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({
          status: res.statusCode ?? 0,
          headers,
          body: res as AsyncIterable<Uint8Array>,
          cancel: () => res.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
