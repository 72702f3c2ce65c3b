// Each way of installing ctxgate, as a user has it: `init` writes the command, and that command, started
// by an MCP client (the SDK's own), lists the tools. Clone (the bundle under Node, src/main.ts under
// Deno); the packed tarball installed offline into a folder (Node); a Deno-only clone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { denoExecutable, fixture, onDeno, removeDir, repoRoot } from '../helpers/env.ts';
import { denoOnlyClone } from '../helpers/deno-only.ts';
import { serverCommand } from '../helpers/server.ts';

interface Entry {
  command: string;
  args: string[];
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** The ctxgate entry init wrote into the project's .mcp.json. */
function writtenEntry(project: string): Entry {
  return JSON.parse(readFileSync(path.join(project, '.mcp.json'), 'utf8')).mcpServers.ctxgate as Entry;
}

/**
 * Starts the entry as Claude Code would (in the project folder) and lists the tools; with `locate`, also
 * calls locate with that query and gives its text (the project the server answers for).
 */
async function toolNames(entry: Entry, project: string, env: Record<string, string>, locate?: string): Promise<{ tools: string[]; located?: string }> {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd: project, env: { ...(process.env as Record<string, string>), ...env } });
  const client = new Client({ name: 'init-launch-test', version: '1' });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    if (locate === undefined) return { tools };
    const result = (await client.callTool({ name: 'locate', arguments: { query: locate } })) as { content: { text: string }[] };
    return { tools, located: result.content.map((c) => c.text).join('\n') };
  } finally {
    await client.close();
  }
}

const ALL_TOOLS = ['ctx_bg', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_run', 'explore', 'locate', 'read', 'search'];

describe('init on each install path', () => {
  let project: string;
  let data: string;
  let env: Record<string, string>;
  before(() => {
    project = fixture({ 'src/app.ts': 'export function greet() {}\n' });
    data = fixture();
    env = { CTXGATE_DATA_DIR: data };
  });
  after(() => {
    removeDir(project);
    removeDir(data);
  });

  it('from a clone: writes absolute paths, says its check passed, and the written command lists every tool', async () => {
    const { command, args } = serverCommand();
    const r = run(command, [...args, 'init', '--project-root', project], project, env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /check: the command starts and lists 9 tools/);
    const entry = writtenEntry(project);
    assert.ok(path.isAbsolute(entry.command), entry.command);
    assert.ok(entry.args.some((a) => a === path.join(repoRoot, onDeno ? 'src/main.ts' : 'dist/ctxgate.mjs')), entry.args.join(' '));
    // A real MCP client starts it (was test/clients/init.test.ts's own server start): it lists the tools
    // and answers a call for this project.
    const { tools, located } = await toolNames(entry, project, env, 'greet');
    assert.deepEqual(tools, ALL_TOOLS);
    assert.match(located ?? '', /src\/app\.ts:1/);
  });

  it('writes npx -y ctxgate only when asked with --launcher npx, and then does not try to start the published package here', () => {
    const { command, args } = serverCommand();
    const r = run(command, [...args, 'init', '--project-root', project, '--launcher', 'npx', '--no-check'], project, env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const entry = writtenEntry(project);
    assert.deepEqual(onDeno ? entry.args.slice(0, 3) : [entry.command, ...entry.args], onDeno ? ['run', '-A', 'npm:ctxgate'] : ['npx', '-y', 'ctxgate']);
    assert.doesNotMatch(r.stdout, /^check( FAILED)?:/m);
  });

  it('says the check failed, and exits 1, when the written command cannot start', () => {
    const { command, args } = serverCommand();
    // The config names a --config file that is not there: the server the client starts would stop at once.
    const r = run(command, [...args, 'init', '--project-root', project, '--config', path.join(project, 'missing.json')], project, env);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /check FAILED: the command did not answer tools\/list/);
  });

  it('from the packed tarball installed offline into a folder: writes that folder\'s bin by absolute path, and it lists every tool', { skip: onDeno && 'the npm package runs on Node' }, async () => {
    const packDir = fixture();
    const prefix = fixture();
    try {
      const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], repoRoot, {});
      assert.equal(packed.status, 0, packed.stderr);
      const tarball = path.join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
      const installed = run('npm', ['install', '--offline', tarball], prefix, { HOME: prefix });
      assert.equal(installed.status, 0, installed.stderr);
      const bin = path.join(prefix, 'node_modules', '.bin', 'ctxgate');
      const r = run(bin, ['init', '--project-root', project], project, env);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /check: the command starts and lists 9 tools/);
      const entry = writtenEntry(project);
      assert.equal(realpathSync(entry.command), realpathSync(bin));
      assert.equal(entry.command, bin, 'the bin link itself, which npm keeps across updates');
      assert.deepEqual(entry.args, []);
      assert.deepEqual((await toolNames(entry, project, env)).tools, ALL_TOOLS);
    } finally {
      removeDir(packDir);
      removeDir(prefix);
    }
  });

  // Every command here is deno's, whichever runtime runs this file: the Deno half runs it, the Node half
  // would run the same commands on the same inputs again.
  it('from a Deno-only clone: deno task ctxgate init writes deno run -A with the path of src/main.ts, and it lists every tool', { skip: !onDeno && 'the same deno commands as the Deno half runs' }, async () => {
    const clone = denoOnlyClone();
    try {
      const r = run(denoExecutable(), ['task', '--quiet', 'ctxgate', 'init', '--project-root', project], clone, env);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /check: the command starts and lists 9 tools/);
      const entry = writtenEntry(project);
      assert.deepEqual(entry.args, ['run', '-A', path.join(clone, 'src', 'main.ts')]);
      assert.deepEqual((await toolNames(entry, project, env)).tools, ALL_TOOLS);
    } finally {
      removeDir(clone);
    }
  });
});
