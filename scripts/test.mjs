// The test command: builds the Node bundle, then runs every node:test file under Node and under Deno
// (`deno test -A`). `--node` or `--deno` runs one of them; other arguments pick the test
// files whose path contains them.
//
// Each file runs in a process of its own (as `node --test` does; `deno test --parallel` would run
// the files as workers of one process, sharing its environment, working directory and pid), several
// at once: both runtimes' files share one queue, the slowest first (as timed by the last run, kept
// in .cache/test-times.json; a fresh clone, CI's, goes by the committed test/times.json, a copy of one
// whole run's: refresh it with `cp .cache/test-times.json test/times.json` after a whole run when
// files were added or grew), so the two halves overlap and the long files do not come last. A
// file's output is printed whole when it ends. `--jobs N` (or CTXGATE_TEST_JOBS) sets how many run at
// once; the default is one more than the cores: a file waiting on the servers, commands and browsers it
// starts leaves a core to another, and more at once only adds CPU (files that poll or time out wait
// longer). Whole runs on 2 cores, one after another (2026-12-03): 4 at once 711 s (CPU
// 674 + 659 s), 3 at once 651 s (609 + 594 s), 2 at once 698 s (620 + 606 s).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { denoBinaryOrExit, findDenoBinary } from './lib/deno-binary.mjs';

const want = process.argv.slice(2);
const runNode = !want.includes('--deno') || want.includes('--node');
const runDeno = !want.includes('--node') || want.includes('--deno');
const jobsArg = want.indexOf('--jobs');
const jobsText = jobsArg >= 0 ? want[jobsArg + 1] : process.env.CTXGATE_TEST_JOBS;
const jobs = jobsText === undefined ? Math.max(2, availableParallelism() + 1) : Number(jobsText);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`--jobs (or CTXGATE_TEST_JOBS) must be a whole number of at least 1, not ${JSON.stringify(jobsText)}`);
  process.exit(2);
}
const filters = want.filter((a, i) => !a.startsWith('--') && !(jobsArg >= 0 && i === jobsArg + 1));

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'fixtures' ? [] : testFiles(p);
    return d.name.endsWith('.test.ts') ? [p] : [];
  });
}
const files = testFiles('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
// A filter that names no test file would leave both runners to run everything they find.
if (filters.length && !files.length) {
  console.error(`no test file matches ${filters.map((f) => JSON.stringify(f)).join(', ')} (test files are test/**/*.test.ts)`);
  process.exit(1);
}

const TIMES = path.join('.cache', 'test-times.json');
const COMMITTED_TIMES = path.join('test', 'times.json');
/** Seconds each runtime took for each file in earlier runs (`node test/x.test.ts` → 12.3). */
function readTimes(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}
const times = readTimes(TIMES);
const order = { ...readTimes(COMMITTED_TIMES), ...times };

// The deno binary itself (scripts/lib/deno-binary.mjs says where it comes from), found before anything runs;
// tests that start deno themselves (test/helpers/env.ts) take the same one.
// A fresh clone has none yet: the pinned one is fetched from the npm registry first (what the README's
// `npm ci && npm test` needs on a new machine).
if (runDeno && !findDenoBinary()) {
  console.log('no deno binary yet: fetching the pinned Deno into .cache/deno/ (scripts/fetch-test-tools.mjs deno)');
  spawnSync(process.execPath, ['scripts/fetch-test-tools.mjs', 'deno'], { stdio: 'inherit' });
}
const deno = runDeno ? denoBinaryOrExit() : undefined;

// The Node half runs the .ts files on a Node that strips types itself (22.18 and later; this package
// needs 22.7 or later anyway): this process's Node when it does, else the Node 22 in .cache/nodes/22
// (scripts/fetch-test-tools.mjs nodes; fetched here when missing). tsx, the fallback on an older Node
// with no fetched one, costs about a second more CPU per test process (it transforms every module in
// a loader thread). CTXGATE_TEST_NODE names the Node to use.
function stripsTypes(bin) {
  const r = spawnSync(bin, ['-p', 'process.features.typescript'], { encoding: 'utf8' });
  return r.status === 0 && /^(strip|transform)$/.test(r.stdout.trim());
}
function testNode() {
  if (process.env.CTXGATE_TEST_NODE) return { bin: process.env.CTXGATE_TEST_NODE, tsx: !stripsTypes(process.env.CTXGATE_TEST_NODE) };
  if (stripsTypes(process.execPath)) return { bin: process.execPath, tsx: false };
  const fetched = path.join('.cache', 'nodes', '22', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  if (!existsSync(fetched)) {
    console.log(`Node ${process.version} does not strip types: fetching Node 22 into .cache/nodes/ (scripts/fetch-test-tools.mjs nodes)`);
    spawnSync(process.execPath, ['scripts/fetch-test-tools.mjs', 'nodes'], { stdio: 'inherit' });
  }
  if (existsSync(fetched) && stripsTypes(fetched)) return { bin: path.resolve(fetched), tsx: false };
  console.log(`no Node that strips types: the Node half runs on Node ${process.version} through tsx`);
  return { bin: process.execPath, tsx: true };
}
const node = runNode ? testNode() : undefined;
// A Node that strips types itself does it again in every test process; scripts/lib/ts-strip-cache.mjs
// keeps what it stripped for the next ones (~0.3–0.7 s of CPU less per file). Entries not written
// for two weeks go (a source that changed leaves its old entry behind).
const STRIP_CACHE = pathToFileURL(path.resolve('scripts', 'lib', 'ts-strip-cache.mjs')).href;
if (node && !node.tsx) pruneOlderThan(path.join('.cache', 'ts-strip'), 14 * 24 * 3600 * 1000);

function pruneOlderThan(dir, ms) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const before = Date.now() - ms;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (statSync(file).mtimeMs < before) rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
if (deno) process.env.DENO_BIN = deno;
// The Node this runner runs on, for tests that install the package on every Node here (test/helpers/nodes.ts).
const env = { ...process.env, NO_COLOR: '1', CTXGATE_RUNNER_NODE: process.execPath };
const commandFor = {
  // The file itself, not `--test FILE` (whose runner would start it as a second process): node:test
  // runs a file's tests when the file is run, and sets a failing exit code as the runner does.
  node: (file) => [node.bin, [...(node.tsx ? ['--import', 'tsx'] : ['--import', STRIP_CACHE]), '--test-reporter=spec', file]],
  deno: (file) => [deno, ['test', '-A', '--no-check', file]],
};

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
};

/**
 * CPU seconds (user + system) of the processes this one has waited for, so far (Linux: /proc/self/stat's
 * cutime and cstime). A file's share is the growth while its process was reaped: its own CPU and that
 * of the children it waited for (not of daemons it left to init).
 */
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs a command to its end, its output kept (stdout and stderr in the order written). */
function capture(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    let cpu;
    child.on('exit', () => {
      // Reaped just before this event: the growth since the last reap is this child's.
      const now = childCpu();
      if (now !== undefined) cpu = now - reaped;
      reaped = now ?? 0;
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString(), cpu });
    });
  });
}

const running = new Set();
let reaped = childCpu() ?? 0;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // Each file runs in its own process group: end it with everything it started.
    for (const child of running) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    process.exit(130);
  });
}

console.log(`=== build: ${process.execPath} scripts/build.mjs`);
const build = await capture(process.execPath, ['scripts/build.mjs']);
process.stdout.write(build.output);
if (build.code !== 0) {
  console.error('the build failed: no tests were run');
  process.exit(1);
}

const runtimes = [...(runNode ? ['node'] : []), ...(runDeno ? ['deno'] : [])];
// The slowest first. A file timed nowhere (new since test/times.json) is guessed: the end-to-end ones start
// servers, packages and browsers, so they go first.
const guess = (file) => (file.startsWith(path.join('test', 'e2e')) ? 60 : 20);
const queue = runtimes
  .flatMap((runtime) => files.map((file) => ({ runtime, file, expected: order[`${runtime} ${file}`] ?? guess(file) })))
  .sort((a, b) => b.expected - a.expected || a.file.localeCompare(b.file));
console.log(`\n=== ${files.length} test files on ${runtimes.join(' and ')}, ${jobs} at once (load average ${load()})`);
if (node) console.log(`node: ${node.bin}${node.tsx ? ' --import tsx' : ''}`);
if (deno) console.log(`deno: ${deno}`);

const started = Date.now();
const half = Object.fromEntries(runtimes.map((r) => [r, { files: 0, failed: [], end: started, counts: {}, cpu: 0 }]));

/** The runner's own tallies in a file's output (node: `ℹ pass 12`; deno: `ok | 3 passed (12 steps) | 0 failed | 1 ignored`). */
function tallies(runtime, output) {
  if (runtime === 'node') {
    return Object.fromEntries([...output.matchAll(/^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
  }
  const m = /(\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \| (\d+) ignored)?/.exec(output);
  return m ? { passed: Number(m[1]), steps: Number(m[2] ?? 0), failed: Number(m[3]), ignored: Number(m[4] ?? 0) } : {};
}
const took = [];

async function lane() {
  for (let job = queue.shift(); job; job = queue.shift()) {
    const [command, args] = commandFor[job.runtime](job.file);
    const t0 = Date.now();
    const { code, output, cpu } = await capture(command, args);
    const ms = Date.now() - t0;
    const h = half[job.runtime];
    h.files++;
    h.end = Date.now();
    if (code !== 0) h.failed.push(job.file);
    for (const [k, n] of Object.entries(tallies(job.runtime, output))) h.counts[k] = (h.counts[k] ?? 0) + n;
    took.push({ key: `${job.runtime} ${job.file}`, ms, cpu });
    h.cpu += cpu ?? 0;
    console.log(`\n=== ${job.runtime} ${job.file}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(ms)}${cpu === undefined ? '' : ` (CPU ${cpu.toFixed(1)} s)`}`);
    process.stdout.write(output);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, lane));

// This run's times, merged into the earlier ones, order the next run.
try {
  mkdirSync('.cache', { recursive: true });
  const next = { ...times, ...Object.fromEntries(took.map((t) => [t.key, Math.round(t.ms / 100) / 10])) };
  writeFileSync(TIMES, `${JSON.stringify(next, null, 1)}\n`);
} catch {
  // Only the order of the next run depends on it.
}

console.log('\n=== summary');
for (const [runtime, h] of Object.entries(half)) {
  const counts = Object.entries(h.counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(`${runtime}: ${h.files - h.failed.length} of ${h.files} files passed (${counts}); wall time ${seconds(h.end - started)} (its last file ended then), CPU ${h.cpu.toFixed(0)} s${h.failed.length ? `; failed: ${h.failed.join(', ')}` : ''}`);
}
console.log(`slowest: ${took
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 8)
  .map((t) => `${t.key} ${seconds(t.ms)}`)
  .join(', ')}`);
if (took.some((t) => t.cpu !== undefined)) {
  console.log(`most CPU: ${took
    .sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0))
    .slice(0, 8)
    .map((t) => `${t.key} ${(t.cpu ?? 0).toFixed(1)} s`)
    .join(', ')}`);
}
console.log(`all: ${seconds(Date.now() - started)} with ${jobs} at once (load average now ${load()})`);
process.exit(Object.values(half).some((h) => h.failed.length) ? 1 : 0);
