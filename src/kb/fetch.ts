// ctx_kb fetch: web pages and APIs into the knowledge base. Documents are keyed `source:format:url`
// (fragment and user:password stripped), so formats never overwrite each other and a URL never
// touches a longer sibling; a fresh copy within the TTL is not fetched again; identical fetches
// running at once share one request.
import { messageOf } from '../errors.ts';
import { utf8Boundary } from '../text/utf8.ts';
import { convertBody, type FetchFormat } from '../net/convert.ts';
import { displayUrl, fetchUrl, type Network, parseFetchUrl } from '../net/fetch-url.ts';
import { chunkDocument } from './chunk/index.ts';
import type { KbHandle } from './open.ts';
import type { KnowledgeStore } from './knowledge-store.ts';

export interface FetchRequest {
  url: string;
  source: string;
  format: FetchFormat;
  force: boolean;
  ttlMs: number;
  timeoutMs: number;
  /** Bytes of the page to return in the reply (the page is indexed whole regardless). */
  previewBytes: number;
  signal?: AbortSignal;
}

export interface FetchOutcome {
  url: string;
  key: string;
  cached: boolean;
  title?: string;
  status?: number;
  bytes?: number;
  /** Bytes of the page as text (what the agent would have read without the knowledge base). */
  textBytes?: number;
  chunks: number;
  truncated?: boolean;
  preview: string;
  error?: string;
}

/** Fetches in flight, per knowledge base, by document key. */
const inFlight = new WeakMap<KbHandle, Map<string, Promise<FetchOutcome>>>();

export function documentKey(source: string, format: FetchFormat, url: URL): string {
  const clean = new URL(url.toString());
  clean.hash = '';
  clean.username = '';
  clean.password = '';
  return `${source}:${format}:${clean.toString()}`;
}

function preview(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= bytes) return text;
  return `${new TextDecoder().decode(encoded.subarray(0, utf8Boundary(encoded.subarray(0, bytes))))}…`;
}

async function fetchOne(net: Network, kb: KnowledgeStore, req: FetchRequest, url: URL, key: string): Promise<FetchOutcome> {
  const label = displayUrl(url);
  if (!req.force && req.ttlMs > 0) {
    const known = await kb.source(key);
    if (known && Date.now() - known.indexed_at < req.ttlMs) {
      const first = await kb.firstChunkBody(known.id);
      return { url: label, key, cached: true, chunks: known.chunk_count, textBytes: known.bytes, preview: preview(String(first ?? ''), req.previewBytes) };
    }
  }
  const body = await fetchUrl(url.toString(), net, { timeoutMs: req.timeoutMs, signal: req.signal, accept: req.format === 'json' ? 'application/json' : undefined });
  const converted = await convertBody(body.bytes, body.contentType, req.format, body.url);
  const chunks = chunkDocument(converted.text, converted.title ?? label, converted.chunkAs);
  await kb.save({ key, kind: 'fetch', label, chunks });
  const outcome: FetchOutcome = { url: label, key, cached: false, status: body.status, bytes: body.bytes.length, textBytes: new TextEncoder().encode(converted.text).length, chunks: chunks.length, preview: preview(converted.text, req.previewBytes) };
  if (converted.title) outcome.title = converted.title;
  if (body.truncated) outcome.truncated = true;
  return outcome;
}

/** Fetches and indexes one URL; identical requests in flight share one fetch. */
export async function fetchIntoKb(kbHandle: KbHandle, net: Network, req: FetchRequest): Promise<FetchOutcome> {
  const url = parseFetchUrl(req.url);
  const key = documentKey(req.source, req.format, url);
  let running = inFlight.get(kbHandle);
  if (!running) {
    running = new Map();
    inFlight.set(kbHandle, running);
  }
  const shared = running.get(key);
  if (shared) return shared;
  const work = (async () => fetchOne(net, await kbHandle.get(), req, url, key))();
  running.set(key, work);
  try {
    return await work;
  } finally {
    running.delete(key);
  }
}

/** Several URLs, at most `limit` at a time; one failing URL does not fail the others. */
export async function fetchMany(kbHandle: KbHandle, net: Network, urls: string[], base: Omit<FetchRequest, 'url'>, limit = 3): Promise<FetchOutcome[]> {
  const out: FetchOutcome[] = new Array(urls.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, urls.length) }, async () => {
      while (next < urls.length) {
        const i = next++;
        try {
          out[i] = await fetchIntoKb(kbHandle, net, { ...base, url: urls[i]! });
        } catch (error) {
          out[i] = { url: displayUrl(urls[i]!), key: '', cached: false, chunks: 0, preview: '', error: messageOf(error) };
        }
      }
    }),
  );
  return out;
}
