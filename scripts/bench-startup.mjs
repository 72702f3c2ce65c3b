// Cold start to the first tools/list answer over stdio, Node (the bundle) and Deno (src/main.ts), each
// beside the floor: a bare MCP SDK stdio server with nine tools, on the same runtime, in the same run
// (runs interleaved, so machine load hits both alike). Median of N runs each.
// Usage: nice -n 10 node scripts/bench-startup.mjs [--runs 10]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function once(command, args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, CTXGATE_DATA_DIR: dataDir }, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('"id":2')) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill('SIGTERM');
        resolve(ms);
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
const targets = [
  ['node floor', process.execPath, [floor]],
  ['node ctxgate', process.execPath, [path.join(root, 'dist/ctxgate.mjs')]],
  ['deno floor', deno, ['run', '-A', floor]],
  ['deno ctxgate', deno, ['run', '-A', path.join(root, 'src/main.ts')]],
];
const times = new Map(targets.map(([name]) => [name, []]));
const loadBefore = loadavg()[0];
try {
  for (let i = 0; i < runs; i++) for (const [name, command, args] of targets) times.get(name).push(await once(command, args));
} finally {
  rmSync(floor, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`cold start to first tools/list over stdio, ${runs} runs each, interleaved (ms); Node ${process.versions.node}; load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
for (const [name] of targets) {
  const t = times.get(name);
  console.log(`${name.padEnd(13)} median ${median(t).toFixed(0)}  min ${Math.min(...t).toFixed(0)}  max ${Math.max(...t).toFixed(0)}`);
}
for (const runtime of ['node', 'deno']) {
  console.log(`${runtime}: ctxgate / floor = ${(median(times.get(`${runtime} ctxgate`)) / median(times.get(`${runtime} floor`))).toFixed(2)}x`);
}
