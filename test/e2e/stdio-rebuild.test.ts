// `git pull && npm run build` or an `npm i -g` upgrade replaces dist/ under the stdio servers of open
// sessions; their tools' code lives in content-hashed chunks, imported on first need. A server loads
// every tool's code once its app is built, so a session keeps working until it is restarted.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixture, onDeno, removeDir, repoRoot } from '../helpers/env.ts';

type Result = { content: { text: string }[]; isError?: boolean };

describe('a stdio server whose dist/ is replaced while it runs', { skip: onDeno && 'the bundle is for Node; Deno runs src/main.ts' }, () => {
  let install: string;
  let project: string;
  let dataDir: string;

  before(() => {
    install = fixture();
    const dist = path.join(repoRoot, 'dist');
    for (const entry of readdirSync(dist)) {
      // The grammars are read by path when a language is first parsed, and are large: shared, not copied.
      if (entry === 'grammars') symlinkSync(path.join(dist, entry), path.join(install, entry));
      else cpSync(path.join(dist, entry), path.join(install, entry), { recursive: true });
    }
    project = fixture({ 'src/orders.ts': 'export function placeOrder() {\n  return 1;\n}\n', 'notes.md': '# notes\n' });
    dataDir = fixture();
  });
  after(() => {
    for (const dir of [install, project, dataDir]) removeDir(dir);
  });

  it('keeps answering every tool after its chunks are gone, and says to restart when a chunk it never loaded is needed', async () => {
    const logFile = path.join(dataDir, 'test.log');
    const client = new Client({ name: 'rebuild-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(install, 'ctxgate.mjs'), '--project-root', project],
        env: { ...(process.env as Record<string, string>), CTXGATE_DATA_DIR: dataDir, CTXGATE_LOG_FILE: logFile },
        stderr: 'pipe',
      }),
    );
    try {
      await callsAfterRebuild(client, logFile, path.join(install, 'chunks'));
    } finally {
      await client.close();
    }
  });
});

async function callsAfterRebuild(client: Client, logFile: string, chunks: string): Promise<void> {
    await client.listTools();
    const logged = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    for (let i = 0; i < 300 && !logged().includes('"handlers_loaded"'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(logged(), /"event":"handlers_loaded","failed":0/);
    for (const file of readdirSync(chunks)) if (file.endsWith('.mjs')) renameSync(path.join(chunks, file), path.join(chunks, `${file}.gone`));
    const calls: [string, Record<string, unknown>][] = [
      ['locate', { query: 'placeOrder' }],
      ['read', { target: 'src/orders.ts' }],
      ['search', { pattern: 'placeOrder' }],
      ['explore', {}],
      ['ctx_fs', { action: 'stat', path: 'notes.md' }],
      ['ctx_bg', { action: 'list' }],
    ];
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as Result;
      assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
    }
    // The knowledge base's database engine is a chunk of its own, loaded when the kb first opens: if
    // that had not happened yet, the call says what happened and what to do.
    const kb = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'stats' } })) as Result;
    if (kb.isError) assert.match(kb.content[0]!.text, /^error UNAVAILABLE: ctxgate was rebuilt or upgraded while this session ran \(.*\/chunks\/.*\.mjs is gone\)\nhint: restart the MCP server/);
}
