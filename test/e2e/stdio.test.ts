import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { connectStdio, runCli } from '../helpers/server.ts';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

describe('stdio MCP server, through the SDK client', () => {
  let project: string;
  let dataDir: string;
  let client: Client;
  let stderr: () => string;

  before(async () => {
    project = fixture({ 'src/app.ts': 'export function main() {\n  return 42;\n}\n', 'README.md': '# demo\n' });
    dataDir = fixture();
    ({ client, stderr } = await connectStdio(['--project-root', project], { CTXGATE_DATA_DIR: dataDir }));
  });

  after(async () => {
    await client.close();
    removeDir(project);
    removeDir(dataDir);
  });

  it('lists tools with input schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const fs = tools.find((t) => t.name === 'ctx_fs');
    assert.ok(fs, 'ctx_fs is offered');
    assert.equal(fs.inputSchema.type, 'object');
    assert.deepEqual(Object.keys(fs.inputSchema.properties ?? {}).sort(), ['action', 'context', 'depth', 'glob', 'ignore_case', 'include_hidden', 'limit', 'literal', 'path', 'pattern']);
    assert.equal(fs.annotations?.readOnlyHint, true);
    assert.notEqual(fs.annotations?.destructiveHint, true);
  });

  it('answers a tool call with text and structured content', async () => {
    const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'ls', depth: 2 } })) as ToolResult;
    assert.equal(result.isError, undefined);
    assert.match(result.content[0]!.text, /src\/app\.ts/);
    const entries = (result.structuredContent?.entries ?? []) as { path: string }[];
    assert.ok(entries.some((e) => e.path === 'README.md'));
  });

  it('turns a refused path into an isError result that says what to do', async () => {
    const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'stat', path: '/etc/passwd' } })) as ToolResult;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /OUTSIDE_WORKDIR/);
    assert.match(result.content[0]!.text, /hint: pass a path under/);
  });

  it('names the invalid argument and its limit', async () => {
    const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'ls', depth: 9 } })) as ToolResult;
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /depth: must be 1–5/);
  });

  it('refuses unknown parameters and unknown tools clearly', async () => {
    const extra = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'ls', dept: 2 } })) as ToolResult;
    assert.equal(extra.isError, true);
    assert.match(extra.content[0]!.text, /unknown parameter 'dept'/);
    const unknown = (await client.callTool({ name: 'no_such_tool', arguments: {} })) as ToolResult;
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text, /unknown tool 'no_such_tool'.*\n.*ctx_fs/);
  });

  it('reports progress while indexing a large folder into the knowledge base', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(`${project}/notes`, { recursive: true });
    for (let i = 0; i < 250; i++) writeFileSync(`${project}/notes/n${i}.md`, `# Note ${i}\nabout topic-${i}\n`);
    const seen: { progress: number; total?: number }[] = [];
    const result = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'index', path: 'notes' } }, undefined, {
      onprogress: (p) => void seen.push(p),
    })) as ToolResult;
    assert.match(result.content[0]!.text, /indexed 250 files/);
    assert.ok(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);
    // Every 100 files, then the end. The SDK client drops a progress notification it reads in the same
    // chunk as the response (it handles notifications a tick later, after the response has removed the
    // request's progress handler), so on a loaded machine the last one seen may be the one before the end.
    assert.deepEqual(seen.slice(0, 2).map((p) => p.progress), [100, 200], `progress notifications: ${JSON.stringify(seen)}`);
    assert.ok(seen.every((p) => p.total === 250) && [200, 250].includes(seen[seen.length - 1]!.progress), JSON.stringify(seen));
    const found = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'search', query: 'topic-137' } })) as ToolResult;
    assert.match(found.content[0]!.text, /notes\/n137\.md/);
  });

  it('keeps stdout for protocol bytes only (no stray output broke the client)', async () => {
    await client.ping();
    assert.doesNotMatch(stderr(), /Error|at .*\.ts:\d+/);
  });
});

describe('stdio server lifecycle', () => {
  it('exits when its stdin closes', async () => {
    const project = fixture({ 'a.txt': 'x' });
    const { client, transport } = await connectStdio(['--project-root', project], { CTXGATE_DATA_DIR: fixture() });
    const pid = transport.pid;
    assert.ok(pid);
    await client.close();
    const deadline = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'server process ended');
    removeDir(project);
  });
});

describe('a new stdio server with an index on disk', () => {
  it('checks the index against the disk once its tools are listed, before any call, and its first search finds a file edited while no server ran (same size and mtime)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`src/m${i}.ts`] = `export const v${i} = ${i};\n`;
    const project = fixture(files);
    const dataDir = fixture();
    const env = { CTXGATE_DATA_DIR: dataDir };
    try {
      // A small project: `ctxgate call` builds its index first.
      assert.equal(runCli(['call', 'search', '{"pattern":"v4 = 4"}', '--project-root', project], { env }).status, 0);
      const m4 = path.join(project, 'src', 'm4.ts');
      const before = statSync(m4);
      writeFileSync(m4, 'export const xq = 4;\n');
      assert.equal(statSync(m4).size, before.size, 'the edit keeps the size');
      utimesSync(m4, before.atime, before.mtime);
      const { client } = await connectStdio(['--project-root', project], env);
      try {
        const log = () => readdirSync(dataDir).map((d) => path.join(dataDir, d, 'ctxgate.log')).filter((f) => statSync(f, { throwIfNoEntry: false })).map((f) => readFileSync(f, 'utf8')).join('');
        // As clients do: the tool list right after the handshake, then no call yet — the warm start's sweep runs on its own.
        await client.listTools();
        const deadline = Date.now() + 20_000;
        while (!log().includes('"code_index_reconciled"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const sweep = log().split('\n').find((l) => l.includes('"code_index_reconciled"'));
        assert.ok(sweep, 'the server swept before any call');
        assert.match(sweep, /"trusted":true/);
        const found = (await client.callTool({ name: 'search', arguments: { pattern: 'const xq' } })) as ToolResult;
        assert.match(found.content[0]!.text, /src\/m4\.ts/);
        const stale = (await client.callTool({ name: 'search', arguments: { pattern: 'v4 = 4' } })) as ToolResult;
        assert.doesNotMatch(stale.content[0]!.text, /src\/m4\.ts/);
      } finally {
        await client.close();
      }
    } finally {
      removeDir(project);
      removeDir(dataDir);
    }
  });
});
