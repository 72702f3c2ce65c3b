import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveSafe } from '../../src/security/resolve-safe.ts';
import { createAdmission } from '../../src/workspace/grep/admission.ts';
import { countBuiltin, grepBuiltin, scanListBuiltin } from '../../src/workspace/grep/builtin.ts';
import { createGrepPool, type GrepPool } from '../../src/workspace/grep/grep-pool.ts';
import { createControl, type ScanJobResult } from '../../src/workspace/grep/scan-files.ts';
import type { GrepQuery } from '../../src/workspace/grep/types.ts';
import { bundledWorkerPool } from '../helpers/bundle.ts';
import { fixture, onDeno, removeDir, runtime } from '../helpers/env.ts';
import { testApp, textOf } from '../helpers/app.ts';

// Enough files (~250) that a search goes to the workers in several batches of 64 (and one stopped at
// its limit leaves batches in flight); names that sort differently
// by name and by path (a-b.c before a/, a/ before a_b/), ignored, hidden, secret and binary files.
function tree(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {
    '.gitignore': 'build/\n*.log\n',
    'build/out.c': 'kmalloc_array built\n',
    'debug.log': 'kmalloc_array log\n',
    '.hidden/x.c': 'kmalloc_array hidden\n',
    '.env': 'KMALLOC=kmalloc_array\n',
    'keys/server.pem': 'kmalloc_array pem\n',
    'bin/blob.bin': new Uint8Array([0, 107, 109, 97, 108, 108, 111, 99, 10]),
    'a-b.c': 'int kmalloc_array(void);\n',
    'a/x.c': 'p = kmalloc_array(n, size);\n',
    'a_b/y.c': 'q = KMALLOC_ARRAY(n);\n',
    'bom.c': '\ufeffkmalloc_array at the start\r\nsecond line\r\n',
    'i18n/wörter.txt': 'größe kmalloc_arrayé\nnaïve kmalloc_array\n',
  };
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 20; f++) {
      const lines: string[] = [];
      for (let l = 0; l < 30; l++) {
        const k = d * 1000 + f * 30 + l;
        if (k % 7 === 0) lines.push(`\tbuf = kmalloc_array(${k}, sizeof(*buf), GFP_KERNEL);`);
        else if (k % 11 === 0) lines.push(`\tretry_count = ${k}; /* Kmalloc_Array retry count */`);
        else if (k % 13 === 0) lines.push(`\tmy_kmalloc_array_x(${k});`);
        else lines.push(`\tline ${k} of dir ${d} file ${f}`);
      }
      files[`drivers/d${String(d).padStart(2, '0')}/${f % 3 === 0 ? 'sub/' : ''}f${f}.${f % 2 ? 'c' : 'h'}`] = `${lines.join('\n')}\n`;
    }
  }
  return files;
}

const QUERIES: { name: string; query: Partial<GrepQuery> }[] = [
  { name: 'a literal', query: { pattern: 'kmalloc_array', literal: true } },
  { name: 'a regex', query: { pattern: 'retry.*count' } },
  { name: 'a case-insensitive literal', query: { pattern: 'kmalloc_array', literal: true, ignoreCase: true } },
  { name: 'whole words', query: { pattern: 'kmalloc_array', literal: true, wordBoundary: true } },
  { name: 'a glob', query: { pattern: 'kmalloc_array', literal: true, glob: '*.c' } },
  { name: 'an excluding glob and context lines', query: { pattern: 'kmalloc_array', literal: true, glob: '!*.h', context: 2 } },
  { name: 'a regex with context, case-insensitive', query: { pattern: 'k[a-z]+_array\\(', ignoreCase: true, context: 1 } },
  { name: 'an absent literal', query: { pattern: 'PathDeniedError', literal: true } },
];

const LIMITS = [5, 40, 5000];

describe('the built-in engine on grep workers', () => {
  let root: string;
  let pool: GrepPool;
  const events: string[] = [];
  let bothReady: () => void = () => undefined;
  before(async () => {
    root = fixture(tree());
    const ready = new Promise<void>((resolve) => {
      bothReady = resolve;
    });
    pool = createGrepPool(runtime, {
      workers: 2,
      onEvent: (e) => {
        events.push(e);
        if (events.filter((x) => x === 'worker_ready').length === 2) bothReady();
      },
    });
    // Ready before the searches: while none is, a search of up to 1,024 files runs in this thread.
    pool.warm();
    await ready;
    assert.equal(pool.readyWorkers(), 2);
  });
  after(async () => {
    await pool.close();
    removeDir(root);
  });
  /** What a search of `rel` may see (the admission every engine reads; its glob applied). */
  const target = (rel?: string, query: Partial<GrepQuery> = {}) => createAdmission({ fs: runtime.fs, workdirs: { dirs: [root] } }, resolveSafe(runtime.fs, { dirs: [root] }, rel), query);
  const q = (query: Partial<GrepQuery>, limit: number): GrepQuery => ({ pattern: 'x', literal: false, ignoreCase: false, context: 0, limit, ...query });

  for (const { name, query } of QUERIES) {
    it(`answers ${name} exactly as the main thread does: lines, counts and a list scan, at every limit`, async () => {
      // One admission per query, read by every engine (as a gate's scan does).
      const admission = await target(undefined, query);
      // Counts take no limit (count mode reads none): once per query.
      const counts = await countBuiltin(runtime.fs, admission, q(query, LIMITS[0]!), undefined, undefined, { pool });
      assert.deepEqual(counts, await countBuiltin(runtime.fs, admission, q(query, LIMITS[0]!)), 'counts');
      const list = [...counts.keys(), 'a-b.c', 'drivers/d03/f1.c', 'missing.c'];
      for (const limit of LIMITS) {
        const full = q(query, limit);
        const here = await grepBuiltin(runtime.fs, admission, full);
        const there = await grepBuiltin(runtime.fs, admission, full, undefined, undefined, { pool });
        assert.deepEqual(there, here, `grep, limit ${limit}`);
        const listed = await scanListBuiltin(runtime.fs, admission, full, list, undefined, { pool });
        assert.deepEqual(listed, await scanListBuiltin(runtime.fs, admission, full, list), `list scan, limit ${limit}`);
      }
      assert.ok(events.includes('worker_ready'), 'the searches ran on workers');
    });
  }

  it('lists files in path order and stops once it has its matches', async () => {
    const r = await grepBuiltin(runtime.fs, await target(), q({ pattern: 'kmalloc_array', literal: true }, 3), undefined, undefined, { pool });
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['a-b.c', 'a/x.c', 'bom.c'],
    );
    assert.equal(r.truncated, true);
    assert.equal(r.files[2]!.lines[0]!.text, 'kmalloc_array at the start');
  });

  it('searches a subfolder with the same answer as the main thread', async () => {
    const full = q({ pattern: 'kmalloc_array', literal: true }, 5000);
    assert.deepEqual(await grepBuiltin(runtime.fs, await target('drivers/d03'), full, undefined, undefined, { pool }), await grepBuiltin(runtime.fs, await target('drivers/d03'), full));
  });
});

describe('grep workers that have not started yet', () => {
  // A new process's first search: its workers are still starting (0.3–0.5 s on a loaded machine).
  // Workers that never become ready stand for them: a search they had to run would never end.
  let root: string;
  let pool: GrepPool;
  const started: string[] = [];
  before(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`src/f${String(i).padStart(3, '0')}.c`] = `${'filler line\n'.repeat(2000)}p = kmalloc_array(${i});\n`;
    root = fixture(files);
    const silent = {
      ...runtime,
      startWorker: () => {
        started.push('worker');
        return { postMessage() {}, onMessage() {}, onError() {}, onExit() {}, setBusy() {}, terminate: async () => undefined };
      },
    };
    pool = createGrepPool(silent, { workers: 2 });
    pool.warm();
  });
  after(async () => {
    await pool.close();
    removeDir(root);
  });
  const target = () => createAdmission({ fs: runtime.fs, workdirs: { dirs: [root] } }, resolveSafe(runtime.fs, { dirs: [root] }, undefined), {});

  it('answers a literal over a few hundred files (4.8 MB) in this thread, as without workers, instead of waiting for them', { timeout: 60_000 }, async () => {
    assert.ok(started.length > 0, 'the workers were asked to start');
    const query: GrepQuery = { pattern: 'kmalloc_array', literal: true, ignoreCase: false, context: 0, limit: 50 };
    const list = Array.from({ length: 200 }, (_, i) => `src/f${String(i).padStart(3, '0')}.c`);
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, list, undefined, { pool }), await scanListBuiltin(runtime.fs, await target(), query, list));
    assert.deepEqual(await countBuiltin(runtime.fs, await target(), query, undefined, undefined, { pool }), await countBuiltin(runtime.fs, await target(), query));
    assert.equal(pool.readyWorkers(), 0);
  });

  it('answers a regex in this thread too when the lines holding its required text are few', { timeout: 60_000 }, async () => {
    // `kmalloc_array\(\d+\)` runs only on the 200 lines holding "kmalloc_array(": ~5 KB of text.
    const query: GrepQuery = { pattern: 'kmalloc_array\\(\\d+\\)', literal: false, ignoreCase: false, context: 0, limit: 50 };
    const list = Array.from({ length: 200 }, (_, i) => `src/f${String(i).padStart(3, '0')}.c`);
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, list, undefined, { pool }), await scanListBuiltin(runtime.fs, await target(), query, list));
    assert.equal(pool.readyWorkers(), 0);
  });

  it('answers words as text alternatives ignoring case (a query that found nothing as typed) in this thread, as a literal', { timeout: 60_000 }, async () => {
    const query: GrepQuery = { pattern: 'kmalloc|ARRAY', literal: false, ignoreCase: true, context: 0, limit: 50 };
    const list = Array.from({ length: 200 }, (_, i) => `src/f${String(i).padStart(3, '0')}.c`);
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, list, undefined, { pool }), await scanListBuiltin(runtime.fs, await target(), query, list));
    assert.equal(pool.readyWorkers(), 0);
  });
});

describe('a regex while the grep workers start', () => {
  // A pool that says none of its workers is ready (as in a new process) but runs what it is sent:
  // the main thread takes the regex's lines until its allowance (16 KB of text) cannot take the next
  // one; that file and the rest go to the workers, and the answer is the same as in one thread.
  let root: string;
  let pool: GrepPool;
  const files = Array.from({ length: 12 }, (_, i) => `f${String(i).padStart(2, '0')}.c`);
  before(() => {
    const tree: Record<string, string> = {};
    files.forEach((f, i) => {
      tree[f] = Array.from({ length: 100 }, (_, l) => (l % 9 === 4 ? `\tp = KMalloc_Array(${i}, ${l}); /* padding to fifty */` : `\tfiller line ${l} of file ${i}, padded to fifty chars`)).join('\n');
    });
    root = fixture(tree);
    pool = createGrepPool(runtime, { workers: 1 });
  });
  after(async () => {
    await pool.close();
    removeDir(root);
  });
  const target = () => createAdmission({ fs: runtime.fs, workdirs: { dirs: [root] } }, resolveSafe(runtime.fs, { dirs: [root] }, undefined), {});
  /** The pool as seen with `ready` workers and `starting` more; `sent`: the search index of each batch's first file it was sent. */
  const seen = (ready: number, starting = 0): { pool: GrepPool; sent: number[] } => {
    const sent: number[] = [];
    const wrapped: GrepPool = {
      ...pool,
      readyWorkers: () => ready,
      startingWorkers: () => starting,
      submit: (job, options) => {
        sent.push(job.first);
        return pool.submit(job, options);
      },
    };
    return { pool: wrapped, sent };
  };

  it('hands the file it cannot finish and the rest to the workers, with the answer of one thread', { timeout: 60_000 }, async () => {
    const { pool: starting, sent } = seen(0);
    // Case-insensitive: no required text, every line (~5 KB a file) is taken from the allowance.
    const query: GrepQuery = { pattern: 'kmalloc_array\\(\\d', literal: false, ignoreCase: true, context: 0, limit: 500 };
    const here = await scanListBuiltin(runtime.fs, await target(), query, files);
    assert.equal(here.counts.size, 12);
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, files, undefined, { pool: starting }), here);
    assert.ok(sent.length > 0 && sent[0]! >= 2 && sent[0]! <= 4, `the first ~3 files searched here, the rest sent from the one it could not finish on (${sent})`);
    // The allowance is the process's: spent, a later regex goes to the workers from its first file.
    sent.length = 0;
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, files, undefined, { pool: starting }), here);
    assert.equal(sent[0], 0);
  });

  it('runs a few files of a regex with a required text in this thread once workers are ready, while the process allowance lasts', { timeout: 60_000 }, async () => {
    const { pool: ready, sent } = seen(1);
    // 60 KB of text, ~1 KB of it on lines holding "KMalloc_Array(": matched here.
    const query: GrepQuery = { pattern: 'KMalloc_Array\\(\\d', literal: false, ignoreCase: false, context: 0, limit: 500 };
    const here = await scanListBuiltin(runtime.fs, await target(), query, files);
    assert.equal(here.counts.size, 12);
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), query, files, undefined, { pool: ready }), here);
    assert.deepEqual(sent, []);
    // Without a required text (case folded) every line would be matched: the workers take it.
    const folded = { ...query, ignoreCase: true };
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), folded, files, undefined, { pool: ready }), await scanListBuiltin(runtime.fs, await target(), folded, files));
    assert.equal(sent[0], 0);
  });

  it('runs a few hundred files of such a regex (a round of a sampled refusal) in this thread while a worker is still starting', { timeout: 60_000 }, async () => {
    // 300 files: past the 64 a search runs here once every worker is ready; ~5 KB of lines hold the text.
    const many = Array.from({ length: 300 }, (_, i) => `m/f${String(i).padStart(3, '0')}.c`);
    const dir = fixture(Object.fromEntries(many.map((f, i) => [f, `${'filler\n'.repeat(200)}KMalloc_Array(${i});\n`])));
    try {
      // One worker ready (cold: its first batches are slow), another starting.
      const { pool: warming, sent } = seen(1, 1);
      const admission = () => createAdmission({ fs: runtime.fs, workdirs: { dirs: [dir] } }, resolveSafe(runtime.fs, { dirs: [dir] }, undefined), {});
      const query: GrepQuery = { pattern: 'KMalloc_Array\\(\\d', literal: false, ignoreCase: false, context: 0, limit: 500 };
      const here = await scanListBuiltin(runtime.fs, await admission(), query, many);
      assert.equal(here.counts.size, 300);
      assert.deepEqual(await scanListBuiltin(runtime.fs, await admission(), query, many, undefined, { pool: warming }), here);
      assert.deepEqual(sent, []);
      // Every worker ready: they take it.
      const { pool: ready, sent: sentReady } = seen(1);
      assert.deepEqual(await scanListBuiltin(runtime.fs, await admission(), query, many, undefined, { pool: ready }), here);
      assert.equal(sentReady[0], 0);
    } finally {
      removeDir(dir);
    }
  });

  it('sends a few files of such a regex to the workers once the process allowance is spent', { timeout: 60_000 }, async () => {
    const { pool: ready, sent } = seen(1);
    // ~4.4 KB of lines holding "filler line " a file, each matching (tested, then located: ~8.8 KB):
    // the allowance runs out on the second, which goes to the workers with the rest; later searches
    // go to them whole.
    const filler: GrepQuery = { pattern: 'filler line \\d+ of', literal: false, ignoreCase: false, context: 0, limit: 500 };
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), filler, files, undefined, { pool: ready }), await scanListBuiltin(runtime.fs, await target(), filler, files));
    assert.ok(sent.length > 0 && sent[0]! >= 1 && sent[0]! <= 2, `handed over from the file it could not finish (${sent})`);
    sent.length = 0;
    const other = { ...filler, pattern: 'KMalloc_Array\\(\\d' };
    assert.deepEqual(await scanListBuiltin(runtime.fs, await target(), other, files, undefined, { pool: ready }), await scanListBuiltin(runtime.fs, await target(), other, files));
    assert.equal(sent[0], 0);
  });
});

// One line of 2 MB on which `[a-m][^Q]{300}Q` leaves re2js's DFA: seconds of matching in one call.
// min.js's 2 MB line takes 30 s and more for this pattern, a normal file a millisecond — but the
// first batch of a new worker (the one that replaces a worker stopped at the limit) is cold: tens of
// milliseconds, and ten times that on a loaded machine. Where a normal file's batch runs on a
// worker, the limit leaves room for that: a few seconds (300 ms made ok.js run over it at load 20).
const FILE_LIMIT_MS = 2500;
// Where the normal file sorts before min.js and no worker is ready, this thread searches it (a
// regex's allowance, scan-run.ts) and only min.js goes to a worker: nothing else is timed, and a
// limit far below min.js's 30 s will do. Each one that fires costs a core for its length.
const MIN_JS_ONLY_LIMIT_MS = 250;
const SLOW = { pattern: '[a-m][^Q]{300}Q', literal: false, ignoreCase: false, context: 0, limit: 50 };
let slowBytes: Uint8Array | undefined;
/** The 2 MB line (the same bytes each time; made once a process, in a byte array: ~10 ms, not ~1 s of single-character strings). */
function slowLine(): Uint8Array {
  if (slowBytes) return slowBytes;
  const chars = new TextEncoder().encode('abcdefghij klmnopqrstuvwxyz_');
  const n = 2 << 20;
  const out = new Uint8Array(n + 2);
  let x = 7;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = chars[x % chars.length]!;
  }
  out[n] = 0x51; // Q
  out[n + 1] = 0x0a;
  slowBytes = out;
  return out;
}

/** Resolves once `onEvent` has been called with `name`. */
function eventSeen(name: string): { onEvent(event: string): void; events: string[]; seen: Promise<void> } {
  const events: string[] = [];
  let resolve: () => void = () => undefined;
  const seen = new Promise<void>((r) => {
    resolve = r;
  });
  return {
    events,
    seen,
    onEvent(event) {
      events.push(event);
      if (event === name) resolve();
    },
  };
}

describe('a pathological file on the grep workers', () => {
  let big: string;
  let early: string;
  let small: string;
  const pools: GrepPool[] = [];
  before(() => {
    big = fixture({ 'min.js': slowLine(), 'ok.js': 'abc Q\n' });
    // The normal file first: searched in this thread while no worker is ready.
    early = fixture({ 'fine.js': 'abc Q\n', 'min.js': slowLine() });
    small = fixture({ 'a.txt': 'needle\n', 'b.txt': 'no\n' });
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    removeDir(big);
    removeDir(early);
    removeDir(small);
  });
  const target = (root: string) => createAdmission({ fs: runtime.fs, workdirs: { dirs: [root] } }, resolveSafe(runtime.fs, { dirs: [root] }, undefined), {});

  it('does not hold up another call, and a cancelled search stops its worker', async () => {
    const { events, onEvent, seen: ready } = eventSeen('worker_ready');
    const pool = createGrepPool(runtime, { workers: 1, fileTimeoutMs: 120_000, onEvent });
    pools.push(pool);
    const cancel = new AbortController();
    let bigDone = false;
    const slow = grepBuiltin(runtime.fs, await target(big), SLOW, cancel.signal, undefined, { pool }).finally(() => {
      bigDone = true;
    });
    await ready;
    const quick = await grepBuiltin(runtime.fs, await target(small), { ...SLOW, pattern: 'needle', literal: true }, undefined, undefined, { pool });
    assert.equal(quick.matches, 1);
    assert.equal(bigDone, false, 'the slow search is still running when the quick one has answered');
    cancel.abort();
    const r = await slow;
    assert.equal(r.matches, 0);
    assert.equal(r.skipped, undefined, 'cancelled, not timed out');
    assert.ok(events.includes('worker_job_cancelled'), 'the worker running the slow match was stopped');
    // The pool goes on with a new worker.
    const after = await grepBuiltin(runtime.fs, await target(big), { ...SLOW, pattern: 'abc', literal: true }, undefined, undefined, { pool });
    assert.deepEqual(
      after.files.map((f) => f.path),
      ['ok.js'],
    );
  });

  it('reports a file whose match runs over the time limit as not searched, and answers for the rest', async () => {
    const events: string[] = [];
    const pool = createGrepPool(runtime, { workers: 1, fileTimeoutMs: FILE_LIMIT_MS, onEvent: (e) => events.push(e) });
    pools.push(pool);
    const skipped: string[] = [];
    // ok.js's batch was sent to the worker behind min.js's: it runs on the worker that replaces it.
    const r = await grepBuiltin(runtime.fs, await target(big), { ...SLOW, pattern: '[a-m][^Q]{300}Q|abc' }, undefined, undefined, { pool, onSkipped: (f) => skipped.push(`${f.path} ${f.reason}`) });
    assert.deepEqual(r.skipped, [{ path: 'min.js', reason: 'timeout' }]);
    assert.deepEqual(skipped, ['min.js timeout']);
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['ok.js'],
    );
    assert.ok(events.includes('worker_job_timeout'));
  });

  it('counts without a file whose match runs over the time limit, and says it was not searched', async () => {
    const events: string[] = [];
    const pool = createGrepPool(runtime, { workers: 1, fileTimeoutMs: MIN_JS_ONLY_LIMIT_MS, onEvent: (e) => events.push(e) });
    pools.push(pool);
    assert.equal(pool.readyWorkers(), 0, 'no worker ready: fine.js is counted in this thread, only min.js is timed');
    const skipped: string[] = [];
    const counts = await countBuiltin(runtime.fs, await target(early), { ...SLOW, pattern: '[a-m][^Q]{300}Q|abc' }, undefined, undefined, { pool, onSkipped: (f) => skipped.push(`${f.path} ${f.reason}`) });
    assert.deepEqual([...counts], [['fine.js', 1]]);
    assert.deepEqual(skipped, ['min.js timeout']);
    assert.ok(events.includes('worker_job_timeout'));
  });
});

describe('ctx_fs rg without ripgrep', () => {
  it('says which files it could not search in time', async () => {
    const root = fixture({ 'fine.js': 'abc Q\n', 'min.js': slowLine() });
    // No rg on PATH: the built-in engine answers.
    const t = testApp(root, {}, { PATH: '/nonexistent' });
    // A new pool, never warmed: no worker is ready for either call (the one min.js timed out on is
    // stopped and not replaced until a job comes), so fine.js is searched in this thread and only
    // min.js on a worker, under the short limit.
    const pool = createGrepPool(runtime, { workers: 1, fileTimeoutMs: MIN_JS_ONLY_LIMIT_MS });
    t.app.grepPool = pool;
    try {
      assert.equal(pool.readyWorkers(), 0);
      const r = await t.call('ctx_fs', { action: 'rg', pattern: '[a-m][^Q]{300}Q|abc' });
      const text = textOf(r);
      assert.match(text, /^1 match in 1 file \(builtin\)/);
      assert.match(text, /1 file not searched: min\.js \(its match ran over the time limit\)/);
      // The gate's search says so too: its answer lacks that file's matches.
      assert.equal(pool.readyWorkers(), 0);
      const gated = textOf(await t.call('search', { pattern: '[a-m][^Q]{300}Q|abc', regex: true }));
      assert.match(gated, /^1 hit\nfine\.js\n/);
      assert.match(gated, /1 file not searched: min\.js \(its match ran over the time limit\)/);
    } finally {
      await pool.close();
      await t.close();
      removeDir(root);
    }
  });
});

describe('the grep worker in the bundle', () => {
  it('loads from dist/grep-worker.mjs and searches a batch', { skip: onDeno && 'the bundle is for Node; Deno starts src/workspace/grep/grep-worker.ts' }, async () => {
    const root = fixture({ 'a.c': 'x\nkmalloc_array(1);\n' });
    const pool = bundledWorkerPool('grep-worker.mjs');
    try {
      const query = { pattern: 'kmalloc_array', literal: true, ignoreCase: false, context: 0, limit: 10 };
      const r = (await pool.run({ mode: 'lines', workdir: root, query, files: [{ abs: path.join(root, 'a.c'), relRoot: 'a.c' }], first: 0, control: createControl() })) as ScanJobResult;
      assert.deepEqual(r.outcomes, [{ n: 1, lines: [{ line: 2, text: 'kmalloc_array(1);', match: true, at: 0 }] }]);
      assert.equal(pool.mode(), 'workers');
    } finally {
      await pool.close();
      removeDir(root);
    }
  });
});
