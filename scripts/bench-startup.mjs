// Cold start to the first tools/list answer over stdio, Node (the bundle) and Deno (src/main.ts),
// median of N runs each. Usage: node scripts/bench-startup.mjs [--runs 10]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

const targets = [
  ['node', process.execPath, [path.join(root, 'dist/ctxgate.mjs')]],
  // The binary itself, not node_modules/.bin/deno (the npm package's launcher would add a Node start).
  ['deno', createRequire(import.meta.url)('deno/install_api.cjs').runInstall(), ['run', '-A', path.join(root, 'src/main.ts')]],
];
console.log(`cold start to first tools/list over stdio, ${runs} runs each (ms)`);
for (const [name, command, args] of targets) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once(command, args));
  console.log(`${name.padEnd(5)} median ${median(times).toFixed(0)}  min ${Math.min(...times).toFixed(0)}  max ${Math.max(...times).toFixed(0)}`);
}
rmSync(dataDir, { recursive: true, force: true });
