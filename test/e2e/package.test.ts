// The published package, as a user gets it: packed, installed from the tarball without network, and
// started through npx on every Node here (this one, and 22/24 from scripts/fetch-test-tools.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, onDeno, removeDir, repoRoot } from '../helpers/env.ts';
import { supported, type TestNode, testNodes } from '../helpers/nodes.ts';

const npmQuiet = { NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

function run(command: string, args: string[], options: { cwd: string; node?: TestNode; env?: Record<string, string> }) {
  const pathVar = options.node ? `${path.dirname(options.node.bin)}${path.delimiter}${process.env.PATH}` : process.env.PATH!;
  const r = spawnSync(command, args, {
    cwd: options.cwd,
    encoding: 'utf8',
    env: { ...process.env, PATH: pathVar, ...npmQuiet, ...options.env },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('the npm package', { skip: onDeno && 'the npm package runs on Node; Deno runs src/main.ts (see deno-task.test.ts)' }, () => {
  let packDir: string;
  let tarball: string;
  /** What `npm pack --json` said it packed (one pack serves every test here). */
  let packedFiles: string[];

  before(() => {
    // test.mjs has just built dist/; --ignore-scripts keeps this test from rebuilding it under other tests' feet.
    packDir = fixture();
    const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: repoRoot });
    assert.equal(packed.status, 0, packed.stderr);
    tarball = path.join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
    packedFiles = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
  });
  /** The tarball installed offline with each Node's npm, once (the Pi check reuses this Node's). */
  const installs = new Map<string, { home: string; status: number | null; stderr: string }>();
  const installedWith = (node: TestNode) => {
    let done = installs.get(node.bin);
    if (!done) {
      const home = fixture({ 'agent/': '' });
      const r = run('npm', ['install', '--offline', tarball], { cwd: home, node, env: { HOME: home } });
      done = { home, status: r.status, stderr: r.stderr };
      installs.set(node.bin, done);
    }
    return done;
  };
  after(() => {
    removeDir(packDir);
    for (const i of installs.values()) removeDir(i.home);
  });

  it('carries only what runs: the bundle and its parse and grep workers, the SQLite and tree-sitter WASM, the grammars, the Pi extension, the licences and the README', () => {
    const files = packedFiles;
    const allowed = /^(LICENSE|README\.md|package\.json|dist\/(ctxgate|embed|parse-worker|grep-worker)\.mjs|dist\/THIRD_PARTY_LICENSES\.txt|dist\/chunks\/[\w.-]+\.mjs|dist\/chunks\/(sqlite3|web-tree-sitter)\.wasm|dist\/grammars\/tree-sitter-[\w-]+\.wasm|integrations\/pi\/index\.ts)$/;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), [], 'nothing but the bundle, its chunks, the WASM and grammars, the Pi extension and the licences');
    for (const needed of ['dist/ctxgate.mjs', 'dist/embed.mjs', 'dist/parse-worker.mjs', 'dist/grep-worker.mjs', 'dist/chunks/sqlite3.wasm', 'dist/chunks/web-tree-sitter.wasm', 'dist/grammars/tree-sitter-typescript.wasm', 'dist/grammars/tree-sitter-c.wasm', 'LICENSE', 'dist/THIRD_PARTY_LICENSES.txt', 'integrations/pi/index.ts']) assert.ok(files.includes(needed), needed);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; scripts: Record<string, string> };
    assert.deepEqual(pkg.dependencies ?? {}, {}, 'the bundle holds every runtime dependency');
    assert.equal(pkg.scripts.prepare, undefined, 'no prepare script runs (or warns) on install');
  });

  const piDir = path.join(repoRoot, '.cache', 'clients', 'node_modules', '@mariozechner', 'pi-coding-agent');
  it('loads as a Pi package: its pi extension works from the installed copy', { skip: !existsSync(piDir) && 'Pi is not in .cache/clients' }, () => {
    const nodes = testNodes();
    const { home, status, stderr } = installedWith(nodes.find(supported) ?? nodes[0]!);
    const project = fixture({ 'src/orders.ts': 'export function placeOrder() {}\n' });
    try {
      const env = { HOME: home, CTXGATE_DATA_DIR: path.join(home, 'pi-data') };
      assert.equal(status, 0, stderr);
      const extension = path.join(home, 'node_modules', 'ctxgate', 'integrations', 'pi', 'index.ts');
      const host = run(process.execPath, [path.join(repoRoot, 'test', 'helpers', 'pi-host.mjs'), piDir, extension, project, path.join(home, 'agent')], { cwd: project, env });
      assert.equal(host.status, 0, host.stderr);
      const report = JSON.parse(host.stdout.trim().split('\n').pop()!) as { errors: unknown[]; locate: { text?: string } };
      assert.deepEqual(report.errors, []);
      assert.match(report.locate.text ?? '', /src\/orders\.ts:1/);
    } finally {
      removeDir(project);
    }
  });

  for (const node of testNodes()) {
    it(`installs offline (warning-free on a supported Node), starts through npx and runs tools from its bin on Node ${node.version}`, async () => {
      const project = fixture({ 'src/app.ts': 'export function greet(name: string) {\n  return "hi " + name;\n}\n' });
      const installed = installedWith(node);
      const home = installed.home;
      try {
        const env = { HOME: home, CTXGATE_DATA_DIR: path.join(home, 'data') };
        assert.equal(installed.status, 0, installed.stderr);
        if (supported(node)) assert.doesNotMatch(installed.stderr, /warn/i, installed.stderr);
        else assert.match(installed.stderr, /EBADENGINE/, 'an unsupported Node is told so');

        // The command npx runs (the bin the package declares, on this Node), as `ctxgate call`: with a
        // fresh data dir it builds the code index first, with the packed parse worker and grammar WASM,
        // and says so on stderr.
        const bin = path.join(home, 'node_modules', '.bin', 'ctxgate');
        const located = run(bin, ['call', 'locate', '{"query":"greet"}', '--project-root', project], { cwd: home, node, env });
        assert.match(located.stdout, /src\/app\.ts:1/);
        assert.match(located.stderr, /code index built/, located.stderr);

        // Then started through npx the way an MCP client starts it (stdio), on this Node, with the other
        // tool calls sent to that one server: one start instead of a `--version` start and a
        // `ctxgate call` per tool (each ~0.4 s of CPU to start the bundle again).
        // Loaded here, as the SDK was: the file's Deno half skips and loads none of it.
        const { connectStdioTo } = await import('../helpers/server.ts');
        const { client, stderr } = await connectStdioTo({
          command: 'npx',
          args: ['--offline', 'ctxgate', '--project-root', project],
          cwd: home,
          env: { ...(process.env as Record<string, string>), ...npmQuiet, PATH: `${path.dirname(node.bin)}${path.delimiter}${process.env.PATH}`, ...env },
        });
        try {
          const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
          assert.equal(client.getServerVersion()?.version, pkg.version, stderr());
          const call = async (name: string, args: Record<string, unknown>) => {
            const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
            return { isError: r.isError, text: r.content.map((c) => c.text).join('\n') };
          };

          const kb = await call('ctx_kb', { action: 'doctor' });
          assert.ok(!kb.isError, kb.text + stderr());
          assert.match(kb.text, /FTS5: ok/);

          const code = 'enum Greeting { Hi = 2 }\nconst n: number = Greeting.Hi;\nconsole.log("typescript", n);';
          const ts = await call('ctx_run', { action: 'execute', language: 'typescript', code });
          if (supported(node)) {
            assert.ok(!ts.isError, ts.text + stderr());
            assert.match(ts.text, /typescript 2/);
            assert.doesNotMatch(ts.text, /ExperimentalWarning/);
          } else {
            assert.match(ts.text, /cannot run TypeScript itself/);
          }
        } finally {
          await client.close();
        }
      } finally {
        removeDir(project);
      }
    });
  }
});
