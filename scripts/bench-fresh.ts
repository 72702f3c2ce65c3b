// Freshness as a client sees it (issue 21's targets): edits the index must never miss, each asked of
// real stdio servers over MCP on a generated project whose index is complete.
//
//   1. offline, same size, same mtime: a server stopped, a function renamed in place (same length)
//      and the file's times put back; a NEW server's first `search` for the new name and `locate`
//      of it (kind definition) must find it;
//   2. live, same size, same mtime: the same edit under a running server, asked right after;
//   3. written before the call: a new file with a new function, `locate` right after the write;
//   4. rewritten in a loop: one file written again and again (truncate, write) while `locate` asks
//      for the function it always holds.
//
//   node --import tsx scripts/bench-fresh.ts [trials=20]
//   BENCH_BUNDLE=…/ctxgate.mjs   a copy of the bundle (tests rebuild dist/)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const trials = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20);
const BUNDLE = path.resolve(process.env.BENCH_BUNDLE ?? path.join(import.meta.dirname, '..', 'dist', 'ctxgate.mjs'));
const FILES = 400;

const root = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-fresh-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-fresh-data-'));
/** Each file defines one function whose name has a 4-letter tail the trials change in place. */
const fileOf = (i: number) => path.join(root, 'src', `m${Math.floor(i / 40)}`, `f${i}.ts`);
const nameOf = (i: number, tail: string) => `fn${String(i).padStart(3, '0')}_${tail}`;
const body = (i: number, tail: string) => `// module ${i}\nexport function ${nameOf(i, tail)}(x: number): number {\n  return x + ${i}\n}\n`;
for (let i = 0; i < FILES; i++) {
  mkdirSync(path.dirname(fileOf(i)), { recursive: true });
  writeFileSync(fileOf(i), body(i, 'aaaa'));
}

async function connect(): Promise<{ client: Client; close: () => Promise<void> }> {
  const env = { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: dataDir };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE, '--project-root', root], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench-fresh', version: '1' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

async function text(client: Client, tool: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name: tool, arguments: args });
  return (r.content as { type: string; text: string }[])[0]?.text ?? '';
}

/** Whether `search` shows the name in its file and `locate` gives its definition there. */
async function finds(client: Client, i: number, tail: string): Promise<{ search: boolean; locate: boolean }> {
  const rel = path.relative(root, fileOf(i));
  const searched = await text(client, 'search', { pattern: nameOf(i, tail) });
  const located = await text(client, 'locate', { query: nameOf(i, tail), kind: 'definition' });
  return { search: searched.includes(rel), locate: new RegExp(`^${rel.replace(/[.]/g, '\\.')}:2(-4)? definition`, 'm').test(located) };
}

/** Renames file i's function in place: the same size, the same mtime (and atime) as before. */
function sameSizeSameTime(i: number, from: string, to: string): void {
  const file = fileOf(i);
  const before = statSync(file);
  const next = readFileSync(file, 'utf8').replace(nameOf(i, from), nameOf(i, to));
  writeFileSync(file, next);
  utimesSync(file, before.atime, before.mtime);
  if (statSync(file).size !== before.size) throw new Error('the edit changed the size');
}

const tally = () => ({ search: 0, locate: 0, n: 0 });
const add = (t: ReturnType<typeof tally>, r: { search: boolean; locate: boolean }) => {
  t.n++;
  if (r.search) t.search++;
  if (r.locate) t.locate++;
};
const pct = (k: number, n: number) => `${((100 * k) / Math.max(1, n)).toFixed(0)}% (${k}/${n})`;

console.log(`${root}: ${FILES} files; node ${process.version}; load ${loadavg()[0]!.toFixed(2)}`);
// The index complete: `ctxgate call` builds a project this small first.
const built = spawnSync(process.execPath, [BUNDLE, 'call', 'search', JSON.stringify({ pattern: 'module' }), '--project-root', root], { env: { ...process.env, CTXGATE_DATA_DIR: dataDir }, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`building the index failed: ${built.stderr}`);

// 1. Offline edits, each then asked of a new server.
const offline = tally();
const tails = new Map<number, string>();
for (let t = 0; t < trials; t++) {
  const i = (t * 37) % FILES;
  const from = tails.get(i) ?? 'aaaa';
  const to = t % 2 ? 'bbbb' : 'cccc';
  sameSizeSameTime(i, from, to === from ? 'dddd' : to);
  tails.set(i, to === from ? 'dddd' : to);
  const { client, close } = await connect();
  add(offline, await finds(client, i, tails.get(i)!));
  await close();
}
console.log(`offline edit (same size, same mtime), a new server's first calls: search ${pct(offline.search, offline.n)}, locate ${pct(offline.locate, offline.n)}`);

// 2–4 under one running server.
const { client, close } = await connect();
await text(client, 'search', { pattern: 'module 1' });
const live = tally();
for (let t = 0; t < trials; t++) {
  const i = (t * 53 + 11) % FILES;
  const from = tails.get(i) ?? 'aaaa';
  const to = from === 'eeee' ? 'ffff' : 'eeee';
  sameSizeSameTime(i, from, to);
  tails.set(i, to);
  add(live, await finds(client, i, to));
}
console.log(`live edit (same size, same mtime), asked right after: search ${pct(live.search, live.n)}, locate ${pct(live.locate, live.n)}`);

const written = tally();
for (let t = 0; t < trials; t++) {
  const i = FILES + t;
  mkdirSync(path.dirname(fileOf(i)), { recursive: true });
  writeFileSync(fileOf(i), body(i, 'newf'));
  add(written, await finds(client, i, 'newf'));
}
console.log(`a new file's definition written before the call: search ${pct(written.search, written.n)}, locate ${pct(written.locate, written.n)}`);

// One file rewritten without pause (truncate, then write) while locate asks for its function.
const looped = FILES - 1;
const loopTail = tails.get(looped) ?? 'aaaa';
const script = `const fs = require('fs'); const b = ${JSON.stringify(body(looped, loopTail))}; const f = ${JSON.stringify(fileOf(looped))}; const end = Date.now() + 60000; while (Date.now() < end) fs.writeFileSync(f, b);`;
const writer = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
const loop = tally();
const asks = Math.max(20, trials * 2);
for (let t = 0; t < asks; t++) add(loop, await finds(client, looped, loopTail));
writer.kill();
console.log(`a file rewritten in a loop, asked ${asks} times: search ${pct(loop.search, loop.n)}, locate ${pct(loop.locate, loop.n)}`);
await close();
rmSync(root, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
