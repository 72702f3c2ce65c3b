// MCP roots: started outside the project (as GUI clients start servers) with no project root named,
// ctxgate serves the folders the client says it works on.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { serverCommand } from '../helpers/server.ts';

type Result = { content: { text: string }[]; isError?: boolean };

describe('MCP roots', () => {
  let elsewhere: string;
  let project: string;
  let second: string;
  let third: string;
  let env: Record<string, string>;

  before(() => {
    elsewhere = fixture({ 'unrelated.txt': 'nothing here\n' });
    project = fixture({ 'src/orders.ts': 'export function placeOrder() {\n  return 1;\n}\n' });
    second = fixture({ 'notes.md': '# second root\n' });
    third = fixture({ 'later.md': '# third root\n' });
    env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !/^(CODE_CONTEXT_GATE_ROOT|CTXGATE_ROOT)$/.test(e[0])));
    env.CTXGATE_DATA_DIR = fixture();
  });
  after(() => {
    for (const dir of [elsewhere, project, second, third, env.CTXGATE_DATA_DIR!]) removeDir(dir);
  });

  async function connect(roots: string[] | undefined, args: string[] = []) {
    const client = new Client({ name: 'roots-test', version: '1' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
    const current = { roots: roots ?? [] };
    if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: current.roots.map((r) => ({ uri: pathToFileURL(r).href })) }));
    const { command, args: base } = serverCommand();
    await client.connect(new StdioClientTransport({ command, args: [...base, ...args], cwd: elsewhere, env, stderr: 'pipe' }));
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
    return { client, current, call };
  }

  it("serves the client's first root as the project and every root as a workdir", async () => {
    const { client, call } = await connect([project, second]);
    assert.match((await call('locate', { query: 'placeOrder' })).content[0]!.text, /src\/orders\.ts:1/);
    assert.match((await call('ctx_fs', { action: 'stat', path: `${second}/notes.md` })).content[0]!.text, /notes\.md/);
    assert.equal((await call('ctx_fs', { action: 'stat', path: `${elsewhere}/unrelated.txt` })).isError, true, 'the start folder is not served');
    await client.close();
  });

  it('follows a changed list of roots with the workdirs', async () => {
    const { client, current, call } = await connect([project]);
    assert.equal((await call('ctx_fs', { action: 'stat', path: `${third}/later.md` })).isError, true);
    current.roots = [project, third];
    await client.sendRootsListChanged();
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      ok = (await call('ctx_fs', { action: 'stat', path: `${third}/later.md` })).isError !== true;
      if (!ok) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(ok, 'the new root became a workdir');
    await client.close();
  });

  it('serves the named project root, not the roots, when --project-root is given', async () => {
    const { client, call } = await connect([project], ['--project-root', second]);
    assert.equal((await call('ctx_fs', { action: 'stat', path: `${project}/src/orders.ts` })).isError, true);
    assert.match((await call('ctx_fs', { action: 'stat', path: 'notes.md' })).content[0]!.text, /notes\.md/);
    await client.close();
  });

  it('serves the folder it started in when the client offers no roots', async () => {
    const { client, call } = await connect(undefined);
    assert.match((await call('ctx_fs', { action: 'stat', path: 'unrelated.txt' })).content[0]!.text, /unrelated\.txt/);
    await client.close();
  });
});
