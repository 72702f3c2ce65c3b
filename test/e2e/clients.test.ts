// Real MCP clients against what `ctxgate init` writes and what `ctxgate serve` prints: Claude Code's
// CLI (`claude mcp list` connects to every configured server; no API key needed) and the MCP Inspector's
// CLI. Both come from scripts/fetch-test-tools.mjs (.cache/clients) and need Node 22 or later.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir, repoRoot } from '../helpers/env.ts';
import { nodeAtLeast } from '../helpers/nodes.ts';
import { runCli, startHttp } from '../helpers/server.ts';

const bin = path.join(repoRoot, '.cache', 'clients', 'node_modules', '.bin');
const node22 = nodeAtLeast(22);
const claude = path.join(bin, 'claude');
const inspector = path.join(bin, 'mcp-inspector');
const missing = !node22 ? 'no Node 22+ here' : !existsSync(claude) || !existsSync(inspector) ? 'no clients in .cache/clients' : undefined;

describe('real MCP clients', { skip: missing && `${missing}: run node scripts/fetch-test-tools.mjs` }, () => {
  let home: string;
  let project: string;
  let env: Record<string, string>;

  before(() => {
    home = fixture();
    project = fixture({ 'src/orders.py': 'def handle_order(order):\n    return order\n' });
    env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      CTXGATE_DATA_DIR: path.join(home, 'data'),
      PATH: `${path.dirname(node22!.bin)}${path.delimiter}${process.env.PATH}`,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
  });
  after(() => {
    removeDir(home);
    removeDir(project);
  });

  const spawn = (command: string, args: string[]) => spawnSync(command, args, { cwd: project, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  const run = (command: string, args: string[]) => {
    const r = spawn(command, args);
    return `${r.stdout}${r.stderr}`;
  };

  /** What Claude Code's trust dialog records: the folder is trusted and the project server approved. */
  function trustProject(servers: string[]): void {
    const file = path.join(home, '.claude.json');
    const state = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    state.projects ??= {};
    state.projects[project] = { ...state.projects[project], hasTrustDialogAccepted: true, enabledMcpjsonServers: servers };
    writeFileSync(file, JSON.stringify(state));
  }

  it('Claude Code shows the server init wrote as pending approval, then connected once approved', () => {
    const init = runCli(['init', '--project-root', project, '--client', 'claude-code'], { env });
    assert.equal(init.status, 0, init.stderr);
    assert.match(run(claude, ['mcp', 'list']), /ctxgate: .* - ⏸ Pending approval/);
    trustProject(['ctxgate']);
    assert.match(run(claude, ['mcp', 'list']), /ctxgate: .* - [✔✓] Connected/);
  });

  it('Claude Code connects over HTTP with the line serve prints', async () => {
    const server = await startHttp(['--project-root', project], { CTXGATE_DATA_DIR: env.CTXGATE_DATA_DIR!, CTXGATE_TOKEN: undefined as unknown as string });
    try {
      const line = /connect Claude Code: (claude mcp add .*)/.exec(server.stderr())?.[1];
      assert.ok(line, server.stderr());
      const added = spawnSync('sh', ['-c', line], { cwd: project, env: { ...process.env, ...env, PATH: `${bin}${path.delimiter}${env.PATH}` }, encoding: 'utf8' });
      assert.equal(added.status, 0, added.stderr);
      assert.match(run(claude, ['mcp', 'list']), new RegExp(`ctxgate: ${server.url.replace(/[.]/g, '\\.')} \\(HTTP\\) - [✔✓] Connected`));
    } finally {
      await server.stop();
    }
  });

  it('the MCP Inspector lists all nine tools and calls one through the configured command', () => {
    const entry = JSON.parse(readFileSync(path.join(project, '.mcp.json'), 'utf8')).mcpServers.ctxgate as { command: string; args: string[] };
    // Its answer is the JSON on stdout; the server's stderr (a line about an unsupported Node, say) passes through on stderr.
    const listed = JSON.parse(spawn(inspector, ['--cli', entry.command, ...entry.args, '--method', 'tools/list']).stdout) as { tools: { name: string }[] };
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), ['ctx_bg', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_run', 'explore', 'locate', 'read', 'search']);
    const called = run(inspector, ['--cli', entry.command, ...entry.args, '--method', 'tools/call', '--tool-name', 'locate', '--tool-arg', 'query=handle_order']);
    assert.match(called, /src\/orders\.py:1/);
  });
});
