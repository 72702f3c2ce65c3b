// The first call of the first session against the answer of a built index (issue 21): held-out
// declarations of `effect` (the TypeScript compiler's syntax tree names them: definitions and locals
// alike), each asked four ways — `read NAME`, `read FILE:LINE`, `locate NAME kind=definition` and
// `explore NAME callers` — each as the FIRST call of a new stdio server on a new, empty data dir (no
// index yet: the server parses what the answer rests on), then all of them by one server whose
// index is complete. The replies are compared as the client gets them (text), with the note a reply
// may carry about the index being built left out; and row by row, the counts in their headers aside
// (`10 of 186+ for fiber`, `12+ other definitions of message`: before the index, a common name's
// declarations in files the lookup had no cause to parse are not counted, and the + says so).
//
//   node --import tsx scripts/bench-first-call.ts [samples=20] [seed=7]
//   BENCH_BUNDLE=dist-bench/ctxgate.mjs …   a copy of the bundle (tests rebuild dist/)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { effectSources } from './lib/corpora.ts';
import { lcgSample } from './lib/seeded.ts';
import { typescriptDeclarations } from './lib/ts-declarations.ts';

const [samples = 20, seed = 7] = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
const BUNDLE = path.resolve(process.env.BENCH_BUNDLE ?? path.join(import.meta.dirname, '..', 'dist', 'ctxgate.mjs'));
const ROOT = effectSources();

interface Ask {
  label: string;
  tool: string;
  args: Record<string, unknown>;
}

/** A client on a new stdio server with its own data dir. */
async function connect(dataDir: string): Promise<{ client: Client; close: () => Promise<void> }> {
  const env = { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: dataDir };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE, '--project-root', ROOT], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench-first-call', version: '1' });
  await client.connect(transport);
  await client.listTools();
  return { client, close: () => client.close() };
}

async function ask(client: Client, a: Ask): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const r = (await client.callTool({ name: a.tool, arguments: a.args }, undefined, { timeout: 300_000 })) as { content: { type: string; text?: string }[] };
  const ms = performance.now() - started;
  return { text: r.content.map((c) => c.text ?? '').join('\n'), ms };
}

/** The reply without what only says how far the index is (the answer itself must be the same). */
function answerOf(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/code index|index (is )?(still )?build|being built|not built yet|parsed (on demand|now)/i.test(l))
    .join('\n')
    .trim();
}

/** The rows of a reply: its locations and texts, without the counts of its headers. */
function rowsOf(text: string): string {
  return answerOf(text)
    .split('\n')
    .filter((l) => !/^\d+ of \d+\+? for |^\d+\+? other definitions? of |^\s*… \d+ more/.test(l))
    .join('\n');
}

const all = typescriptDeclarations(ROOT);
// Names the sample can ask by: identifiers, not `default` or one letter.
const named = all.filter((d) => /^[A-Za-z_$][\w$]{2,}$/.test(d.name) && d.name !== 'default');
const picks = [...lcgSample(named.filter((d) => !d.local), Math.ceil(samples / 2), seed), ...lcgSample(named.filter((d) => d.local), Math.floor(samples / 2), seed + 1)];
const asks: Ask[] = picks.flatMap((d) => [
  { label: `read ${d.name}`, tool: 'read', args: { target: d.name } },
  { label: `read ${d.file}:${d.line}`, tool: 'read', args: { target: `${d.file}:${d.line}` } },
  { label: `locate ${d.name}`, tool: 'locate', args: { query: d.name, kind: 'definition' } },
  { label: `explore ${d.name} callers`, tool: 'explore', args: { anchor: d.name, relation: 'callers' } },
]);
console.log(`${ROOT}: ${picks.length} declarations (${picks.filter((d) => !d.local).length} definitions, ${picks.filter((d) => d.local).length} locals), ${asks.length} questions; node ${process.version}; load ${loadavg()[0]!.toFixed(2)}`);

// The index complete: `ctxgate call` builds a project this small first.
const indexedDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-first-indexed-'));
const built = spawnSync(process.execPath, [BUNDLE, 'call', 'search', JSON.stringify({ pattern: 'pipe' }), '--project-root', ROOT], { env: { ...process.env, CTXGATE_DATA_DIR: indexedDir }, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`building the index failed: ${built.stderr}`);
const indexed = new Map<string, string>();
{
  const { client, close } = await connect(indexedDir);
  for (const a of asks) indexed.set(a.label, (await ask(client, a)).text);
  await close();
}

const byTool = new Map<string, { same: number; rows: number; n: number; ms: number[] }>();
const differ: string[] = [];
for (const a of asks) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-first-'));
  const { client, close } = await connect(dataDir);
  const first = await ask(client, a);
  await close();
  rmSync(dataDir, { recursive: true, force: true });
  const kind = a.label.startsWith('read') && a.label.includes(':') ? 'read FILE:LINE' : a.label.split(' ')[0]!;
  const t = byTool.get(kind) ?? { same: 0, rows: 0, n: 0, ms: [] };
  t.n++;
  t.ms.push(first.ms);
  if (process.env.BENCH_VERBOSE) console.log(`  ${a.label}: ${first.ms.toFixed(0)} ms`);
  const want = indexed.get(a.label)!;
  if (rowsOf(first.text) === rowsOf(want)) t.rows++;
  if (answerOf(first.text) === answerOf(want)) t.same++;
  else differ.push(`--- ${a.label}\n  first call:\n${first.text.slice(0, 600)}\n  indexed:\n${want.slice(0, 600)}`);
  byTool.set(kind, t);
}
rmSync(indexedDir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? 0;
let same = 0;
let rows = 0;
for (const [kind, t] of byTool) {
  same += t.same;
  rows += t.rows;
  console.log(`  ${kind.padEnd(16)} same answer ${t.same}/${t.n}, same rows ${t.rows}/${t.n}; first call median ${median(t.ms).toFixed(0)} ms, slowest ${Math.max(...t.ms).toFixed(0)} ms`);
}
const pct = (a: number) => `${((100 * a) / asks.length).toFixed(1)}% (${a}/${asks.length})`;
console.log(`on a fresh data dir as with the index: same answer ${pct(same)}, same rows ${pct(rows)}; load ${loadavg()[0]!.toFixed(2)}`);
if (differ.length && process.env.BENCH_VERBOSE) console.log(differ.join('\n'));
else if (differ.length) console.log(`(${differ.length} differ: BENCH_VERBOSE=1 prints them)`);
