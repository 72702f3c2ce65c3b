import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { connectStdio } from '../helpers/server.ts';

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
    assert.equal(seen[seen.length - 1]!.progress, 250);
    assert.equal(seen[seen.length - 1]!.total, 250);
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
