// Several ctxgate processes on one project share its knowledge base (issue 12): servers side by
// side and a one-shot `ctxgate call` next to them all get their answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixture, removeDir } from '../helpers/env.ts';
import { eachFindsTheOthers, indexRunSearchAtOnce } from '../helpers/kb-servers.ts';
import { connectStdio, runCli } from '../helpers/server.ts';

interface Reply {
  isError?: boolean;
  content: { text: string }[];
}

const SERVERS = 3;

function projectFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let s = 0; s < SERVERS; s++) {
    for (let i = 0; i < 60; i++) files[`area${s}/doc${i}.md`] = `# Area ${s} document ${i}\n\nThe zebra${s} keeps note ${i} about harbor${s} logistics.\n`;
  }
  return files;
}

describe('one knowledge base shared by several ctxgate processes', () => {
  let project: string;
  let dataDir: string;
  let env: Record<string, string>;
  const servers: { client: Client; transport: StdioClientTransport }[] = [];
  const call = async (s: number, name: string, args: Record<string, unknown>) => {
    const r = (await servers[s]!.client.callTool({ name, arguments: args })) as Reply;
    return { r, text: r.content.map((c) => c.text).join('\n') };
  };

  before(async () => {
    project = fixture(projectFiles());
    dataDir = fixture();
    env = { CTXGATE_DATA_DIR: dataDir };
    for (let s = 0; s < SERVERS; s++) servers.push(await connectStdio(['--project-root', project], env));
  });
  after(async () => {
    for (const s of servers) await s.client.close();
    removeDir(project);
    removeDir(dataDir);
  });

  it('lets servers index, keep big outputs and search at the same time, every call answered', async () => {
    const labels = await indexRunSearchAtOnce(call, SERVERS, 60);
    // Each server reaches what the others indexed, big outputs included.
    await eachFindsTheOthers(call, SERVERS, labels);
  });

  it('answers a one-shot `ctxgate call ctx_kb search` while the servers hold the database open', () => {
    const r = runCli(['call', 'ctx_kb', '{"action":"search","query":"zebra1 harbor1"}', '--project-root', project], { env });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /area1\/doc\d+\.md/);
  });

  it('doctor names the processes using the database and its size', () => {
    const r = runCli(['doctor', '--json', '--project-root', project], { env });
    assert.equal(r.status, 0, r.stderr);
    const { database } = JSON.parse(r.stdout);
    assert.ok(database.bytes > 0);
    const pids = database.users.map((u: { pid: number }) => u.pid);
    for (const s of servers) assert.ok(pids.includes(s.transport.pid), `${s.transport.pid} in ${pids}`);
    const text = runCli(['doctor', '--project-root', project], { env }).stdout;
    assert.match(text, new RegExp(`in use by .*pid ${servers[0]!.transport.pid}`));
  });
});
