// Knowledge-base benchmark: indexing throughput, query latency and peak memory on a real corpus,
// WASM SQLite through our VFS side by side with native SQLite (better-sqlite3) doing the same work.
//
//   node --import tsx scripts/bench-kb.ts [CORPUS_DIR]
//   node --import tsx scripts/bench-kb.ts --postgres URL [CORPUS_DIR]
//
// With --postgres, ctxgate's app on its SQLite store (sqlite-app) and on the Postgres store
// (postgres-app: the team endpoint's tables on the database at URL, under a fresh project key removed
// at the end) do the same work: indexing through the KnowledgeStore interface the tools use, and
// queries as ctx_kb search tool calls (the tool's code, reply text and call record included; each
// call in a fresh client session so the flood guard stays out of it; no JSON-RPC transport).
//
// CORPUS_DIR defaults to the Linux kernel's Documentation/ unpacked from Debian's linux-source-6.1
// (apt-get install linux-source-6.1) into /tmp/linux. better-sqlite3 is installed on demand into
// .bench/ (it is a comparison, not a dependency). Each engine runs in its own process so that peak
// RSS is its own.
//
// Engines:
//   wasm          ctxgate as shipped: WASM SQLite, our VFS, external-content FTS5 (text stored once,
//                 trigram index without positions), batched transactions, journal DELETE + FULL sync
//   native-naive  better-sqlite3 with the straightforward schema: two FTS5 tables that each store the
//                 text (porter + trigram with positions), same batching and durability
//   native-same   better-sqlite3 with ctxgate's own schema and search code (for the pure engine gap)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkDocument, formatFor } from '../src/kb/chunk/index.ts';
import type { Chunk } from '../src/kb/chunk/types.ts';
import { isBinary } from '../src/kb/indexer.ts';
import type { KnowledgeStore } from '../src/kb/knowledge-store.ts';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import { writeFileSync } from 'node:fs';
import { KB_MIGRATIONS } from '../src/kb/schema.ts';
import { searchKnowledge } from '../src/kb/search.ts';
import { KnowledgeBase } from '../src/kb/store.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { type Database, openDatabase } from '../src/storage/database.ts';

const root = path.resolve(import.meta.dirname, '..');
const BATCH_FILES = 200;
const QUERIES = [
  'memory barrier', 'spinlock irq save', 'device tree binding', 'kobject reference count', 'rcu read lock',
  'cgroup memory controller', 'ftrace function graph', 'dma mapping api', 'usb gadget configfs', 'deadline scheduler',
  'workqueue concurrency', 'page cache writeback', 'napi poll', 'hugetlb pages', 'kernel boot parameters',
  'i2c smbus', 'gpio descriptor', 'pci msi interrupts', 'ext4 journal', 'btrfs subvolume',
  'kasan shadow memory', 'lockdep validator', 'perf events', 'bpf verifier', 'seccomp filter',
  'selinux policy', 'suspend to ram', 'common clock framework', 'regulator consumer', 'thermal zone',
  'watchdog timer', 'iommu groups', 'virtio ring', 'kvm ioctl', 'zram compression',
  'printk format specifiers', 'sysfs attributes', 'debugfs', 'module parameters', 'coding style indentation',
];

interface Doc {
  label: string;
  bytes: number;
  chunks: Chunk[];
}

function corpusDir(arg: string | undefined): string {
  if (arg) return path.resolve(arg);
  const dir = '/tmp/linux/linux-source-6.1/Documentation';
  if (!existsSync(dir)) {
    const tarball = '/usr/src/linux-source-6.1.tar.xz';
    if (!existsSync(tarball)) throw new Error('no corpus: apt-get install linux-source-6.1, or pass a folder');
    mkdirSync('/tmp/linux', { recursive: true });
    execFileSync('tar', ['-xJf', tarball, '-C', '/tmp/linux', 'linux-source-6.1/Documentation']);
  }
  return dir;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : d.isFile() ? [path.join(dir, d.name)] : []))
    .sort();
}

function loadCorpus(dir: string): { docs: Doc[]; chunkMs: number; bytes: number } {
  const started = performance.now();
  const docs: Doc[] = [];
  let bytes = 0;
  for (const file of files(dir)) {
    if (statSync(file).size > 1024 * 1024) continue;
    const raw = readFileSync(file);
    if (isBinary(raw)) continue;
    const label = path.relative(dir, file);
    docs.push({ label, bytes: raw.length, chunks: chunkDocument(raw.toString('utf8'), label, formatFor(label)) });
    bytes += raw.length;
  }
  return { docs, chunkMs: performance.now() - started, bytes };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

/** better-sqlite3 dressed as our Database, so KnowledgeBase and the search code run on it unchanged. */
function nativeAsDatabase(db: import('better-sqlite3').Database, file: string): Database {
  const cache = new Map<string, import('better-sqlite3').Statement>();
  const st = (sql: string) => {
    const known = cache.get(sql);
    if (known) return known;
    const s = db.prepare(sql);
    cache.set(sql, s);
    return s;
  };
  const args = (bind: unknown) => (bind === undefined ? [] : Array.isArray(bind) ? bind : [bind]);
  let depth = 0;
  return {
    file,
    exec: (sql: string) => void db.exec(sql),
    lastInsertRowid: () => Number((db.prepare('SELECT last_insert_rowid() AS id').get() as { id: number }).id),
    run: (sql: string, bind?: unknown) => st(sql).run(...args(bind)).changes,
    all: (sql: string, bind?: unknown) => st(sql).all(...args(bind)),
    get: (sql: string, bind?: unknown) => st(sql).get(...args(bind)),
    value: (sql: string, bind?: unknown) => {
      const row = st(sql).get(...args(bind)) as Record<string, unknown> | undefined;
      return row ? Object.values(row)[0] : undefined;
    },
    get inTransaction() {
      return depth > 0;
    },
    transaction<T>(fn: () => T): T {
      const name = `sp${depth}`;
      db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
      depth++;
      try {
        const r = fn();
        depth--;
        db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
        return r;
      } catch (e) {
        depth--;
        db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
        throw e;
      }
    },
    writeTransaction<T>(this: Database, fn: () => T): Promise<T> {
      return Promise.resolve(this.transaction(fn));
    },
    tryTransaction<T>(this: Database, fn: () => T): { value: T } {
      return { value: this.transaction(fn) };
    },
    close: () => db.close(),
  } as unknown as Database;
}

function loadBetterSqlite(): typeof import('better-sqlite3') {
  const benchDir = path.join(root, '.bench');
  const modDir = path.join(benchDir, 'node_modules', 'better-sqlite3');
  if (!existsSync(path.join(modDir, 'build', 'Release', 'better_sqlite3.node'))) {
    console.error('installing better-sqlite3@12.6.2 into .bench/ (compiles from source, about a minute)…');
    mkdirSync(benchDir, { recursive: true });
    execFileSync('npm', ['install', '--prefix', benchDir, '--no-save', '--no-audit', '--no-fund', 'better-sqlite3@12.6.2'], { stdio: 'inherit' });
  }
  return createRequire(path.join(benchDir, 'package.json'))('better-sqlite3');
}

async function runEngine(engine: string, corpus: string): Promise<Record<string, unknown>> {
  const { docs, chunkMs, bytes } = loadCorpus(corpus);
  const dir = path.join(tmpdir(), `ctxgate-bench-${engine}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'kb.db');
  let kb: KnowledgeBase | undefined;
  let store: KnowledgeStore | undefined;
  let naive: import('better-sqlite3').Database | undefined;
  const openStarted = performance.now();
  let toolSearch: ((q: string) => Promise<number>) | undefined;
  let shutdown: (() => Promise<void>) | undefined;
  if (engine === 'postgres-app' || engine === 'sqlite-app') {
    const base = await loadRuntime();
    const config = path.join(dir, 'ctxgate.config.yaml');
    writeFileSync(config, engine === 'postgres-app' ? `storage:\n  backend: postgres\n  projectKey: bench/${crypto.randomUUID()}\n` : '{}\n');
    const env: Record<string, string> = { ...base.env.toObject(), CTXGATE_DATA_DIR: path.join(dir, 'data'), CTXGATE_CONFIG: config, CTXGATE_DATABASE_URL: process.env.BENCH_POSTGRES_URL ?? '' };
    // An empty project root: the corpus goes in through the store, and no code index is built meanwhile.
    const projectRoot = path.join(dir, 'project');
    mkdirSync(projectRoot);
    const app = createAppContext({ ...base, env: { get: (k) => env[k], toObject: () => ({ ...env }) } }, { projectRoot, debug: false });
    store = await app.kb.get();
    const registry = createToolRegistry(TOOLS);
    toolSearch = async (q) => {
      const r = await registry.call('ctx_kb', { action: 'search', query: q }, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      return ((r.structuredContent as { hits?: unknown[] }).hits ?? []).length;
    };
    shutdown = () => app.lifecycle.shutdown('bench done');
  } else if (engine === 'wasm') {
    kb = new KnowledgeBase(await openDatabase(await loadRuntime(), file, { exclusive: true, busyTimeoutMs: 1000, migrations: KB_MIGRATIONS, pragmas: process.env.BENCH_PRAGMAS ? process.env.BENCH_PRAGMAS.split(';') : undefined }), 'bench');
  } else {
    const Native = loadBetterSqlite();
    const db = new Native(file);
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    if (engine === 'native-naive') {
      db.exec("CREATE VIRTUAL TABLE porter USING fts5(label, title, body, tokenize='porter unicode61'); CREATE VIRTUAL TABLE trigram USING fts5(label, title, body, tokenize='trigram');");
      naive = db;
    }
    const wrapped = nativeAsDatabase(db, file);
    if (engine === 'native-same') for (const m of KB_MIGRATIONS) wrapped.exec(m.sql);
    kb = new KnowledgeBase(wrapped, 'bench');
  }
  const openMs = performance.now() - openStarted;

  const insertStarted = performance.now();
  for (let i = 0; i < docs.length; i += BATCH_FILES) {
    const batch = docs.slice(i, i + BATCH_FILES);
    if (naive) {
      const p = naive.prepare('INSERT INTO porter(label, title, body) VALUES (?, ?, ?)');
      const t = naive.prepare('INSERT INTO trigram(label, title, body) VALUES (?, ?, ?)');
      naive.transaction(() => {
        for (const d of batch) for (const c of d.chunks) {
          p.run(d.label, c.title, c.body);
          t.run(d.label, c.title, c.body);
        }
      })();
    } else if (store) {
      await store.saveAll(batch.map((d) => ({ key: `file:${d.label}`, kind: 'file' as const, label: d.label, chunks: d.chunks })));
    } else {
      const sqlite = kb!;
      await sqlite.transaction(() => {
        for (const d of batch) sqlite.put({ key: `file:${d.label}`, kind: 'file', label: d.label, chunks: d.chunks });
      });
    }
  }
  const insertMs = performance.now() - insertStarted;

  const search = async (q: string) => {
    if (toolSearch) return toolSearch(q);
    if (store) return (await store.search({ query: q, limit: 5 })).hits.length;
    if (!naive) return searchKnowledge(kb!, { query: q, limit: 5 }).hits.length;
    const terms = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    const a = naive.prepare('SELECT rowid FROM porter WHERE porter MATCH ? ORDER BY bm25(porter) LIMIT 100').all(match) as { rowid: number }[];
    const tri = terms.filter((t) => t.length >= 3).map((t) => `"${t}"`).join(' OR ');
    const b = tri ? (naive.prepare('SELECT rowid FROM trigram WHERE trigram MATCH ? ORDER BY bm25(trigram) LIMIT 100').all(tri) as { rowid: number }[]) : [];
    const score = new Map<number, number>();
    for (const list of [a, b]) {
      for (const [i, r] of list.entries()) score.set(r.rowid, (score.get(r.rowid) ?? 0) + 1 / (61 + i));
    }
    const top = [...score.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5);
    for (const [id] of top) naive.prepare('SELECT title, body FROM porter WHERE rowid = ?').get(id);
    return top.length;
  };
  const rounds = Number(process.env.BENCH_QUERY_ROUNDS ?? 5);
  if (rounds) for (const q of QUERIES) await search(q);
  const times: number[] = [];
  let found = 0;
  for (let round = 0; round < rounds; round++) {
    for (const q of QUERIES) {
      const t0 = performance.now();
      found += (await search(q)) > 0 ? 1 : 0;
      times.push(performance.now() - t0);
    }
  }
  times.sort((x, y) => x - y);
  const dbBytes = store ? (await store.stats()).databaseBytes : statSync(file).size;
  if (store) {
    await store.purge(store.backend === 'postgres' ? 'team' : 'project', store.sessionId, false);
    await (shutdown ? shutdown() : store.close());
  }
  kb?.close();
  rmSync(dir, { recursive: true, force: true });
  const chunks = docs.reduce((n, d) => n + d.chunks.length, 0);
  return {
    engine,
    files: docs.length,
    chunks,
    mb: bytes / 1024 / 1024,
    chunkMs,
    openMs,
    insertMs,
    insertMBps: bytes / 1024 / 1024 / (insertMs / 1000),
    totalMBps: bytes / 1024 / 1024 / ((chunkMs + insertMs) / 1000),
    queryP50: times.length ? percentile(times, 0.5) : 0,
    queryP95: times.length ? percentile(times, 0.95) : 0,
    answered: found / Math.max(1, QUERIES.length * rounds),
    dbMB: dbBytes / 1024 / 1024,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  };
}

const [mode, corpusArg] = process.argv.slice(2);
if (mode === '--postgres') {
  // The shipped SQLite store against the Postgres store, each in its own process.
  const url = corpusArg;
  if (!url) throw new Error('--postgres needs a URL: postgres://USER@HOST:PORT/DB');
  const corpus = corpusDir(process.argv[4]);
  const rows: Record<string, unknown>[] = [];
  for (const engine of ['sqlite-app', 'postgres-app']) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'bench-kb.ts'), '--engine', engine, corpus], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24, env: { ...process.env, BENCH_POSTGRES_URL: url } });
    if (r.status !== 0) throw new Error(`${engine} failed:\n${r.stderr}`);
    rows.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
  }
  const f = (n: unknown, d = 1) => Number(n).toFixed(d);
  console.log(`corpus ${corpus}: ${rows[0]!.files} files, ${f(rows[0]!.mb)} MB, ${rows[0]!.chunks} chunks`);
  console.log('engine        insert MB/s  ctx_kb search p50 ms  p95 ms  answered');
  for (const r of rows) console.log(`${String(r.engine).padEnd(13)} ${f(r.insertMBps, 2).padStart(11)}  ${f(r.queryP50, 2).padStart(20)}  ${f(r.queryP95, 2).padStart(6)}  ${f(Number(r.answered) * 100, 0).padStart(7)}%`);
  const [wasm, pg] = rows;
  console.log(`postgres vs sqlite: ${f(Number(pg!.insertMBps) / Number(wasm!.insertMBps), 2)}× insert throughput`);
} else if (mode === '--engine') {
  const [engine, corpus] = process.argv.slice(3);
  console.log(JSON.stringify(await runEngine(engine!, corpus!)));
} else {
  const corpus = corpusDir(mode ?? corpusArg);
  loadBetterSqlite();
  const rows: Record<string, unknown>[] = [];
  for (const engine of ['native-naive', 'native-same', 'wasm']) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'bench-kb.ts'), '--engine', engine, corpus], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) throw new Error(`${engine} failed:\n${r.stderr}`);
    rows.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
  }
  const f = (n: unknown, d = 1) => Number(n).toFixed(d);
  const first = rows[0]!;
  console.log(`corpus ${corpus}: ${first.files} files, ${f(first.mb)} MB, ${first.chunks} chunks`);
  console.log('engine        insert MB/s  chunk+insert MB/s  query p50 ms  p95 ms  db MB  peak RSS MB');
  for (const r of rows) {
    console.log(`${String(r.engine).padEnd(13)} ${f(r.insertMBps, 2).padStart(11)}  ${f(r.totalMBps, 2).padStart(17)}  ${f(r.queryP50, 2).padStart(12)}  ${f(r.queryP95, 2).padStart(6)}  ${f(r.dbMB).padStart(5)}  ${f(r.peakRssMB, 0).padStart(11)}`);
  }
  const wasm = rows.find((r) => r.engine === 'wasm')!;
  const naive = rows.find((r) => r.engine === 'native-naive')!;
  const same = rows.find((r) => r.engine === 'native-same')!;
  console.log(`wasm vs native-naive: ${f(Number(wasm.insertMBps) / Number(naive.insertMBps), 2)}× insert throughput; vs native-same: ${f(Number(wasm.insertMBps) / Number(same.insertMBps), 2)}×`);
}
