// Exact-string search as a client sees it (issue 20's targets): the built server over stdio, `search`
// called through the MCP SDK's Client, `rg -F -n` beside it in the same run, on code nobody here wrote.
//
//   nice -n 10 node --import tsx scripts/bench-literal.ts [effect|python|go|linux …]
//   (default: effect python go; build first: node scripts/build.mjs)
//   BENCH_PER_SORT=10  strings of each of the four sorts per corpus   BENCH_SEED=20  the sample's seed
//   BENCH_MODES=fresh,indexed   BENCH_HOOK=0 skips the hook
//
// Each corpus is measured twice, each time by a new server process: on a fresh data dir (no text or
// code index yet: a new user's first calls) and on a data dir whose index an earlier process built
// (started, polled until the text and code index were complete, stopped). The hook
// (`ctxgate hook pre-tool-use`) is given `rg -n 'STRING'` for every string; each suggestion it
// denies with is called on the same server and judged against what that command prints.
//
// Sample (held out: from the sources, never from ctxgate): error/log messages, comment phrases,
// identifiers and code fragments holding . ( [ * — each with 1 to 20 `rg -F -n` lines. ripgrep runs
// with the view ctxgate has (.gitignore respected without a git repository); lines ctxgate may leave
// out (scan.excludeDirs, secret-like files, files past its size limit) are counted apart, not as misses.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { getPriority, loadavg, setPriority } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { defaultConfig } from '../src/config/defaults.ts';
import { secretReason } from '../src/security/secret-files.ts';
import { MAX_SEARCH_FILE_BYTES } from '../src/workspace/grep/types.ts';
import { coveredByRanges, parseRgLines, parseSearchReply, type RgLine, rowIndexes, type SuggestedCall, suggestedCalls } from './lib/literal-reply.ts';
import { acceptablePattern, candidates, languageOf, SORTS, type Sort } from './lib/literal-sample.ts';
import { seededRandom, shuffled } from './lib/seeded.ts';
import { effectSources, linuxTree } from './lib/corpora.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const BUNDLE = path.join(REPO, 'dist', 'ctxgate.mjs');
const WORK = '/tmp/bench-literal';
const PER_SORT = Number(process.env.BENCH_PER_SORT ?? 10);
const SEED = Number(process.env.BENCH_SEED ?? 20);
const MODES = (process.env.BENCH_MODES ?? 'fresh,indexed').split(',') as Mode[];
const WITH_HOOK = process.env.BENCH_HOOK !== '0';
/** Files looked at for candidates per corpus (enough for every sort; a bound on the Linux tree). */
const SAMPLE_FILES = 400;
/** ripgrep with ctxgate's view: .gitignore honoured without a git repository, no user config. */
const RG_VIEW = ['--no-config', '--no-require-git', '--no-ignore-global'];

type Mode = 'fresh' | 'indexed';

interface Corpus {
  name: string;
  /** Prepares the folder once (copies, unpacks) and returns it. */
  prepare(): string;
}

function copyOnce(name: string, from: string, parts: string[]): string {
  const dir = path.join(WORK, name);
  if (existsSync(path.join(dir, '.bench-complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const part of parts) cpSync(path.join(from, part), path.join(dir, part), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  writeFileSync(path.join(dir, '.bench-complete'), `${from}: ${parts.join(' ')}\n`);
  return dir;
}

const PYTHON_PACKAGES = ['asyncio', 'email', 'json', 'logging', 'http', 'concurrent', 'urllib', 'xml', 'multiprocessing', 'importlib', 'collections', 'unittest'];

const CORPORA: Corpus[] = [
  {
    name: 'effect',
    prepare() {
      const src = effectSources();
      return copyOnce('effect', src, readdirSync(src));
    },
  },
  {
    name: 'python',
    prepare() {
      const from = '/usr/lib/python3.11';
      const modules = readdirSync(from).filter((f) => f.endsWith('.py'));
      return copyOnce('python', from, [...modules, ...PYTHON_PACKAGES]);
    },
  },
  {
    name: 'go',
    prepare() {
      return copyOnce('go', '/usr/share/go-1.19/src', ['net', 'strings', 'bufio', 'encoding', 'fmt', 'os']);
    },
  },
  {
    name: 'linux',
    prepare() {
      return linuxTree();
    },
  },
];

// ---------------------------------------------------------------------------------------------
// ripgrep and what ctxgate may leave out

interface RgRun {
  stdout: string;
  bytes: number;
  ms: number;
  status: number | null;
}

function rg(root: string, args: string[]): RgRun {
  const started = performance.now();
  const r = spawnSync('rg', [...RG_VIEW, ...args], { cwd: root, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  return { stdout: r.stdout.toString('utf8'), bytes: r.stdout.length, ms, status: r.status };
}

const EXCLUDED_DIRS = new Set(defaultConfig().scan.excludeDirs);

/** Why ctxgate may leave a file's lines out, or undefined when it must show them. */
function entitledToSkip(root: string, file: string): string | undefined {
  if (file.split('/').slice(0, -1).some((part) => EXCLUDED_DIRS.has(part))) return 'scan.excludeDirs';
  if (secretReason(file)) return 'secret-like';
  if (statSync(path.join(root, file)).size > MAX_SEARCH_FILE_BYTES) return 'over the size limit';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The sample

interface Sample {
  sort: Sort;
  pattern: string;
  /** `rg -F -n --sort path` lines ctxgate must show, in path order. */
  expected: RgLine[];
  /** Lines ctxgate may leave out (see entitledToSkip). */
  entitled: number;
}

function sampleCorpus(root: string): Sample[] {
  // One generator per step, so that a change in one sort's candidates leaves the others' picks alone.
  const files = rg(root, ['--files', '--sort', 'path'])
    .stdout.split('\n')
    .filter((f) => f && languageOf(f) && !entitledToSkip(root, f));
  const pool: Record<Sort, string[]> = { message: [], comment: [], identifier: [], metachar: [] };
  const phrases = seededRandom(SEED + 1);
  for (const file of shuffled(files, seededRandom(SEED)).slice(0, SAMPLE_FILES)) {
    const found = candidates(readFileSync(path.join(root, file), 'utf8'), languageOf(file)!, phrases);
    for (const sort of SORTS) pool[sort].push(...found[sort]);
  }
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const [i, sort] of SORTS.entries()) {
    let taken = 0;
    let tried = 0;
    for (const pattern of shuffled([...new Set(pool[sort])], seededRandom(SEED * 100 + i))) {
      if (taken >= PER_SORT || tried >= 40 * PER_SORT) break;
      if (seen.has(pattern) || !acceptablePattern(pattern)) continue;
      if (sort === 'metachar' && !/[.([*]/.test(pattern)) continue;
      seen.add(pattern);
      tried++;
      const lines = parseRgLines(rg(root, ['-F', '-n', '--sort', 'path', '--', pattern]).stdout);
      if (lines.length < 1 || lines.length > 20) continue;
      const expected = lines.filter((l) => !entitledToSkip(root, l.file));
      if (expected.length === 0) continue;
      samples.push({ sort, pattern, expected, entitled: lines.length - expected.length });
      taken++;
    }
    if (taken < PER_SORT) console.log(`  (only ${taken} ${sort} strings with 1–20 hit lines found)`);
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// The server as a client sees it

interface Server {
  client: Client;
  call(tool: string, args: Record<string, unknown>): Promise<{ text: string; ms: number; error: boolean }>;
  close(): Promise<void>;
}

async function startServer(root: string, dataDir: string): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, '--project-root', root],
    env: { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-literal', version: '1' });
  await client.connect(transport);
  return {
    client,
    async call(tool, args) {
      const started = performance.now();
      const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
      const ms = performance.now() - started;
      const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
      return { text, ms, error: r.isError === true };
    },
    close: () => client.close(),
  };
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** The code index's own record that a full pass completed (code_meta 'complete'), read beside the server. */
function codeIndexComplete(dataDir: string): boolean | undefined {
  const db = findFile(dataDir, 'code.db');
  if (!db) return false;
  const r = spawnSync('sqlite3', ['-readonly', db, ".timeout 2000", "SELECT value FROM code_meta WHERE key = 'complete'"], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  return r.stdout.trim() === '1';
}

/** Starts a server on a new data dir, has it build its text and code index, stops it; the dir stays. */
async function buildIndex(root: string, dataDir: string, probe: string): Promise<string> {
  const started = performance.now();
  const server = await startServer(root, dataDir);
  // The code index builds on the first gate call, the text index on the first search.
  await server.call('locate', { query: 'main' });
  await server.call('search', { pattern: probe });
  let note = '';
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const stats = await server.client.callTool({ name: 'ctx_kb', arguments: { action: 'stats' } });
    const text = (stats.structuredContent as { textIndex?: { state: string; indexed: number; total: number } | null } | undefined)?.textIndex;
    const code = codeIndexComplete(dataDir);
    note = `text index ${text ? `${text.state} ${text.indexed}/${text.total}` : 'none'}, code index ${code === undefined ? 'unreadable' : code ? 'complete' : 'building'}`;
    const textDone = !text || text.state === 'ready' || text.state === 'unavailable';
    if (textDone && code !== false) break;
    if (performance.now() - started > 30 * 60_000) {
      note += ' (gave up waiting after 30 min)';
      break;
    }
  }
  await server.close();
  return `${note}, after ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface SearchResult {
  sort: Sort;
  pattern: string;
  expected: number;
  entitled: number;
  refused: boolean;
  error: boolean;
  complete: boolean;
  inRanges: boolean;
  firstInTop3: boolean;
  replyBytes: number;
  rgBytes: number;
  ms: number;
  rgMs: number;
  firstLine: string;
  missing: number;
}

/** Why a denial's suggested call did not do the command's job. */
const SHORTFALLS = ['lines missing', 'refused', 'more bytes', 'command prints nothing', 'no call named'] as const;
type Shortfall = (typeof SHORTFALLS)[number];

interface HookResult {
  pattern: string;
  decision: 'deny' | 'nudge' | 'pass' | 'error';
  call?: SuggestedCall;
  delivers?: boolean;
  shortfall?: Shortfall;
  why?: string;
}

const bytesOf = (s: string) => Buffer.byteLength(s, 'utf8');

function judge(text: string, expected: RgLine[]) {
  const reply = parseSearchReply(text);
  const at = rowIndexes(reply.rows, expected);
  return { reply, complete: !reply.refused && at.every((i) => i >= 0), inRanges: !reply.refused && coveredByRanges(reply.rows, expected), firstAt: at[0] ?? -1, missing: at.filter((i) => i < 0).length };
}

/** A passing forced search: the gate counts consecutive refusals per session, and each string is judged on its own. */
async function resetRefusals(server: Server, reset: string): Promise<void> {
  await server.call('search', { pattern: reset, force: true });
}

async function measureSearch(server: Server, root: string, s: Sample, reset: string): Promise<{ result: SearchResult; text: string }> {
  const r = await server.call('search', { pattern: s.pattern });
  const plain = rg(root, ['-F', '-n', '--', s.pattern]);
  const j = judge(r.text, s.expected);
  if (j.reply.refused) await resetRefusals(server, reset);
  const result: SearchResult = {
    sort: s.sort,
    pattern: s.pattern,
    expected: s.expected.length,
    entitled: s.entitled,
    refused: j.reply.refused,
    error: r.error,
    complete: j.complete,
    inRanges: j.inRanges,
    firstInTop3: j.firstAt >= 0 && j.firstAt < 3,
    replyBytes: bytesOf(r.text),
    rgBytes: plain.bytes,
    ms: r.ms,
    rgMs: plain.ms,
    firstLine: j.reply.firstLine,
    missing: j.missing,
  };
  return { result, text: r.text };
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** What the hook says about `rg -n 'STRING'` run in the corpus folder. */
function askHook(root: string, pattern: string): { decision: HookResult['decision']; reason: string } {
  const input = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `rg -n ${shellQuote(pattern)}` }, cwd: root });
  const r = spawnSync(process.execPath, [BUNDLE, 'hook', 'pre-tool-use'], { input, encoding: 'utf8', cwd: root });
  if (r.status !== 0) return { decision: 'error', reason: r.stderr };
  if (!r.stdout.trim()) return { decision: 'pass', reason: '' };
  try {
    const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string }; decision?: string; reason?: string };
    const h = out.hookSpecificOutput;
    if (h?.permissionDecision === 'deny' || out.decision === 'block') return { decision: 'deny', reason: h?.permissionDecisionReason ?? out.reason ?? '' };
    return { decision: h?.additionalContext ? 'nudge' : 'pass', reason: h?.additionalContext ?? '' };
  } catch {
    return { decision: 'error', reason: `not JSON: ${r.stdout.slice(0, 200)}` };
  }
}

/** The hook's decision on `rg -n 'STRING'`, and for a denial whether the call it names does that job. */
async function measureHook(server: Server, root: string, s: Sample, searchReply: string, reset: string): Promise<HookResult> {
  const { decision, reason } = askHook(root, s.pattern);
  if (decision !== 'deny') return { pattern: s.pattern, decision, ...(decision === 'error' ? { why: reason.trim().slice(0, 200) } : {}) };
  const calls = suggestedCalls(reason);
  const call = calls.find((c) => c.tool === 'search') ?? calls[0];
  if (!call) return { pattern: s.pattern, decision, delivers: false, shortfall: 'no call named', why: `no call found in: ${reason.slice(0, 160)}` };
  // What the denied command prints; when the string is not a valid regex it prints an error, and
  // the agent's intent is the literal.
  const command = rg(root, ['-n', '--', s.pattern]);
  const printed = command.status === 2 ? rg(root, ['-F', '-n', '--', s.pattern]) : command;
  const expected = parseRgLines(printed.stdout).filter((l) => !entitledToSkip(root, l.file));
  // The same call as the search just measured gets the same answer: not asked twice (a second
  // refusal in a row would count against the gate's refusal limit).
  const same = call.tool === 'search' && Object.keys(call.args).length === 1 && call.args.pattern === s.pattern;
  const text = same ? searchReply : (await server.call(call.tool, call.args)).text;
  const j = judge(text, expected);
  if (j.reply.refused && !same) await resetRefusals(server, reset);
  const delivers = j.complete && bytesOf(text) <= printed.bytes;
  if (delivers) return { pattern: s.pattern, decision, call, delivers };
  const shortfall: Shortfall = j.reply.refused ? 'refused' : !j.complete ? 'lines missing' : command.status === 1 ? 'command prints nothing' : 'more bytes';
  const why = {
    'no call named': '',
    refused: 'refused',
    'lines missing': `${j.missing} of ${expected.length} lines missing`,
    'more bytes': `${bytesOf(text)} B > ${printed.bytes} B`,
    'command prints nothing': `${bytesOf(text)} B > 0 B: rg -n prints nothing (as a regex the string matches no line)`,
  }[shortfall];
  return { pattern: s.pattern, decision, call, delivers, shortfall, why };
}

// ---------------------------------------------------------------------------------------------
// Reporting

const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(0)}%` : '—');

interface Row {
  label: string;
  results: SearchResult[];
  hook: HookResult[];
}

/** One row of the table: the figures issue 20's targets name, and what they are compared with. */
function summarize(r: Row): [string, string][] {
  const x = r.results;
  const n = x.length;
  const count = (f: (s: SearchResult) => boolean) => x.filter(f).length;
  const denies = r.hook.filter((h) => h.decision === 'deny');
  const delivers = denies.filter((h) => h.delivers).length;
  const shortfalls = SHORTFALLS.map((k) => [k, denies.filter((h) => h.shortfall === k).length] as const).filter(([, v]) => v > 0);
  const med = (f: (s: SearchResult) => number) => String(Math.round(median(x.map(f))));
  return [
    ['corpus, data dir', r.label],
    ['strings', String(n)],
    ['every line a row', pct(count((s) => s.complete), n)],
    ['first rg hit in top 3', pct(count((s) => s.firstInTop3), n)],
    ['complete, ≤ 1.5× rg B', pct(count((s) => s.complete && s.replyBytes <= 1.5 * s.rgBytes), n)],
    ['refused', String(count((s) => s.refused))],
    ['errors', String(count((s) => s.error))],
    ['every line in a range', pct(count((s) => s.inRanges), n)],
    ['reply B (median)', med((s) => s.replyBytes)],
    ['rg B (median)', med((s) => s.rgBytes)],
    ['ms (median)', med((s) => s.ms)],
    ['rg ms (median)', med((s) => s.rgMs)],
    ['first call ms', String(Math.round(x[0]?.ms ?? 0))],
    ['entitled lines', String(x.reduce((a, s) => a + s.entitled, 0))],
    ['hook denies', r.hook.length ? `${denies.length}/${r.hook.length}` : '—'],
    ['denial delivers', denies.length ? `${delivers}/${denies.length} (${pct(delivers, denies.length)})` : '—'],
    ['why not', shortfalls.map(([k, v]) => `${k} ${v}`).join(', ') || '—'],
  ];
}

function formatTable(rows: Row[]): string {
  const cells = rows.map(summarize);
  const names = cells[0]?.map(([name]) => name) ?? [];
  const widths = names.map((name, i) => Math.max(name.length, ...cells.map((c) => c[i]![1].length)));
  const line = (values: string[]) => values.map((v, i) => (i === 0 || i === values.length - 1 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(names), ...cells.map((c) => line(c.map(([, v]) => v)))].join('\n');
}

function formatMarkdown(rows: Row[]): string {
  const cells = rows.map(summarize);
  const names = cells[0]?.map(([name]) => name) ?? [];
  return [`| ${names.join(' | ')} |`, `|${names.map(() => '---').join('|')}|`, ...cells.map((c) => `| ${c.map(([, v]) => v.trim().replace(/\s+/g, ' ')).join(' | ')} |`)].join('\n');
}

function formatFailures(label: string, results: SearchResult[], hook: HookResult[]): string[] {
  const out: string[] = [];
  const short = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);
  for (const s of results) {
    const problems = [
      s.error ? 'error' : '',
      s.refused ? 'refused' : '',
      !s.refused && !s.complete ? `${s.missing} of ${s.expected} lines not rows` : '',
      s.complete && !s.firstInTop3 ? 'first rg hit not in top 3' : '',
      s.complete && s.replyBytes > 1.5 * s.rgBytes ? `${s.replyBytes} B vs rg ${s.rgBytes} B` : '',
    ].filter(Boolean);
    if (problems.length) out.push(`  ${label} ${s.sort.padEnd(10)} ${short(s.pattern)}: ${problems.join('; ')} — ${s.firstLine.slice(0, 90)}`);
  }
  for (const h of hook) if ((h.decision === 'deny' && !h.delivers) || h.decision === 'error') out.push(`  ${label} hook       ${short(h.pattern)}: ${h.why ?? 'error'}${h.call ? ` — ${h.call.tool} ${JSON.stringify(h.call.args).slice(0, 80)}` : ''}`);
  return out;
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(BUNDLE)) {
  console.error(`${BUNDLE} is missing: run node scripts/build.mjs first`);
  process.exit(1);
}
if (getPriority() < 10) setPriority(10);
const names = process.argv.slice(2);
const unknown = names.filter((n) => !CORPORA.some((c) => c.name === n));
if (unknown.length) {
  console.error(`unknown corpus ${unknown.join(', ')}: choose from ${CORPORA.map((c) => c.name).join(', ')}`);
  process.exit(1);
}
const chosen = CORPORA.filter((c) => (names.length ? names.includes(c.name) : c.name !== 'linux'));
const head = execFileSync('git', ['-C', REPO, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
console.log(`command: nice -n 10 node --import tsx scripts/bench-literal.ts ${chosen.map((c) => c.name).join(' ')}  (BENCH_PER_SORT=${PER_SORT} BENCH_SEED=${SEED} BENCH_MODES=${MODES.join(',')})`);
console.log(`build: ${head}; dist/ctxgate.mjs of ${statSync(BUNDLE).mtime.toISOString()}; ${execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0]}`);
console.log(`ripgrep view: rg ${RG_VIEW.join(' ')} -F -n -- STRING (from the corpus folder); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);

mkdirSync(WORK, { recursive: true });
const rows: Row[] = [];
const failures: string[] = [];
const all: Record<string, unknown> = {};
for (const corpus of chosen) {
  const root = corpus.prepare();
  const files = rg(root, ['--files']).stdout.split('\n').filter(Boolean).length;
  const samples = sampleCorpus(root);
  console.log(`${corpus.name}: ${root} (${files} files); ${samples.length} strings (${SORTS.map((s) => `${samples.filter((x) => x.sort === s).length} ${s}`).join(', ')})`);
  // The refusal counter is reset with a forced search for a string found once.
  const reset = samples.find((s) => s.sort === 'identifier' && s.expected.length === 1)?.pattern ?? samples[0]!.pattern;
  for (const mode of MODES) {
    const dataDir = mkdtempSync(path.join(WORK, `data-${corpus.name}-${mode}-`));
    try {
      if (mode === 'indexed') console.log(`  index built by an earlier process: ${await buildIndex(root, dataDir, reset)}`);
      const server = await startServer(root, dataDir);
      try {
        const results: SearchResult[] = [];
        const hook: HookResult[] = [];
        for (const sample of samples) {
          const { result, text } = await measureSearch(server, root, sample, reset);
          results.push(result);
          if (WITH_HOOK) hook.push(await measureHook(server, root, sample, text, reset));
        }
        const label = `${corpus.name.padEnd(8)} ${mode.padEnd(7)}`;
        rows.push({ label, results, hook });
        failures.push(...formatFailures(label, results, hook));
        all[`${corpus.name}/${mode}`] = { results, hook };
        console.log(`  ${mode}: done`);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const overall = (mode: Mode) => {
  const picked = rows.filter((r) => r.label.includes(` ${mode}`));
  return { label: `all      ${mode.padEnd(7)}`, results: picked.flatMap((r) => r.results), hook: picked.flatMap((r) => r.hook) };
};
const table = [...rows, ...(chosen.length > 1 ? MODES.map(overall) : [])];
console.log(`\n${formatTable(table)}`);
console.log('\ntargets: every line ≥ 98%, first in 3 ≥ 95%, complete and ≤ 1.5× rg bytes ≥ 90%, 0 refused, every hook denial delivers.');
console.log('"every line": each rg -F -n line is a reply row of its own (file and line); "in a range": each lies inside a row or its block range;');
console.log('"entitled": rg lines ctxgate may leave out (excludeDirs, secret-like, over its size limit), not counted as misses;');
console.log('"denial delivers": the call the hook names returns every line `rg -n STRING` prints (the -F lines when that is not a valid regex), in no more bytes.');
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`\nas Markdown:\n${formatMarkdown(table)}`);
if (failures.length) console.log(`\nmisses:\n${failures.join('\n')}`);
const out = path.join(WORK, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify(all, null, 1));
console.log(`\nper-string results: ${out}`);
