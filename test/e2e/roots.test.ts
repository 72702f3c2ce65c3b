// MCP roots: started outside the project (as GUI clients start servers) with no project root named,
// ctxgate serves the folders the client says it works on.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { connectStdioTo, serverCommand } from '../helpers/server.ts';

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

  async function connect(roots: string[] | undefined, args: string[] = [], extraEnv: Record<string, string> = {}) {
    const client = new Client({ name: 'roots-test', version: '1' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
    const current = { roots: roots ?? [] };
    if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: current.roots.map((r) => ({ uri: pathToFileURL(r).href })) }));
    const { command, args: base } = serverCommand();
    const { stderr } = await connectStdioTo({ command, args: [...base, ...args], cwd: elsewhere, env: { ...env, ...extraEnv } }, client);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
    return { client, current, call, stderr };
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

  it('applies a roots/list_changed that arrives while the first roots are still being followed', async () => {
    const client = new Client({ name: 'roots-test', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      // The first answer is already old: the client adds a folder and says so at once, while ctxgate builds its app.
      if (asked === 1) setTimeout(() => void client.sendRootsListChanged(), 0);
      return { roots: (asked === 1 ? [project] : [project, third]).map((r) => ({ uri: pathToFileURL(r).href })) };
    });
    const { command, args: base } = serverCommand();
    await client.connect(new StdioClientTransport({ command, args: base, cwd: elsewhere, env, stderr: 'pipe' }));
    let result: Result | undefined;
    // The second roots/list goes out when the notification arrives; the call waits for nothing but the first.
    for (let i = 0; i < 100 && asked < 2; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(asked, 2, 'ctxgate asked again after roots/list_changed');
    for (let i = 0; i < 50; i++) {
      result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'stat', path: `${third}/later.md` } })) as Result;
      if (result.isError !== true) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.notEqual(result?.isError, true, `the newest list's root is served: ${result?.content[0]?.text}`);
    assert.match((await client.callTool({ name: 'locate', arguments: { query: 'placeOrder' } }) as Result).content[0]!.text, /src\/orders\.ts:1/);
    await client.close();
  });

  it('answers every call with the reason and a hint when the app cannot be built, and keeps serving', async () => {
    const { client, call, stderr } = await connect([project], [], { CTXGATE_DATA_DIR: '/proc/ctxgate-test' });
    for (let i = 0; i < 2; i++) {
      const result = await call('locate', { query: 'placeOrder' });
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text, /^error CONFIG_INVALID: cannot start serving .*CTXGATE_DATA_DIR=\/proc\/ctxgate-test points into \/proc/);
      assert.match(result.content[0]!.text, /\nhint: set CTXGATE_DATA_DIR to a writable folder on disk; then restart the MCP server/);
    }
    assert.equal(stderr().match(/cannot start serving/g)?.length, 1, `said once on stderr:\n${stderr()}`);
    await client.close();
  });

  it('survives a client whose roots/list fails while the app cannot be built', async () => {
    const client = new Client({ name: 'roots-test', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      throw new Error('no roots today');
    });
    const { command, args: base } = serverCommand();
    await client.connect(new StdioClientTransport({ command, args: base, cwd: elsewhere, env: { ...env, CTXGATE_DATA_DIR: '/proc/ctxgate-test' }, stderr: 'pipe' }));
    await client.sendRootsListChanged();
    for (let i = 0; i < 2; i++) {
      const result = (await client.callTool({ name: 'ctx_fs', arguments: { action: 'ls' } })) as Result;
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text, /CONFIG_INVALID: cannot start serving .*points into \/proc.*\nhint: /);
    }
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
