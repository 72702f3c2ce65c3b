// Stress test of the shared knowledge base (issue 12): N ctxgate processes on one project, each
// calling the real tools in a loop for S seconds — index its own folder after changing a file,
// search everything, run a command whose big output is indexed — then one check of the result.
//
//   node --import tsx scripts/stress-storage.ts [--processes 8] [--seconds 60] [--runtime mixed|node|deno]
//
// Prints ops/s, p50/p95 latency per kind, errors (must be 0), lost writes (must be 0: every file
// whose last index call succeeded holds its last marker, every big output whose call succeeded is
// searchable), PRAGMA integrity_check, database size, and each worker's memory and open files at
// start and end. Exit code 1 when errors, lost writes or a failed integrity check were found.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { KB_MIGRATIONS } from '../src/kb/schema.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { openDatabase } from '../src/storage/database.ts';
import { denoBinaryOrExit } from './lib/deno-binary.mjs';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';

const root = path.resolve(import.meta.dirname, '..');
const FILES_PER_WORKER = 40;

interface WorkerResult {
  id: number;
  runtime: string;
  pid: number;
  ops: Record<string, number[]>;
  errors: string[];
  /** file path → marker of its last successful index call */
  indexed: Record<string, string>;
  /** big outputs whose call succeeded: source label → marker */
  outputs: Record<string, string>;
  /** at the start and after each quarter of the run */
  rss: number[];
  fds: number[];
}

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

function openFds(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function fileText(id: number, k: number, marker: string): string {
  const lines = Array.from({ length: 40 }, (_, i) => `Line ${i} of file ${k} for worker ${id}: lorem ipsum dolor sit amet, shared storage stress ${i % 7}.`);
  return `# Worker ${id} file ${k}\n\n${marker}\n\n${lines.join('\n')}\n`;
}

async function worker(): Promise<void> {
  const id = Number(flag('id', '0'));
  const seconds = Number(flag('seconds', '60'));
  const project = flag('project', '');
  const runtime = await loadRuntime();
  const app = createAppContext(runtime, { projectRoot: project, debug: false });
  const registry = createToolRegistry(TOOLS);
  const result: WorkerResult = { id, runtime: runtime.name, pid: runtime.pid, ops: { index: [], search: [], output: [] }, errors: [], indexed: {}, outputs: {}, rss: [process.memoryUsage().rss], fds: [openFds()] };
  const call = async (kind: string, tool: string, args: Record<string, unknown>) => {
    const started = performance.now();
    // A new client session per call: the flood guard counts searches per session.
    const r = await registry.call(tool, args, { app, session: createClientSession(`${id}-${Math.random()}`), signal: new AbortController().signal, progress: async () => undefined });
    result.ops[kind]!.push(performance.now() - started);
    const text = r.content.map((c) => c.text).join('\n');
    if (r.isError) result.errors.push(`${kind}: ${text.slice(0, 300)}`);
    return { ok: !r.isError, text };
  };
  const folder = `w${id}`;
  const deadline = Date.now() + seconds * 1000;
  const begun = Date.now();
  for (let round = 0; Date.now() < deadline; round++) {
    if (result.rss.length < 4 && Date.now() >= begun + (result.rss.length * seconds * 1000) / 4) {
      result.rss.push(process.memoryUsage().rss);
      result.fds.push(openFds());
    }
    const pick = round % 4;
    if (pick === 0) {
      const k = round % FILES_PER_WORKER;
      const marker = `fresh${id}q${round}z`;
      const file = path.join(project, folder, `f${k}.md`);
      writeFileSync(file, fileText(id, k, marker));
      const r = await call('index', 'ctx_kb', { action: 'index', path: folder });
      if (r.ok) result.indexed[file] = marker;
    } else if (pick === 2) {
      const marker = `bulk${id}q${round}z`;
      const r = await call('output', 'ctx_run', { action: 'execute', command: `seq 1 4000 | sed 's/$/ ${marker} output line/'` });
      const label = /indexed as "([^"]+)"/.exec(r.text)?.[1];
      if (r.ok && label) result.outputs[label] = marker;
      else if (r.ok) result.errors.push(`output: not indexed: ${r.text.slice(0, 200)}`);
    } else {
      const other = (id + round) % 8;
      await call('search', 'ctx_kb', { action: 'search', query: `worker ${other} shared storage stress` });
    }
  }
  result.rss.push(process.memoryUsage().rss);
  result.fds.push(openFds());
  await app.lifecycle.shutdown('stress done');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function runWorker(kind: 'node' | 'deno', args: string[]): Promise<WorkerResult> {
  const self = path.join(root, 'scripts', 'stress-storage.ts');
  const deno = denoBinaryOrExit();
  const [command, base] = kind === 'deno' ? [deno, ['run', '-A', self]] : [process.execPath, ['--import', 'tsx', self]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...base, '--worker', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WorkerResult);
      } catch {
        reject(new Error(`worker exited ${code} without a result:\n${err.slice(-2000)}`));
      }
    });
  });
}

async function main(): Promise<void> {
  const processes = Number(flag('processes', '8'));
  const seconds = Number(flag('seconds', '60'));
  const which = flag('runtime', 'mixed');
  const work = realpathSync(mkdtempSync(path.join(tmpdir(), 'ctxgate-stress-')));
  const project = path.join(work, 'project');
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir);
  for (let id = 0; id < processes; id++) {
    mkdirSync(path.join(project, `w${id}`), { recursive: true });
    for (let k = 0; k < FILES_PER_WORKER; k++) writeFileSync(path.join(project, `w${id}`, `f${k}.md`), fileText(id, k, `initial${id}q${k}z`));
  }
  process.env.CTXGATE_DATA_DIR = dataDir;
  console.log(`${processes} processes (${which}) × ${seconds} s on ${project}`);
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: processes }, (_, id) => {
      const kind = which === 'mixed' ? (id % 2 ? 'deno' : 'node') : (which as 'node' | 'deno');
      return runWorker(kind, ['--id', String(id), '--seconds', String(seconds), '--project', project]);
    }),
  );
  const elapsed = (Date.now() - started) / 1000;

  const runtime = await loadRuntime();
  const dbDir = readdirSync(dataDir).find((d) => statSync(path.join(dataDir, d)).isDirectory())!;
  const dbFile = path.join(dataDir, dbDir, 'context.db');
  const db = await openDatabase(runtime, dbFile, { busyTimeoutMs: 30_000, migrations: KB_MIGRATIONS });
  let lost = 0;
  const lostExamples: string[] = [];
  for (const r of results) {
    for (const [file, marker] of Object.entries(r.indexed)) {
      const found = db.value("SELECT count(*) FROM chunks c JOIN sources s ON s.id = c.source_id WHERE s.key = ? AND instr(c.body, ?) > 0", [`file:${file}`, marker]);
      // A later successful index by the same worker replaced the marker only if the file changed again.
      if (found === 0 && readFileSync(file, 'utf8').includes(marker)) {
        lost++;
        lostExamples.push(`${file} ${marker}`);
      }
    }
    for (const [label, marker] of Object.entries(r.outputs)) {
      const found = db.value("SELECT count(*) FROM fts_porter WHERE fts_porter MATCH ?", [`"${marker}"`]);
      if (!found) {
        lost++;
        lostExamples.push(`${label} ${marker}`);
      }
    }
  }
  const integrity = String(db.value('PRAGMA integrity_check'));
  const sources = Number(db.value('SELECT count(*) FROM sources'));
  const textBytes = Number(db.value('SELECT coalesce(sum(bytes), 0) FROM sources'));
  db.close();
  const dbBytes = statSync(dbFile).size;

  const all = results.flatMap((r) => Object.values(r.ops).flat()).sort((a, b) => a - b);
  const errors = results.flatMap((r) => r.errors);
  console.log(`ops: ${all.length} in ${elapsed.toFixed(1)} s = ${(all.length / elapsed).toFixed(1)} ops/s; latency p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms`);
  for (const kind of ['index', 'search', 'output']) {
    const xs = results.flatMap((r) => r.ops[kind] ?? []).sort((a, b) => a - b);
    console.log(`  ${kind.padEnd(6)} ${String(xs.length).padStart(5)} ops, p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms, max ${(xs.at(-1) ?? 0).toFixed(0)} ms`);
  }
  console.log(`errors: ${errors.length}${errors.length ? `\n  ${errors.slice(0, 10).join('\n  ')}` : ''}`);
  console.log(`lost writes: ${lost}${lost ? `\n  ${lostExamples.slice(0, 10).join('\n  ')}` : ''}`);
  console.log(`integrity_check: ${integrity}`);
  console.log(`database: ${(dbBytes / 1024 / 1024).toFixed(1)} MB for ${sources} sources holding ${(textBytes / 1024 / 1024).toFixed(1)} MB of text`);
  for (const r of results) {
    console.log(`  worker ${r.id} (${r.runtime}, pid ${r.pid}): rss ${r.rss.map((b) => (b / 1048576).toFixed(0)).join(' → ')} MB, open files ${r.fds.join(' → ')} (start, then each quarter)`);
  }
  rmSync(work, { recursive: true, force: true });
  process.exit(errors.length || lost || integrity !== 'ok' ? 1 : 0);
}

if (process.argv.includes('--worker')) await worker();
else await main();
