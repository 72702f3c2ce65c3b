// A stdio server whose app cannot be built (issue 24's lazy start-up answers tools/list first): every
// call says why and what to do, stderr says it once, and the exit code is the configuration error's.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { serverCommand } from '../helpers/server.ts';

type Message = { id?: number; result?: { content?: { text: string }[]; isError?: boolean; tools?: unknown[] }; error?: { code: number; message: string } };

describe('stdio server whose app cannot be built', () => {
  let project: string;
  let dataDir: string;

  before(() => {
    project = fixture({ 'a.ts': 'export const a = 1;\n', 'ctxgate.config.json': JSON.stringify({ storage: { url: 'postgres://u:secret@127.0.0.1:5/db' } }) });
    dataDir = fixture();
  });
  after(() => {
    removeDir(project);
    removeDir(dataDir);
  });

  it('answers calls with the configuration error and its hint, says it once on stderr, and exits with 2', async () => {
    const { command, args } = serverCommand();
    const child = spawn(command, [...args, '--project-root', project], { env: { ...process.env, CTXGATE_DATA_DIR: dataDir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const replies = new Map<number, Message>();
    const waiting = new Map<number, (m: Message) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Message;
      if (message.id === undefined) return;
      replies.set(message.id, message);
      waiting.get(message.id)?.(message);
    });
    const request = (id: number, method: string, params: Record<string, unknown>) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return replies.get(id) ?? new Promise<Message>((resolve) => waiting.set(id, resolve));
    };
    await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    assert.ok(((await request(2, 'tools/list', {})).result?.tools ?? []).length > 0, 'the tools are listed from the settings alone');
    for (const id of [3, 4]) {
      const reply = await request(id, 'tools/call', { name: 'locate', arguments: { query: 'a' } });
      assert.equal(reply.error, undefined, 'a tool result, not a protocol error');
      assert.equal(reply.result?.isError, true);
      assert.match(reply.result?.content?.[0]?.text ?? '', /^error CONFIG_INVALID: cannot start serving .*storage\.url is set \(postgres:\/\/u:\*\*\*@127\.0\.0\.1:5\/db\) but storage\.backend is sqlite\nhint: set storage\.backend: postgres .*then restart the MCP server/);
    }
    child.stdin.end();
    assert.equal(await exited, 2);
    assert.equal(stderr.match(/storage\.url is set/g)?.length, 1, `said once:\n${stderr}`);
    assert.doesNotMatch(stderr, /secret/);
  });
});
