// A GET that cannot be turned against the machine it runs on: http/https only, every address the host
// resolves to is checked, the connection goes to a checked address (no second DNS answer can move
// it), every redirect (at most 5) is checked again, the body is read up to a cap while it streams,
// and no error message ever repeats the URL's user:password.
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { HttpResponseStream, ResolvedAddress, Runtime } from '../runtime/types.ts';
import { blockedHostname, blockedReason } from './address-policy.ts';
import { MAX_BODY_BYTES } from './body-limit.ts';

export { MAX_BODY_BYTES };
export const MAX_REDIRECTS = 5;

/** How the fetcher reaches the network; tests inject their own (no user-facing switch exists). */
export interface Network {
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  request: Runtime['httpRequest'];
}

export function runtimeNetwork(runtime: Runtime): Network {
  return { resolve: (h) => runtime.resolveHost(h), request: (o) => runtime.httpRequest(o) };
}

export interface FetchedBody {
  url: string;
  status: number;
  contentType: string;
  bytes: Uint8Array;
  truncated: boolean;
}

/** The URL as text without user:password, for messages. */
export function displayUrl(url: URL | string): string {
  try {
    const u = new URL(String(url));
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

export function parseFetchUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new AppError(ErrorCode.InvalidArgument, `'${displayUrl(input)}' is not a valid URL`, { hint: 'pass an absolute http:// or https:// URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(ErrorCode.InvalidArgument, `only http and https can be fetched (got ${url.protocol})`, { hint: 'pass an http:// or https:// URL' });
  }
  url.hash = '';
  return url;
}

/** Resolves the URL's host and checks every address; returns one to connect to. */
async function checkedAddress(url: URL, net: Network): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const named = blockedHostname(host);
  if (named) throw new AppError(ErrorCode.Blocked, `blocked: ${named}`, { hint: 'only public internet addresses can be fetched' });
  let addresses: ResolvedAddress[];
  if (/^[\d.]+$/.test(host) || host.includes(':')) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await net.resolve(host);
    } catch (error) {
      throw new AppError(ErrorCode.Unavailable, `cannot resolve ${host}: ${messageOf(error)}`, { hint: 'check the host name' });
    }
  }
  if (!addresses.length) throw new AppError(ErrorCode.Unavailable, `${host} has no addresses`);
  for (const a of addresses) {
    const reason = blockedReason(a.address);
    if (reason) throw new AppError(ErrorCode.Blocked, `blocked: ${host} resolves to ${reason}`, { hint: 'only public internet addresses can be fetched' });
  }
  return addresses[0]!;
}

async function readCapped(res: HttpResponseStream, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of res.body) {
    const room = limit - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += Math.max(room, 0);
      truncated = true;
      res.cancel();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truncated };
}

export async function fetchUrl(input: string, net: Network, options: { timeoutMs: number; signal?: AbortSignal; maxBytes?: number; accept?: string }): Promise<FetchedBody> {
  let url = parseFetchUrl(input);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (let hop = 0; ; hop++) {
      const target = await checkedAddress(url, net);
      let res: HttpResponseStream;
      try {
        res = await net.request({
          url,
          address: target.address,
          family: target.family,
          headers: { 'user-agent': 'ctxgate (+https://www.npmjs.com/package/ctxgate)', accept: options.accept ?? 'text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5', 'accept-encoding': 'identity' },
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) throw timeoutError(options.timeoutMs, url);
        throw new AppError(ErrorCode.Unavailable, `fetching ${displayUrl(url)} failed: ${messageOf(error)}`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        res.cancel();
        if (hop >= MAX_REDIRECTS) throw new AppError(ErrorCode.Unavailable, `more than ${MAX_REDIRECTS} redirects from ${displayUrl(input)}`);
        url = parseFetchUrl(new URL(res.headers.location, url).toString());
        continue;
      }
      if (res.status < 200 || res.status >= 300) {
        res.cancel();
        throw new AppError(ErrorCode.Unavailable, `${displayUrl(url)} answered HTTP ${res.status}; nothing was indexed`, { hint: 'check the URL' });
      }
      let body: { bytes: Uint8Array; truncated: boolean };
      try {
        body = await readCapped(res, options.maxBytes ?? MAX_BODY_BYTES);
      } catch (error) {
        if (controller.signal.aborted) throw timeoutError(options.timeoutMs, url);
        throw new AppError(ErrorCode.Unavailable, `reading ${displayUrl(url)} failed: ${messageOf(error)}`);
      }
      if (controller.signal.aborted) throw timeoutError(options.timeoutMs, url);
      return { url: url.toString(), status: res.status, contentType: res.headers['content-type'] ?? '', ...body };
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function timeoutError(ms: number, url: URL): AppError {
  return new AppError(ErrorCode.Timeout, `fetching ${displayUrl(url)} took longer than ${ms} ms`, { hint: 'raise timeoutMs, or fetch a smaller page' });
}
