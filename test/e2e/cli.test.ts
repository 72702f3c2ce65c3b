// The command line, as a user runs it. Each behaviour that is the process's own (its exit code, what
// reaches its stdout and stderr, a closed pipe, another process reading what one wrote) runs a real
// Node or Deno (~0.5–0.8 s of CPU apiece); the other runs of a test (the same command with other
// arguments, the --json twin of a text report) go through the command line's own code in this process
// (cliHere: src/cli/command.ts's runCli, the exit code it returns and the text it prints).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unsupportedNodeLine } from '../../src/cli/node-support.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { runCli, serverCommand } from '../helpers/server.ts';
import { cliHere } from '../helpers/cli-here.ts';

describe('ctxgate command line', () => {
  let project: string;
  let dataDir: string;
  let env: Record<string, string>;

  before(() => {
    project = fixture({ 'src/a.py': 'def a():\n    pass\n' });
    dataDir = fixture();
    env = { CTXGATE_DATA_DIR: dataDir };
  });
  after(() => {
    removeDir(project);
    removeDir(dataDir);
  });

  it('builds the code index of a small project before a call that reads code, says so on stderr, and stats and doctor then show what the index holds', async () => {
    const small = fixture({
      'src/pipe.ts': 'export function pipe(a: number): number;\nexport function pipe(a: string): string;\nexport function pipe(a: unknown): unknown {\n  return a;\n}\n',
      'src/use.ts': "import { pipe } from './pipe';\nexport const one = pipe(1);\n",
    });
    const smallData = fixture();
    const smallEnv = { CTXGATE_DATA_DIR: smallData };
    try {
      const before = await cliHere(['stats', '--project-root', small], smallEnv);
      assert.match(before.stdout, /code search: code index: not built yet/);
      const r = runCli(['call', 'read', '{"target":"pipe"}', '--project-root', small], { env: smallEnv });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /building the code index first \(2 files\)/);
      assert.match(r.stderr, /code index built in [\d.]+ s/);
      assert.match(r.stdout, /^src\/pipe\.ts:3-5\nexport function pipe\(a: unknown\)/, 'the implementation, from the index');
      // Another process reads what the database holds (and so does this one, for the other reports).
      assert.match(runCli(['stats', '--project-root', small], { env: smallEnv }).stdout, /code search: code index: complete, 2 files, none stale/);
      const stats = JSON.parse((await cliHere(['stats', '--json', '--project-root', small], smallEnv)).stdout);
      assert.deepEqual([stats.codeIndex.files, stats.codeIndex.stale, stats.codeIndex.complete, stats.codeIndex.building], [2, 0, true, undefined]);
      const doctor = await cliHere(['doctor', '--project-root', small], smallEnv);
      assert.match(doctor.stdout, /\ncode index {4}complete, 2 files, none stale; last listed /);
      assert.equal(JSON.parse((await cliHere(['doctor', '--json', '--project-root', small], smallEnv)).stdout).codeIndex.files, 2);
    } finally {
      removeDir(small);
      removeDir(smallData);
    }
  });

  it('prints help and version', async () => {
    const help = runCli(['--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /ctxgate serve/);
    const version = await cliHere(['--version']);
    assert.equal(version.status, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
  });

  it('runs one tool call and prints the text, or the raw result with --json', async () => {
    const text = runCli(['call', 'ctx_fs', '{"action":"glob","pattern":"*.py"}', '--project-root', project], { env });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /src\/a\.py/);
    const json = await cliHere(['call', 'ctx_fs', '{"action":"glob","pattern":"*.py"}', '--json', '--project-root', project], env);
    assert.deepEqual(JSON.parse(json.stdout).structuredContent.matches, ['src/a.py']);
  });

  it('prints the project\'s savings and recent calls with stats, from every earlier process', async () => {
    const run = runCli(['call', 'ctx_run', '{"action":"execute","command":"seq 1 30000"}', '--project-root', project], { env });
    assert.equal(run.status, 0, run.stderr);
    const text = await cliHere(['stats', '--project-root', project], env);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^ctxgate stats — /);
    assert.match(text.stdout, /output kept out \(compared with the whole output of a command, listing, diff or job log, indexed or spooled instead\): 1 call, /);
    assert.match(text.stdout, /ctx_run execute +ok.*\n {6}command="seq 1 30000"$/m, 'each call with its arguments');
    const json = JSON.parse((await cliHere(['stats', '--json', '--project-root', project], env)).stdout);
    assert.ok(json.usage.project.savedBytes > 100_000, JSON.stringify(json.usage.project));
    assert.equal(json.recent[0].tool, 'ctx_run');
    assert.equal(json.recent[0].args, 'command="seq 1 30000"');
  });

  it('prints a call\'s own text in stats with its control characters escaped, so no escape sequence reaches the terminal', async () => {
    const hostile = '\u001b[31mred\u001b]0;title\u0007\u009b2J';
    await cliHere(['call', 'ctx_fs', JSON.stringify({ action: hostile }), '--project-root', project], env);
    const text = await cliHere(['stats', '--project-root', project], env);
    assert.equal(text.status, 0, text.stderr);
    assert.doesNotMatch(text.stdout, /[\u001b\u0007\u009b]/);
    assert.match(text.stdout, /ctx_fs \\x1b\[31mred\\x1b\]0;title\\x07\\x9b2J +error/);
  });

  it('ends quietly, with the call\'s own status, when the reader of its output has gone (ctxgate call … | head)', async () => {
    const { command, args } = serverCommand();
    for (const [call, expected] of [
      [['call', 'ctx_fs', '{"action":"glob","pattern":"*.py"}'], 0],
      [['call', 'ctx_fs', '{"action":"stat","path":"/etc"}'], 1],
      [['--help'], 0],
    ] as const) {
      const child = spawn(command, [...args, ...call, '--project-root', project], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      // The reader goes away before ctxgate writes a byte: its write meets a closed pipe (EPIPE).
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
      // (On Node 20, where this suite runs too, the one line saying the version is unsupported comes first.)
      assert.equal(stderr.replace(unsupportedNodeLine(runtime) ?? '', ''), '', `nothing on stderr for ${call.join(' ')}`);
      assert.equal(code, expected);
    }
  });

  it('exits 1 on a tool error and 2 on usage mistakes', async () => {
    const failed = runCli(['call', 'ctx_fs', '{"action":"stat","path":"/etc"}', '--project-root', project], { env });
    assert.equal(failed.status, 1);
    assert.match(failed.stdout, /OUTSIDE_WORKDIR/);
    // A real process exits 2 on a usage mistake; the other mistakes, in this process, return 2.
    assert.equal(runCli(['--no-such-flag']).status, 2);
    const badJson = await cliHere(['call', 'ctx_fs', '{oops', '--project-root', project], env);
    assert.equal(badJson.status, 2);
    assert.match(badJson.stderr, /not valid JSON/);
    assert.equal((await cliHere(['frobnicate'])).status, 2);
    for (const [args, said] of [
      [['--host', '0.0.0.0'], /--host belongs to 'ctxgate serve'/],
      [['serve', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
      [['--graph-backend', 'neo4j'], /--graph-backend must be one of/],
    ] as const) {
      const r = await cliHere([...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, said);
    }
  });

  it("exits 2 naming a bad config field's path and expected type", () => {
    const cfg = fixture({ 'bad.json': '{"gates":{"maxHits":"lots"}}' });
    const r = runCli(['doctor', '--config', `${cfg}/bad.json`, '--project-root', project], { env });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /gates\.maxHits: .*expected number, received string/);
    removeDir(cfg);
  });

  it('doctor reports the project, data dir, tools and commands', () => {
    const r = runCli(['doctor', '--json', '--project-root', project], { env });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.projectRoot, project);
    assert.ok(report.dataDir.startsWith(dataDir));
    assert.ok(report.tools.names.includes('ctx_fs'));
    assert.ok('git' in report.commands);
  });

  it('doctor names the machine of a process elsewhere that uses or writes the database', async () => {
    const { database } = JSON.parse((await cliHere(['doctor', '--json', '--project-root', project], env)).stdout);
    const locks = `${database.file}-lock`;
    const pid = spawnSync('true').pid!;
    mkdirSync(locks, { recursive: true });
    // As a process on another machine sharing this data folder leaves them (its pid is not running here).
    symlinkSync(`${pid} 4242 77`, path.join(locks, 'reserved'));
    symlinkSync(`${Date.now()} deno ${Date.now()} host-b b0b0 pid:[1]`, path.join(locks, `u.${pid}.4242.77`));
    const text = await cliHere(['doctor', '--project-root', project], env);
    assert.match(text.stdout, new RegExp(`in use by .*pid ${pid} on host-b \\(deno, since .* UTC, last seen .* UTC\\)`));
    assert.match(text.stdout, new RegExp(`writing +pid ${pid} on host-b`));
    rmSync(locks, { recursive: true });
  });

  it('doctor says when the chosen graph backend is not installed, who answers instead, and how to install it', async () => {
    const emptyPath = fixture();
    const json = await cliHere(['doctor', '--json', '--graph-backend', 'codebase-memory-mcp', '--project-root', project], { ...env, PATH: emptyPath });
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.graph.backend, 'codebase-memory-mcp');
    assert.equal(report.graph.answeredBy, 'builtin');
    const text = await cliHere(['doctor', '--graph-backend', 'codebase-memory-mcp', '--project-root', project], { ...env, PATH: emptyPath });
    assert.match(text.stdout, /^graph +codebase-memory-mcp not answering — the built-in code index answers$/m);
    assert.match(text.stdout, /graph backend codebase-memory-mcp: codebase-memory-mcp is not on PATH; the built-in code index answers instead — install it: npm install -g codebase-memory-mcp/);
    removeDir(emptyPath);
  });

  it('answers an unknown option with its own usage error, naming the option and where the usage is', async () => {
    const r = await cliHere(['--projet-root', project], env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^ctxgate: unknown option '--projet-root'$/m);
    assert.match(r.stderr, /^hint: run ctxgate --help for the usage$/m);
    assert.doesNotMatch(r.stderr, /positional|ERR_PARSE_ARGS/);
    const missing = await cliHere(['serve', '--port'], env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^ctxgate: --port needs a value$/m);
  });

  it('prints a tool\'s parameters and its JSON Schema with ctxgate tools search, and every tool without a name', async () => {
    const one = runCli(['tools', 'search'], { env });
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /^search — /);
    assert.match(one.stdout, /^ {2}pattern {2}string$/m);
    assert.match(one.stdout, /^ {2}max_hits\? {2}integer/m);
    const schema = JSON.parse((await cliHere(['tools', 'search', '--json'], env)).stdout) as { name: string; inputSchema: { required: string[] } };
    assert.equal(schema.name, 'search');
    assert.deepEqual(schema.inputSchema.required, ['pattern']);
    const all = await cliHere(['tools'], env);
    for (const name of ['locate', 'read', 'search', 'explore', 'ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg']) assert.match(all.stdout, new RegExp(`^  ${name} +\\S`, 'm'));
    const unknown = await cliHere(['tools', 'serch'], env);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no tool named 'serch'\nhint: the tools are: locate, read, search/);
  });
});
