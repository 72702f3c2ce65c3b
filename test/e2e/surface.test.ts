// What tools/list costs an agent on every turn, and offering a subset of the tools (issue 15).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { connectStdio, runCli } from '../helpers/server.ts';

// The parameter names the two specs give each tool (as ../shared/checks/surface.mjs checks them).
const SPEC: Record<string, string[]> = {
  locate: ['query', 'kind', 'scope', 'max_results'],
  read: ['target', 'expand', 'max_tokens'],
  search: ['pattern', 'regex', 'scope', 'exclude', 'max_hits', 'max_tokens', 'force'],
  explore: ['question', 'anchor', 'relation'],
  ctx_run: ['action', 'command', 'language', 'timeout', 'background', 'intent', 'cwd', 'argv', 'env', 'stdin', 'path', 'code', 'commands', 'queries', 'concurrency', 'query_scope', 'kind', 'target', 'args', 'timeout_ms'],
  ctx_fs: ['action', 'path', 'depth', 'include_hidden', 'limit', 'pattern', 'glob', 'ignore_case', 'context', 'literal'],
  ctx_git: ['action', 'cwd', 'path', 'stat', 'unified', 'staged', 'n', 'oneline'],
  ctx_kb: ['action', 'path', 'query', 'url', 'urls', 'source', 'format', 'force', 'maxBytes', 'timeoutMs', 'ttl', 'confirm', 'scope', 'sessionId', 'dryRun'],
  ctx_bg: ['action', 'id', 'pid', 'tail_lines', 'tail_bytes', 'timeout_ms'],
};

async function listTools(args: string[], env: Record<string, string>) {
  const { client } = await connectStdio(args, env);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('the tool surface', () => {
  let project: string;
  let env: Record<string, string>;

  before(() => {
    project = fixture({ 'a.ts': 'export const a = 1;\n' });
    env = { CTXGATE_DATA_DIR: fixture() };
  });
  after(() => {
    removeDir(project);
    removeDir(env.CTXGATE_DATA_DIR!);
  });

  it('costs at most 2,500 tokens per turn with all nine tools and every parameter the specs name', async () => {
    const tools = await listTools(['--project-root', project], env);
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(SPEC).sort());
    for (const tool of tools) {
      const have = Object.keys(tool.inputSchema.properties ?? {});
      assert.deepEqual(SPEC[tool.name]!.filter((p) => !have.includes(p)), [], `${tool.name} lacks parameters`);
    }
    const tokens = Math.round(JSON.stringify(tools).length / 3.5);
    assert.ok(tokens <= 2500, `tools/list is ~${tokens} tokens`);
  });

  it('says which tools only read, and keeps the limits that matter', async () => {
    const tools = await listTools(['--project-root', project], env);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['locate', 'read', 'search', 'explore', 'ctx_fs', 'ctx_git']) assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, name);
    assert.equal(byName.get('ctx_run')!.annotations?.readOnlyHint, undefined);
    const depth = (byName.get('ctx_fs')!.inputSchema.properties as Record<string, { maximum?: number }>).depth;
    assert.equal(depth?.maximum, 5);
  });

  it('offers only the tools --tools names, by name or group', async () => {
    assert.deepEqual((await listTools(['--project-root', project, '--tools', 'gate'], env)).map((t) => t.name), ['locate', 'read', 'search', 'explore']);
    assert.deepEqual((await listTools(['--project-root', project, '--tools', 'read,ctx_run'], env)).map((t) => t.name), ['read', 'ctx_run']);
  });

  it("offers the config's tools: list, and refuses a name it does not know", async () => {
    const config = path.join(project, 'ctxgate.config.json');
    writeFileSync(config, JSON.stringify({ tools: ['context'] }));
    try {
      assert.deepEqual((await listTools(['--project-root', project], env)).map((t) => t.name), ['ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg']);
      const bad = runCli(['doctor', '--project-root', project, '--tools', 'gate,grep'], { env });
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--tools: unknown tool 'grep'/);
      assert.match(bad.stderr, /groups \(all, gate, context\)/);
    } finally {
      removeDir(config);
    }
  });
});
