// One code index build in a process of its own (for bench-code.ts: its peak RSS is the build's).
//   node --import tsx scripts/lib/build-code-index.ts ROOT DB_FILE   → one line of JSON
// CTXGATE_PARSE_WORKERS sets the parse workers as it does for the server (0: parse in the main thread).
// BUILD_PRAGMAS=a,b adds PRAGMAs to code.db's (trials); BENCH_VERBOSE=1 prints the pass's events with
// their time since the start (2: also its progress events); BENCH_MEMORY=1 prints the main thread's
// memory every 5 s (its JS heap, off-heap buffers, SQLite's WASM memory and SQLite's own allocations).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createGrammars } from '../../src/code/grammars.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { createParsePool } from '../../src/code/parse-pool.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';

const [root, dbFile] = [process.argv[2]!, process.argv[3]!];
const runtime = await loadRuntime();
const baselineMB = Math.round(process.memoryUsage().rss / 1e6);
const grammars = createGrammars(runtime);
const workers = process.env.CTXGATE_PARSE_WORKERS ? Number(process.env.CTXGATE_PARSE_WORKERS) : undefined;
let poolMode = '';
/** The build's connection: SQLite's own allocation high-water mark (its WASM heap never shrinks below it). */
let opened: Database | undefined;
let started = 0;
/** When the text stage ended (the parse stage follows), and the memory and main-thread CPU by then. */
let textDone: Record<string, number | undefined> | undefined;
/** The main thread's largest heap and off-heap (WASM memories, buffers) figures, sampled every second. */
const peaks = { heapUsedMB: 0, externalMB: 0, arrayBuffersMB: 0 };
let ticks = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  if (process.env.BENCH_MEMORY && ++ticks % 5 === 0) {
    const wasmMB = opened ? Math.round(opened.sqlite3.wasm.heap8u().byteLength / 1e6) : 0;
    console.error(Math.round(performance.now() - started), 'memory', JSON.stringify({ rssMB: Math.round(m.rss / 1e6), heapUsedMB: Math.round(m.heapUsed / 1e6), heapTotalMB: Math.round(m.heapTotal / 1e6), externalMB: Math.round(m.external / 1e6), arrayBuffersMB: Math.round(m.arrayBuffers / 1e6), sqliteWasmMB: wasmMB, sqliteUsedMB: opened ? sqliteMB(opened, false) : 0 }));
  }
  peaks.heapUsedMB = Math.max(peaks.heapUsedMB, Math.round(m.heapUsed / 1e6));
  peaks.externalMB = Math.max(peaks.externalMB, Math.round(m.external / 1e6));
  peaks.arrayBuffersMB = Math.max(peaks.arrayBuffersMB, Math.round(m.arrayBuffers / 1e6));
}, 1000);
sampler.unref();
const parser = createParsePool(runtime, grammars, { workers, onEvent: (event, fields) => process.env.BENCH_VERBOSE && console.error(Math.round(performance.now() - started), event, JSON.stringify(fields)) });
const index = createCodeIndex({
  fs: runtime.fs,
  grammars,
  parser,
  onBulkPass: () => runtime.beginBulkWork?.(),
  logger: {
    log: (event, fields) => {
      if (event === 'text_index_done') textDone = { ms: Math.round(performance.now() - started), rssMB: Math.round(process.memoryUsage().rss / 1e6), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), mainCpuMs: mainThreadCpuMs(), writtenMB: writtenMB() };
      if (process.env.BENCH_VERBOSE && (process.env.BENCH_VERBOSE === '2' || !event.endsWith('progress'))) console.error(Math.round(performance.now() - started), event, JSON.stringify(fields));
    },
    file: undefined,
    close() {},
  },
  workdirs: { dirs: [root] },
  root,
  scan: { excludeDirs: ['node_modules', '.codegraph'], respectGitignore: true },
  openDatabase: async () => {
    opened = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: [...CODE_DB_PRAGMAS, ...(process.env.BUILD_PRAGMAS ? process.env.BUILD_PRAGMAS.split(",") : [])] });
    return opened;
  },
});
started = performance.now();
await index.refresh();
const ms = performance.now() - started;
clearInterval(sampler);
const cpu = process.cpuUsage();
const mainCpuMs = mainThreadCpuMs();
const threadsCpuMs = threadCpuMs();
const written = writtenMB();
poolMode = parser.mode();
const sqliteHighMB = opened ? sqliteMB(opened, true) : undefined;
await index.close();
await parser.close();
console.log(
  JSON.stringify({ ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), baselineMB, dbMB: +(statSync(dbFile).size / 1e6).toFixed(1), parse: poolMode, mainCpuMs, threadsCpuMs, writtenMB: written, textDone, mainPeaks: peaks, sqliteHighMB }),
);

/** CPU time of this (the main) thread alone, from /proc (Linux); the rest of cpuMs is the workers'. */
function mainThreadCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime (fields 14 and 15 of stat; 12 and 13 after the name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The CPU time of this process's busiest threads (the main thread, parse workers, then V8's and libuv's), from /proc (Linux). */
function threadCpuMs(): number[] | undefined {
  try {
    const ms = readdirSync('/proc/self/task').map((t) => {
      const fields = readFileSync(`/proc/self/task/${t}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    });
    return ms.sort((a, b) => b - a).slice(0, 4);
  } catch {
    return undefined;
  }
}

/** Bytes this process has caused to be written to storage so far, in MB (/proc/self/io write_bytes; Linux). */
function writtenMB(): number | undefined {
  try {
    const line = /^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return line ? Math.round(Number(line[1]) / 1e6) : undefined;
  } catch {
    return undefined;
  }
}

/** SQLite's own allocations in MB (sqlite3_status64 MEMORY_USED): their high-water mark, or now. */
function sqliteMB(db: Database, highwater: boolean): number {
  const { capi, wasm } = db.sqlite3;
  const at = wasm.pstack.pointer;
  try {
    const [current, high] = wasm.pstack.allocChunks(2, 8) as number[];
    capi.sqlite3_status64(capi.SQLITE_STATUS_MEMORY_USED, current!, high!, 0);
    return Math.round(Number(wasm.peek64(highwater ? high! : current!)) / 1e6);
  } finally {
    wasm.pstack.restore(at);
  }
}
