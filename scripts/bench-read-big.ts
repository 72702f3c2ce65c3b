// Big-file read benchmark (issue 23.10): event-loop lag and memory while `read` answers on a file of
// SIZE_MB megabytes (default 200), and how long a small read waits meanwhile.
//
//   nice -n 10 node --import tsx scripts/bench-read-big.ts [SIZE_MB] [--one-line] [--range]
//
// A timer ticking every 10 ms measures the lag (the largest gap past its interval); RSS and heap are
// sampled on the same ticks, the growth over the idle baseline reported. A small read is started every
// 50 ms while the big read runs; its slowest answer is reported. Runs on Node; on Deno run it with
// `deno run -A scripts/bench-read-big.ts`.
import { mkdtempSync, realpathSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { CHUNK_BYTES } from '../src/retrieval/line-window.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';

const args = process.argv.slice(2);
const sizeMb = Number(args.find((a) => /^\d+$/.test(a)) ?? 200);
const oneLine = args.includes('--one-line');

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-read-')));
const dataDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-data-')));
const big = path.join(root, oneLine ? 'one-line.min.js' : 'big.log');
{
  const piece = oneLine ? 'abcdefgh,'.repeat(1 << 16) : '2026-12-01T10:00:00Z INFO request served in 12 ms from cache, user 1234 ok\n'.repeat(1 << 12);
  const fd = openSync(big, 'w');
  for (let written = 0; written < sizeMb * 1024 * 1024; written += piece.length) writeSync(fd, piece);
  closeSync(fd);
}
writeFileSync(path.join(root, 'small.txt'), 'hello\n');

const base = await loadRuntime();
const runtime = { ...base, env: { get: (n: string) => (n === 'CTXGATE_DATA_DIR' ? dataDir : base.env.get(n)), toObject: () => ({ ...base.env.toObject(), CTXGATE_DATA_DIR: dataDir }) } };
const app = createAppContext(runtime, { projectRoot: root, debug: false });
const registry = createToolRegistry(TOOLS);
const call = (tool: string, a: unknown) => registry.call(tool, a, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });

await call('read', { target: 'small.txt' });
// The first call that asks the code index opens code.db (WASM SQLite start-up and migrations, ~0.5 s
// on the main thread, once per process): done before the measure, which is of reading the big file.
await call('locate', { query: 'served' });
// Background work a fresh server starts (the code index, WASM start-up) settles first: it is not the read's.
for (let i = 0; i < 300 && app.code.status().state === 'building'; i++) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1000));
(globalThis as { gc?: () => void }).gc?.();
const mem = () => process.memoryUsage();
const idle = mem();
let maxLag = 0;
let maxRss = idle.rss;
let maxHeap = idle.heapUsed + idle.arrayBuffers;
let last = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  maxLag = Math.max(maxLag, now - last - 10);
  last = now;
  const m = mem();
  maxRss = Math.max(maxRss, m.rss);
  maxHeap = Math.max(maxHeap, m.heapUsed + m.arrayBuffers);
}, 10);

let smallMax = 0;
let smallCount = 0;
let done = false;
const smalls = (async () => {
  while (!done) {
    const t0 = performance.now();
    await call('read', { target: 'small.txt' });
    smallMax = Math.max(smallMax, performance.now() - t0);
    smallCount++;
    await new Promise((r) => setTimeout(r, 50));
  }
})();

const t0 = performance.now();
const reply = await call('read', { target: args.includes('--range') ? `${path.basename(big)}:1-40` : path.basename(big), max_tokens: 2000 });
const took = performance.now() - t0;
done = true;
await smalls;
clearInterval(ticker);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(
  JSON.stringify(
    {
      runtime: base.name,
      file: `${sizeMb} MB, ${oneLine ? 'one line' : 'log lines'}`,
      chunk: mb(CHUNK_BYTES),
      readMs: Math.round(took),
      replyChars: reply.content[0]!.text.length,
      maxEventLoopLagMs: Math.round(maxLag),
      rssGrowth: mb(maxRss - idle.rss),
      heapAndBuffersGrowth: mb(maxHeap - idle.heapUsed - idle.arrayBuffers),
      smallReadsMeanwhile: smallCount,
      slowestSmallReadMs: Math.round(smallMax),
    },
    null,
    2,
  ),
);
await app.lifecycle.shutdown('bench done');
rmSync(root, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
