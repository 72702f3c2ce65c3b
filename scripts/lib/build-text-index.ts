// The text stage of the refresh pass alone, in a process of its own (for bench-textindex.ts: its peak
// RSS is the text build's): list, diff, index, compact; then candidates() latency and a refresh after
// touching files.
//   node dist/bench-build-text-index.mjs ROOT DB_FILE [touch N]   → one line of JSON
import { appendFileSync, statSync } from 'node:fs';
import { type CatalogueEntry, catalogue } from '../../src/code/catalogue.ts';
import { syncCatalogue, textWork } from '../../src/code/catalogue-sync.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import { compactText, takeText } from '../../src/code/text-pass.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { withLease } from '../../src/storage/lease.ts';
import { createTextIndexReader } from '../../src/textindex/reader.ts';
import type { TextQuery } from '../../src/textindex/types.ts';

const [root, dbFile] = [process.argv[2]!, process.argv[3]!];
const touchCount = Number(process.argv[4] ?? 10);
const runtime = await loadRuntime();
const baselineMB = Math.round(process.memoryUsage().rss / 1e6);
const events: Record<string, unknown>[] = [];
const logger = { log: (event: string, fields?: Record<string, unknown>) => { if (!event.endsWith('progress')) events.push({ event, ...fields }); if (process.env.BENCH_VERBOSE) console.error(event, JSON.stringify(fields)); }, file: undefined, close() {} };
const db = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: ['synchronous=NORMAL'] });
const store = new CodeStore(db);
const pause = () => new Promise<void>((r) => setImmediate(r));
const list = async () => {
  // The Linux tree has no .git; a repository would be listed by git (pass { runtime, exec } as `git`).
  const entries: CatalogueEntry[] = [];
  for await (const e of catalogue(runtime.fs, { dirs: [root] }, { root, excludeDirs: ['node_modules'], respectGitignore: true })) entries.push(e);
  return entries;
};
const ms = (from: number) => Math.round(performance.now() - from);

const t0 = performance.now();
const entries = await list();
const listMs = ms(t0);
const t1 = performance.now();
await syncCatalogue(store, entries);
const syncMs = ms(t1);
const t2 = performance.now();
const work = textWork(store, entries);
let indexedMs = 0;
const onIndexed = async () => {
  indexedMs = ms(t2);
};
// The text stage, then its compaction (a build pass runs that beside its parse stage).
const built = await withLease(db, 'code-index', 60_000, async (lease) => {
  const result = await takeText(store, work, { fs: runtime.fs, logger, lease, stopped: () => false, onIndexed, onProgress: (d, n) => d % 10000 === 0 && console.error(`text ${d}/${n} ${ms(t2)} ms`) });
  await compactText(store, { logger, lease, stopped: () => false, pause });
  return result;
});
const textMs = ms(t2);
const compactMs = textMs - indexedMs;
const buildMs = ms(t0);
const cpu = process.cpuUsage();
const maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
const sourceBytes = entries.reduce((n, e) => n + e.size, 0);
const indexBytes = Number(db.value('SELECT sum(bytes) FROM text_segments WHERE bits >= 0'));
const segments = Number(db.value('SELECT count(*) FROM text_segments WHERE bits >= 0'));

const reader = createTextIndexReader({ root, fs: runtime.fs, open: async () => db, current: () => db, state: () => 'ready', error: () => undefined });
const queries: Record<string, TextQuery> = {
  rare: { pattern: 'kmalloc_array_node', literal: true, ignoreCase: false },
  common: { pattern: 'spin_lock_irqsave', literal: true, ignoreCase: false },
  absent: { pattern: 'PathDeniedError', literal: true, ignoreCase: false },
  regex: { pattern: 'retry.*count', literal: false, ignoreCase: false },
  ignoreCase: { pattern: 'kmalloc_array', literal: true, ignoreCase: true },
};
// The id → file table is read once per catalogue change: measured apart from the queries.
const l0 = performance.now();
await reader.candidates({ pattern: 'zq_warm_up_zq', literal: true, ignoreCase: false }, '');
const liveLoadMs = ms(l0);
const latency: Record<string, { firstMs: number; medianMs: number; candidates: number }> = {};
for (const [name, q] of Object.entries(queries)) {
  const f = performance.now();
  const first = await reader.candidates(q, '');
  const firstMs = +(performance.now() - f).toFixed(1);
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const s = performance.now();
    await reader.candidates(q, '');
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  latency[name] = { firstMs, medianMs: +times[3]!.toFixed(2), candidates: first?.files.length ?? -1 };
}

// Refresh after touching N files: the files a watcher names (fresh), and a full pass (walk + diff + text stage).
const touched = entries.filter((e) => e.path.endsWith('.c')).slice(0, touchCount);
for (const e of touched) appendFileSync(e.abs, '\n/* touched by bench-textindex */\n');
const t3 = performance.now();
for (const e of touched) {
  const st = statSync(e.abs);
  const row = store.file(e.path)!;
  await db.writeTransaction(() => store.markChanged([row.id]));
  e.size = st.size;
  e.mtimeMs = st.mtimeMs;
}
await takeText(store, textWork(store, touched), { fs: runtime.fs, logger, stopped: () => false });
const freshMs = ms(t3);
for (const e of touched) appendFileSync(e.abs, '/* again */\n');
const t4 = performance.now();
const again = await list();
await syncCatalogue(store, again);
await withLease(db, 'code-index', 60_000, async (lease) => {
  await takeText(store, textWork(store, again), { fs: runtime.fs, logger, lease, stopped: () => false });
  await compactText(store, { logger, lease, stopped: () => false, pause });
});
const passMs = ms(t4);
const seen = await reader.candidates({ pattern: 'touched by bench-textindex', literal: true, ignoreCase: false }, '');
db.close();
console.log(
  JSON.stringify({
    files: entries.length,
    indexed: built.ok ? built.value.indexed : 0,
    sourceMB: +(sourceBytes / 1e6).toFixed(1),
    indexMB: +(indexBytes / 1e6).toFixed(1),
    dbMB: +(statSync(dbFile).size / 1e6).toFixed(1),
    ratio: +(indexBytes / sourceBytes).toFixed(3),
    segments,
    listMs,
    syncMs,
    indexedMs,
    compactMs,
    textMs,
    buildMs,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    maxRssMB,
    baselineMB,
    liveLoadMs,
    latency,
    refresh: { touched: touched.length, freshMs, passMs, seenByQuery: seen?.files.length },
    events: events.filter((e) => e.event !== 'text_index_done' || Number(e.files) > 100),
  }),
);
