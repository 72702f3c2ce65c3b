// Search through the server as a client sees it (issue 21): a new stdio server (dist/ctxgate.mjs)
// started by the MCP SDK's Client over StdioClientTransport, with a complete index on disk, `rg -c`
// on the same query beside every call in the same run. Unlike bench-text.ts (the tools in-process),
// this counts everything a client waits for: the process start, opening the database, the warm
// start's sweep, the watch being set up, the graph backend, per-call work.
//
//   node --import tsx scripts/bench-server.ts ROOT [runs=5] [--seconds=60]
//   BENCH_BUNDLE=dist-bench/ctxgate.mjs …   a copy of the bundle (tests rebuild dist/ while a long run goes on)
//   BENCH_CPU_PROF=DIR …   the measured servers write V8 CPU profiles into DIR (node --cpu-prof)
//   BENCH_SERVER_ARGS='--graph-backend none' …   more arguments for the measured servers
//   BENCH_WAIT=text …   measure once the text index is complete (the code index may still be building)
//
// 1. builds the index once (`ctxgate call search …` builds a small project's; otherwise a server
//    left running until `stats` says complete), in the data folder BENCH_DATA_DIR or a new one;
// 2. starts a new server: time to the first `search` answer (the client's connect excluded, then
//    included) vs `rg -c` on the same query, run once that server is closed;
// 3. keeps asking the queries for `--seconds`, median per query vs `rg -c` median.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = process.argv[2] ?? '';
if (!ROOT || ROOT.startsWith('-')) {
  console.error('usage: node --import tsx scripts/bench-server.ts ROOT [runs=5] [--seconds=60]');
  process.exit(2);
}
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5);
const seconds = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 60);
const BUNDLE = path.resolve(process.env.BENCH_BUNDLE ?? path.join(import.meta.dirname, '..', 'dist', 'ctxgate.mjs'));
const SERVER_ARGS = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
const PROFILE = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-server-'));
const env = { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: dataDir };

const QUERIES = [
  { pattern: 'kmalloc_array' },
  { pattern: 'vfs_fsync_range' },
  { pattern: 'PathDeniedError' },
  { pattern: 'retry.*count', regex: true },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

function rgCount(q: { pattern: string; regex?: boolean }): number {
  const started = performance.now();
  spawnSync('rg', ['--no-config', '--count', ...(q.regex ? [] : ['--fixed-strings']), '--regexp', q.pattern, '.'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20 });
  return performance.now() - started;
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BUNDLE, ...args, '--project-root', ROOT], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The last warm-start sweep the servers logged (how it found the changes, how long it took). */
function lastSweep(): string {
  for (const d of readdirSync(dataDir)) {
    const log = path.join(dataDir, d, 'ctxgate.log');
    if (!existsSync(log)) continue;
    const line = readFileSync(log, 'utf8').trimEnd().split('\n').reverse().find((l) => l.includes('"code_index_reconciled"'));
    if (!line) continue;
    const e = JSON.parse(line) as { by?: string; checked: number; changed: number; ms: number };
    return `sweep ${e.by ?? 'stats'}: ${e.checked} checked, ${e.changed} changed, ${e.ms} ms`;
  }
  return 'no sweep logged';
}

async function connect(profiled = true): Promise<{ client: Client; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(profiled ? PROFILE : []), BUNDLE, '--project-root', ROOT, ...SERVER_ARGS], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench-server', version: '1' });
  await client.connect(transport);
  // As MCP clients do right after the handshake (the server builds its app once the list is out).
  await client.listTools();
  return { client, close: () => client.close() };
}

async function search(client: Client, q: { pattern: string; regex?: boolean }): Promise<number> {
  const started = performance.now();
  await client.callTool({ name: 'search', arguments: { pattern: q.pattern, ...(q.regex ? { regex: true } : {}) } }, undefined, { timeout: 600_000 });
  return performance.now() - started;
}

async function buildIndex(): Promise<void> {
  const textOnly = process.env.BENCH_WAIT === 'text';
  const onDisk = () => {
    const d = JSON.parse(cli(['stats', '--json']).stdout).codeIndex as { complete: boolean; textComplete: boolean; files: number; stale: number } | null;
    return d && { ...d, complete: textOnly ? d.textComplete : d.complete };
  };
  if (onDisk()?.complete) return;
  const started = performance.now();
  // `ctxgate call` builds a small project's index; a bigger one is built by a server left running.
  const r = cli(['call', 'search', JSON.stringify({ pattern: QUERIES[0]!.pattern })]);
  if (!onDisk()?.complete) {
    console.log(`${r.stderr.trim().split('\n').pop() ?? ''}; building through a server`);
    const { client, close } = await connect(false);
    await search(client, QUERIES[0]!);
    while (!onDisk()?.complete) await new Promise((resolve) => setTimeout(resolve, 5000));
    await close();
  }
  const d = onDisk();
  console.log(`index built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${d?.files} files, ${d?.stale} stale`);
}

console.log(`${ROOT}; data ${dataDir}; node ${process.version}; rg ${spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]}; load ${loadavg()[0]!.toFixed(2)}`);
await buildIndex();
rgCount(QUERIES[0]!); // the page cache, as for the server

const firsts: { pattern: string; server: number; connected: number; rg: number }[] = [];
for (let i = 0; i < runs; i++) {
  const q = QUERIES[i % QUERIES.length]!;
  const started = performance.now();
  const { client, close } = await connect();
  const connected = performance.now() - started;
  const t = await search(client, q);
  // rg -c once the server is gone: alive, its start's remaining work (the watch, workers) took CPU from rg.
  await close();
  const rg = rgCount(q);
  firsts.push({ pattern: q.pattern, server: t, connected: connected + t, rg });
  console.log(`  new server ${i + 1}: ${ms(t)} (with the start and connect ${ms(connected + t)}) vs rg -c ${ms(rg)}; ${lastSweep()}; load ${loadavg()[0]!.toFixed(2)}`);
}
const first = median(firsts.map((f) => f.server));
const firstRg = median(firsts.map((f) => f.rg));
console.log(`first search of a new server: ${ms(first)} (with the process start and connect: ${ms(median(firsts.map((f) => f.connected)))}) vs rg -c ${ms(firstRg)}: ${(first / firstRg).toFixed(2)}× (target ≤ 0.5×)`);
for (const q of QUERIES) {
  const of = firsts.filter((f) => f.pattern === q.pattern);
  if (of.length) console.log(`  first ${q.pattern.padEnd(18)} ${ms(median(of.map((f) => f.server))).padStart(7)} vs rg -c ${ms(median(of.map((f) => f.rg))).padStart(7)}  ${(median(of.map((f) => f.server)) / median(of.map((f) => f.rg))).toFixed(2)}× (${of.length} servers)`);
}

const { client, close } = await connect();
const per = new Map<string, { server: number[]; rg: number[] }>(QUERIES.map((q) => [q.pattern, { server: [], rg: [] }]));
const until = performance.now() + seconds * 1000;
await search(client, QUERIES[0]!);
while (performance.now() < until) {
  for (const q of QUERIES) {
    const p = per.get(q.pattern)!;
    p.server.push(await search(client, q));
    p.rg.push(rgCount(q));
  }
}
await close();
const ratios: number[] = [];
for (const [pattern, p] of per) {
  const s = median(p.server);
  const r = median(p.rg);
  ratios.push(s / r);
  console.log(`  ${pattern.padEnd(18)} ${ms(s).padStart(8)} vs rg -c ${ms(r).padStart(8)}  ${(s / r).toFixed(2)}× (${p.server.length} calls)`);
}
console.log(`over ${seconds} s after the first: median ${median(ratios).toFixed(2)}× rg -c (target ≤ 0.1×); load ${loadavg()[0]!.toFixed(2)}`);
