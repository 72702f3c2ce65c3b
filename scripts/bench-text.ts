// Text search benchmark on the Linux 6.1 tree (issue 14): the gate's `search` and `locate` through
// the real tools (in-process app; graph backend none — file scans only — or, with --builtin, the
// default code index), side by side with `rg -c` on the same query in the same run.
//
//   node --import tsx scripts/bench-text.ts [runs=5] [--index] [--builtin] [--oracle | --oracle-only]
//   node --import tsx scripts/bench-text.ts [runs=5] --no-rg
//   BENCH_DATA_DIR=/tmp/x …   keeps the data folder (and a built index) from one run to the next
//
// 1. first query: the first search of `runs` fresh apps (each its own data folder: no index) vs rg -c; median.
// 2. search: rare, common and absent literals, a regex, a refused common term; median of `runs`.
// 3. locate on sampled kernel symbols (kind definition); median.
// When the app has a text index (app.textIndex, wired by the app), sections 2–3 run again once it
// reports ready ("warm index"). Without one the script says "no index" and the figures are scans.
// --oracle: sections 2–3 once more with a stand-in index whose candidates are exactly the files
// `rg -l` names (computed before the timed runs): what verifying an ideal index's candidates costs,
// not a real index.
// --no-rg: only the built-in engine's full scan — the app is not shown ripgrep and has no text index
// (as on a machine without rg, before the first index): `search` and `ctx_fs rg` beside `rg -c`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/app/bootstrap.ts';
import { type AppContext, createClientSession } from '../src/app/context.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import type { TextIndexReader, TextQuery } from '../src/textindex/types.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';

const ROOT = '/tmp/linux-full/linux-source-6.1';
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5);
const oracle = process.argv.includes('--oracle');
/** --builtin: the default graph backend (locate answers definitions from the code index) instead of none (file scans only). */
const GRAPH = process.argv.includes('--builtin') ? 'builtin' : 'none';
/** --index: build and use the app's own text index (app.code.text) when app.textIndex is not wired. */
const useCodeText = process.argv.includes('--index');
/** --oracle-only: skip the scan figures (sections 1–3), for a quick look at the oracle's. */
const oracleOnly = process.argv.includes('--oracle-only');
/** --no-rg: the built-in engine's scan only (no ripgrep for the app, no text index). */
const noRg = process.argv.includes('--no-rg');

interface Query {
  label: string;
  pattern: string;
  regex?: boolean;
}
const SEARCHES: Query[] = [
  { label: 'rare literal', pattern: 'vfs_fsync_range' },
  { label: 'common literal', pattern: 'kmalloc_array' },
  { label: 'absent literal', pattern: 'PathDeniedError' },
  { label: 'regex', pattern: 'retry.*count', regex: true },
  { label: 'refused common', pattern: 'spin_lock_irqsave' },
];
const SYMBOLS = ['vfs_read', 'kernel_clone', 'do_sys_open', 'tcp_sendmsg', 'ext4_fill_super', 'inode_permission', 'list_add', 'copy_from_user', 'sk_buff', 'alloc_pages'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function rgCount(q: { pattern: string; regex?: boolean; word?: boolean }): number {
  const started = performance.now();
  const args = ['--no-config', '--count', ...(q.regex ? [] : ['--fixed-strings']), ...(q.word ? ['--word-regexp'] : []), '--regexp', q.pattern, '.'];
  spawnSync('rg', args, { cwd: ROOT, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  return performance.now() - started;
}

function makeApp(runtime: Awaited<ReturnType<typeof loadRuntime>>, dataDir: string): AppContext {
  const env: Record<string, string> = { ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir };
  const which = noRg ? (name: string) => (name === 'rg' ? undefined : runtime.which(name)) : runtime.which;
  return createAppContext({ ...runtime, which, env: { get: (n) => env[n], toObject: () => env } }, { projectRoot: ROOT, debug: false, graphBackend: GRAPH });
}

function caller(app: AppContext) {
  const registry = createToolRegistry(TOOLS);
  return async (tool: string, args: Record<string, unknown>) => {
    const started = performance.now();
    const r = await registry.call(tool, args, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });
    const ms = performance.now() - started;
    if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.content[0]?.text}`);
    return { ms, text: r.content[0]!.text };
  };
}

/** A stand-in index: exactly the files rg -l names for the query (computed on first use, then cached). */
function oracleIndex(): TextIndexReader & { prepare(q: TextQuery): void } {
  const cache = new Map<string, string[]>();
  const key = (q: TextQuery) => `${q.literal}:${q.ignoreCase}:${q.pattern}`;
  const prepare = (q: TextQuery) => {
    if (cache.has(key(q))) return;
    const args = ['--no-config', '--files-with-matches', '--no-ignore', '--hidden', ...(q.literal ? ['--fixed-strings'] : []), ...(q.ignoreCase ? ['--ignore-case'] : []), '--regexp', q.pattern, '.'];
    const r = spawnSync('rg', args, { cwd: ROOT, maxBuffer: 1 << 28, encoding: 'utf8' });
    cache.set(
      key(q),
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((f) => f.replace(/^\.\//, ''))
        .sort(),
    );
  };
  return {
    prepare,
    async candidates(q, scope) {
      prepare(q);
      const files = cache.get(key(q))!.filter((f) => !scope || f.startsWith(`${scope}/`));
      return { files, ruledOut: 78_579 - files.length };
    },
    touched() {},
    status: () => ({ state: 'ready', indexed: 78_579, total: 78_579, bytes: 0 }),
  };
}

async function section(title: string, call: ReturnType<typeof caller>): Promise<void> {
  console.log(`\n${title} (load ${load()})`);
  console.log('query                         gate ms   rg -c ms   ratio   answer');
  const ratios: number[] = [];
  for (const q of SEARCHES) {
    await call('search', { pattern: q.pattern, regex: q.regex ?? false }); // warm
    const ours: number[] = [];
    const theirs: number[] = [];
    let text = '';
    for (let i = 0; i < runs; i++) {
      const r = await call('search', { pattern: q.pattern, regex: q.regex ?? false });
      ours.push(r.ms);
      text = r.text;
      theirs.push(rgCount(q));
    }
    const ratio = median(ours) / median(theirs);
    ratios.push(ratio);
    console.log(
      `${`${q.label} ${q.pattern}`.padEnd(30)}${median(ours).toFixed(0).padStart(7)}${median(theirs).toFixed(0).padStart(11)}${ratio.toFixed(2).padStart(8)}   ${text.split('\n')[0]!.slice(0, 60)}`,
    );
  }
  console.log(`search median ratio: ${median(ratios).toFixed(2)}× rg -c`);
  const locateMs: number[] = [];
  const rgMs: number[] = [];
  for (const s of SYMBOLS) {
    await call('locate', { query: s, kind: 'definition' }); // warm
    locateMs.push((await call('locate', { query: s, kind: 'definition' })).ms);
    rgMs.push(rgCount({ pattern: s, word: true }));
  }
  console.log(`locate (kind definition) on ${SYMBOLS.length} symbols: median ${median(locateMs).toFixed(0)} ms (min ${Math.min(...locateMs).toFixed(0)}, max ${Math.max(...locateMs).toFixed(0)}); rg -c -w median ${median(rgMs).toFixed(0)} ms`);
}

/** The built-in engine's full scan: the gate's search and ctx_fs rg (limit 50, and 500 with context), beside rg -c. */
async function builtinScan(call: ReturnType<typeof caller>): Promise<void> {
  console.log(`\nbuilt-in engine, full scan (no rg, no index; load ${load()})`);
  console.log('call                                         ours ms   rg -c ms   ratio   answer');
  const CALLS: { label: string; tool: string; args: Record<string, unknown>; rg: { pattern: string; regex?: boolean } }[] = [
    { label: 'search kmalloc_array', tool: 'search', args: { pattern: 'kmalloc_array' }, rg: { pattern: 'kmalloc_array' } },
    { label: 'search PathDeniedError (absent)', tool: 'search', args: { pattern: 'PathDeniedError' }, rg: { pattern: 'PathDeniedError' } },
    { label: 'search retry.*count (regex)', tool: 'search', args: { pattern: 'retry.*count', regex: true }, rg: { pattern: 'retry.*count', regex: true } },
    { label: 'ctx_fs rg kmalloc_array', tool: 'ctx_fs', args: { action: 'rg', pattern: 'kmalloc_array', literal: true }, rg: { pattern: 'kmalloc_array' } },
    { label: 'ctx_fs rg PathDeniedError (absent)', tool: 'ctx_fs', args: { action: 'rg', pattern: 'PathDeniedError', literal: true }, rg: { pattern: 'PathDeniedError' } },
  ];
  for (const c of CALLS) {
    const ours: number[] = [];
    const theirs: number[] = [];
    let text = '';
    for (let i = 0; i < runs; i++) {
      const r = await call(c.tool, c.args);
      ours.push(r.ms);
      text = r.text;
      theirs.push(rgCount(c.rg));
    }
    const ratio = median(ours) / median(theirs);
    console.log(`${c.label.padEnd(43)}${median(ours).toFixed(0).padStart(8)}${median(theirs).toFixed(0).padStart(11)}${ratio.toFixed(2).padStart(8)}   ${text.split('\n')[0]!.slice(0, 50)}`);
  }
  console.log(`(load ${load()})`);
}

if (!existsSync(ROOT)) throw new Error(`${ROOT} is missing: see scripts/bench-gate.ts for how it is unpacked`);
if (/^\/\*$/m.test(readFileSync(path.join(ROOT, '.gitignore'), 'utf8'))) throw new Error('the tree still has Debian\'s "/*" gitignore rule: run scripts/bench-gate.ts linux once');
const runtime = await loadRuntime();
console.log(`Linux 6.1 tree ${ROOT}; ${runtime.name} ${runtime.version}; rg ${spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]}; ${runs} runs per query; load ${load()}`);

// 1. A fresh app's first query (page cache warm: rg ran first). The modules are loaded first by a
// search on a tiny project, as a running server has them: under tsx a module is compiled on its
// first import, which would otherwise be counted here (about half a second).
{
  const tiny = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-tiny-'));
  writeFileSync(path.join(tiny, 'a.c'), 'int kmalloc_array(void);\n');
  const tinyData = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-tiny-data-'));
  const tinyEnv: Record<string, string> = { ...runtime.env.toObject(), CTXGATE_DATA_DIR: tinyData };
  const warm = createAppContext({ ...runtime, env: { get: (n) => tinyEnv[n], toObject: () => tinyEnv } }, { projectRoot: tiny, debug: false, graphBackend: GRAPH });
  await caller(warm)('search', { pattern: 'kmalloc_array' });
  await warm.lifecycle.shutdown('warmed');
  rmSync(tiny, { recursive: true, force: true });
  rmSync(tinyData, { recursive: true, force: true });
}
// 1. The first query of `runs` fresh apps, each with a data folder of its own (no index), beside rg -c.
if (!noRg && !oracleOnly) {
  const ratios: number[] = [];
  const line: string[] = [];
  for (let i = 0; i < runs; i++) {
    const fresh = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-first-'));
    rgCount({ pattern: 'kmalloc_array' });
    const rg = rgCount({ pattern: 'kmalloc_array' });
    const app = makeApp(runtime, fresh);
    const first = await caller(app)('search', { pattern: 'kmalloc_array' });
    await app.lifecycle.shutdown('bench first query');
    rmSync(fresh, { recursive: true, force: true });
    ratios.push(first.ms / rg);
    line.push(`${first.ms.toFixed(0)}/${rg.toFixed(0)}`);
  }
  console.log(`\nfirst query of ${runs} fresh apps (no index; search kmalloc_array ms / rg -c ms): ${line.join(' ')}; median ${median(ratios).toFixed(2)}×`);
}
{
  rgCount({ pattern: 'kmalloc_array' });
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-text-'));
  const app = makeApp(runtime, dataDir);
  const call = caller(app);
  if (noRg) {
    // No text index either: every call is the built-in engine's full scan.
    app.textIndex = undefined;
    await builtinScan(call);
    await app.lifecycle.shutdown('bench done');
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
  const rg = rgCount({ pattern: 'kmalloc_array' });
  const first = await call('search', { pattern: 'kmalloc_array' });
  console.log(`\nfirst query, fresh app (${app.textIndex ? `text index ${app.textIndex.status().state}` : 'no index'}): search kmalloc_array ${first.ms.toFixed(0)} ms vs rg -c ${rg.toFixed(0)} ms = ${(first.ms / rg).toFixed(2)}×`);

  // 2–3. Warm figures: scans, or the index once ready.
  // --index: the app's own text index (app.code.text) when the app has not wired one into the gate yet.
  const wiredHere = !app.textIndex && useCodeText;
  const index = app.textIndex ?? (useCodeText ? app.code.text : undefined);
  if (oracleOnly) {
    // no scan figures
  } else if (!index) {
    await section('no index (app.textIndex is not wired; --index uses app.code.text): every query is a scan', call);
  } else {
    if (wiredHere) app.textIndex = index;
    console.log(`\ntext index${wiredHere ? ' (app.code.text, wired for this run)' : ''}: ${JSON.stringify(index.status())}; building (scan figures: run without --index)`);
    // The whole pass (text stage, then the parse stage of the code index) before the warm figures,
    // so that parsing does not compete with them for the cores.
    const started = performance.now();
    const pass = app.code.refresh();
    let finished = false;
    void pass.finally(() => {
      finished = true;
    });
    let textAt: number | undefined;
    while (!finished) {
      await new Promise((r) => setTimeout(r, 10_000));
      const s = index.status();
      if (s.state === 'ready' && textAt === undefined) textAt = performance.now() - started;
      const c = app.code.status();
      console.log(`  text index ${s.state}: ${s.indexed}/${s.total} files, ${(s.bytes / 1e6).toFixed(0)} MB; code index ${c.state} ${c.done}/${c.total}; ${((performance.now() - started) / 1000).toFixed(0)} s; load ${load()}`);
    }
    await pass;
    console.log(`pass done in ${((performance.now() - started) / 1000).toFixed(0)} s (text index ready after ${textAt === undefined ? '?' : (textAt / 1000).toFixed(0)} s)`);
    await section(`warm index (${JSON.stringify(index.status())})`, call);
  }
  if (oracle || oracleOnly) {
    const stand = oracleIndex();
    app.textIndex = stand;
    await section('oracle candidates (exactly the files rg -l names; NOT a real index: the cost of verifying ideal candidates)', call);
  }
  await app.lifecycle.shutdown('bench done');
  if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
}
