// Deno users: `deno install --prod && deno task start` on a clone. The tasks run the deno that runs them
// (no npm `deno` package, whose Node launcher would stand in between), so a signal to `deno task` reaches
// the server; the install brings only the packages deno.json's import map names (no dev tools).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GRAMMAR_MODULE } from '../../src/code/languages.ts';
import { denoExecutable, fixture, removeDir, repoRoot } from '../helpers/env.ts';
import { denoImportPackages, denoOnlyClone } from '../helpers/deno-only.ts';
import { connectStdioTo } from '../helpers/server.ts';

const deno = denoExecutable();

/** The package a bare specifier names ('@scope/name/sub.js' → '@scope/name'). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every package src/ imports or resolves by name on Deno (src/runtime/node*.ts run on Node only). */
function packagesDenoLoads(): Set<string> {
  const found = new Set<string>(Object.values(GRAMMAR_MODULE).map(packageOf));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !/^src\/runtime\/node[\w-]*\.ts$/.test(path.relative(repoRoot, file))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport\()\s*'([^'.][^']*)'/g)) if (!m[1]!.startsWith('node:')) found.add(packageOf(m[1]!));
      }
    }
  };
  walk(path.join(repoRoot, 'src'));
  return found;
}

/** Whether something accepts connections on the port (false once the server is gone). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('deno tasks', () => {
  let clone: string;
  let data: string;
  before(() => {
    clone = denoOnlyClone();
    data = fixture();
  });
  after(() => {
    removeDir(clone);
    removeDir(data);
  });

  it('name the deno that runs them, and package.json brings no npm deno whose launcher a task would run instead', () => {
    const tasks = JSON.parse(readFileSync(path.join(repoRoot, 'deno.json'), 'utf8')).tasks as Record<string, string>;
    for (const [name, command] of Object.entries(tasks)) assert.doesNotMatch(command, /node_modules/, `task ${name}: ${command}`);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) assert.equal(pkg[field]?.deno, undefined, `${field} names deno`);
  });

  it("import every package the server loads through deno.json's import map, at package.json's exact version", () => {
    const mapped = denoImportPackages();
    const pinned = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    for (const name of packagesDenoLoads()) {
      assert.ok(mapped.has(name), `src/ loads ${name} on Deno, but deno.json's imports do not name it: a \`deno install --prod\` would leave it out`);
    }
    for (const [name, version] of mapped) assert.equal(version, pinned[name], `deno.json imports ${name}@${version}, package.json pins ${pinned[name]}`);
    for (const dev of ['typescript', '@biomejs/biome', 'esbuild', 'playwright-core', 'tsx']) assert.equal(mapped.has(dev), false, `${dev} is a dev tool`);
  });

  it('serve tool calls that parse code and keep a knowledge base with only the packages the import map brings', async () => {
    const project = fixture({ 'src/app.ts': 'export function mainEntry() {\n  return 42;\n}\n', 'notes/a.md': '# Notes\nabout the zebra-crossing\n' });
    const { client, stderr } = await connectStdioTo({
      command: deno,
      args: ['task', '--quiet', 'stdio', '--project-root', project],
      cwd: clone,
      env: { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: data, NO_COLOR: '1' },
    });
    try {
      type Result = { content: { text: string }[]; isError?: boolean };
      const found = (await client.callTool({ name: 'locate', arguments: { query: 'mainEntry', kind: 'definition' } })) as Result;
      assert.equal(found.isError, undefined, `${found.content[0]?.text}\n${stderr()}`);
      assert.match(found.content[0]!.text, /src\/app\.ts/);
      const indexed = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'index', path: 'notes' } })) as Result;
      assert.equal(indexed.isError, undefined, `${indexed.content[0]?.text}\n${stderr()}`);
      const searched = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'search', query: 'zebra-crossing' } })) as Result;
      assert.match(searched.content[0]!.text, /notes\/a\.md/, stderr());
    } finally {
      await client.close();
      removeDir(project);
    }
  });

  it('run ctxgate with no deno on PATH', () => {
    const r = spawnSync(deno, ['task', '--quiet', 'ctxgate', '--version'], { cwd: clone, encoding: 'utf8', env: { ...process.env, PATH: '/nonexistent', NO_COLOR: '1' } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });

  it('stop the server when deno task start gets SIGTERM: nothing is left listening on its port', async () => {
    const task = spawn(deno, ['task', '--quiet', 'start', '--port', '0'], { cwd: clone, env: { ...process.env, CTXGATE_DATA_DIR: data, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((resolve) => task.once('exit', () => resolve()));
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      task.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const m = /MCP endpoint http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      task.once('exit', (code) => reject(new Error(`deno task start ended (${code}) before serving:\n${stderr}`)));
    });
    assert.equal(await listening(port), true);
    task.kill('SIGTERM');
    await exited;
    assert.equal(await listening(port), false, `the server still answers on ${port} after deno task ended:\n${stderr}`);
  });
});
