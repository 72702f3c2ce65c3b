// Cold start to the first tools/list answer over stdio, Node (the bundle) and Deno (src/main.ts), each
// beside the floor: a bare MCP SDK stdio server with nine tools, on the same runtime, in the same run
// (runs interleaved, so machine load hits both alike). Median of N runs each, and on Linux the CPU the
// process had used when the list arrived (its main thread, and all its threads): load moves wall time far
// more than CPU time.
// Usage: nice -n 10 node scripts/bench-startup.mjs [--runs 10]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { denoBinaryOrExit } from './lib/deno-binary.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 10;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-'));

const lines = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
].map((m) => `${JSON.stringify(m)}\n`);

/** CPU milliseconds a thread (or all of a process's live threads) has run, from /proc; NaN elsewhere. */
function cpuMs(pid) {
  const of = (task) => Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  try {
    return { main: of(pid), all: readdirSync(`/proc/${pid}/task`).reduce((sum, task) => sum + of(task), 0) };
  } catch {
    return { main: Number.NaN, all: Number.NaN };
  }
}

function once(command, args, data = dataDir) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, CTXGATE_DATA_DIR: data }, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('"id":2')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const cpu = cpuMs(child.pid);
        child.kill('SIGTERM');
        resolve({ ms, ...cpu });
      }
    });
    child.on('error', reject);
    for (const l of lines) child.stdin.write(l);
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// The floor: the SDK's McpServer over stdio with nine tools of small zod schemas, nothing else. It lives
// in the repository folder for the run, so it resolves the same node_modules.
const floor = path.join(root, `.bench-floor-${process.pid}.mjs`);
writeFileSync(
  floor,
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'floor', version: '1' });
for (let i = 0; i < 9; i++) server.registerTool('tool' + i, { description: 'a tool', inputSchema: { query: z.string(), limit: z.number().int().optional() } }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
`,
);
const deno = denoBinaryOrExit();
// `node ctxgate` starts with the data folder of the runs before it (as a user's: the compiled code
// kept there), `node first` with a new one each time (a first process on a machine: nothing kept).
const targets = [
  ['node floor', process.execPath, [floor]],
  ['node ctxgate', process.execPath, [path.join(root, 'dist/ctxgate.mjs')]],
  ['node first', process.execPath, [path.join(root, 'dist/ctxgate.mjs')], 'fresh'],
  ['deno floor', deno, ['run', '-A', floor]],
  ['deno ctxgate', deno, ['run', '-A', path.join(root, 'src/main.ts')]],
];
const times = new Map(targets.map(([name]) => [name, []]));
const cpus = new Map(targets.map(([name]) => [name, []]));
const loadBefore = loadavg()[0];
try {
  for (let i = 0; i < runs; i++) {
    for (const [name, command, args, fresh] of targets) {
      const data = fresh ? mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-first-')) : dataDir;
      const { ms, main, all } = await once(command, args, data);
      if (fresh) rmSync(data, { recursive: true, force: true });
      times.get(name).push(ms);
      cpus.get(name).push({ main, all });
    }
  }
} finally {
  rmSync(floor, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`cold start to first tools/list over stdio, ${runs} runs each, interleaved (ms); Node ${process.versions.node}; load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
for (const [name] of targets) {
  const t = times.get(name);
  const c = cpus.get(name);
  const cpu = Number.isNaN(c[0].main) ? '' : `  CPU median main thread ${median(c.map((x) => x.main)).toFixed(0)}, all threads ${median(c.map((x) => x.all)).toFixed(0)}`;
  console.log(`${name.padEnd(13)} median ${median(t).toFixed(0)}  min ${Math.min(...t).toFixed(0)}  max ${Math.max(...t).toFixed(0)}${cpu}`);
}
for (const runtime of ['node', 'deno']) {
  const cpu = (name) => median(cpus.get(name).map((x) => x.main));
  for (const name of [`${runtime} ctxgate`, `${runtime} first`].filter((n) => times.has(n))) {
    const cpuRatio = Number.isNaN(cpu(`${runtime} floor`)) ? '' : `; main-thread CPU ${(cpu(name) / cpu(`${runtime} floor`)).toFixed(2)}x`;
    console.log(`${name} / floor = ${(median(times.get(name)) / median(times.get(`${runtime} floor`))).toFixed(2)}x${cpuRatio}`);
  }
}
