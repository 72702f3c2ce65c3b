// The team endpoint (issue 25): ctxgate servers on several machines share one project's knowledge
// through one Postgres database. Each "machine" here is a checkout of its own (a clone of one
// repository, so one project key) with a data dir of its own; only the database is shared.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import postgres from 'postgres';
import { fixture, removeDir } from '../helpers/env.ts';
import { eachFindsTheOthers, indexRunSearchAtOnce } from '../helpers/kb-servers.ts';
import { type PgCluster, startCluster } from '../helpers/postgres.ts';
import { connectStdio, serverCommand } from '../helpers/server.ts';

interface Reply {
  isError?: boolean;
  content: { text: string }[];
}

const MACHINES = 3;
const REMOTE = 'git@example.test:acme/shop.git';

function checkout(files: Record<string, string>): string {
  const dir = fixture({ ...files, 'ctxgate.config.yaml': 'storage:\n  backend: postgres\n' });
  spawnSync('git', ['init', '-q', dir]);
  spawnSync('git', ['-C', dir, 'remote', 'add', 'origin', REMOTE]);
  return dir;
}

function machineFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let s = 0; s < MACHINES; s++) {
    for (let i = 0; i < 40; i++) files[`area${s}/doc${i}.md`] = `# Area ${s} document ${i}\n\nThe zebra${s} keeps note ${i} about harbor${s} logistics.\n`;
  }
  return files;
}

const cluster: PgCluster | undefined = await startCluster('the team endpoint tests');

describe('three servers on three machines sharing one Postgres', { skip: cluster ? false : 'PostgreSQL cannot be started here (see the warning above)' }, () => {
  let url: string;
  const dirs: string[] = [];
  const servers: { client: Client; env: Record<string, string>; project: string }[] = [];
  const call = async (s: number, name: string, args: Record<string, unknown>) => {
    const r = (await servers[s]!.client.callTool({ name, arguments: args })) as Reply;
    return { r, text: r.content.map((c) => c.text).join('\n') };
  };
  const query = async <T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      return await fn(sql);
    } finally {
      await sql.end({ timeout: 1 });
    }
  };

  before(async () => {
    url = await cluster!.createDatabase('team');
    for (let s = 0; s < MACHINES; s++) {
      const project = checkout(machineFiles());
      const dataDir = fixture();
      dirs.push(project, dataDir);
      const env = { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: url, CTXGATE_CONFIG: `${project}/ctxgate.config.yaml` };
      servers.push({ ...(await connectStdio(['--project-root', project], env)), env, project });
    }
  });
  after(async () => {
    for (const s of servers) await s.client.close();
    dirs.forEach(removeDir);
    cluster?.destroy();
  });

  it('index, keep big outputs and search at the same time with no error, and each finds what the others indexed', async () => {
    const labels = await indexRunSearchAtOnce(call, MACHINES, 40);
    await eachFindsTheOthers(call, MACHINES, labels);
    // Nothing lost: every file of every machine and every output, once, under the repository's key.
    const rows = await query((sql) => sql`SELECT project_key, count(*)::int AS n FROM kb_sources GROUP BY project_key`);
    assert.deepEqual(rows.map((r) => [r.project_key, r.n]), [['example.test/acme/shop', MACHINES * 40 + MACHINES]]);
  });

  it('shares one document per file between checkouts, found under each checkout\'s own path', async () => {
    // Machine 1 indexes area0 of its own checkout: the same files machine 0 indexed, not new ones.
    const again = await call(1, 'ctx_kb', { action: 'index', path: 'area0' });
    assert.equal(again.r.isError, undefined, again.text);
    const [row] = await query((sql) => sql`SELECT count(*)::int AS n FROM kb_sources WHERE key LIKE 'file:area0/%'`);
    assert.equal(row?.n, 40, 'one document per file, stored relative to the project root');
    // Found under this checkout's own path: not stale here, where it was indexed last.
    const seen = await call(1, 'ctx_kb', { action: 'search', query: 'zebra0 harbor0' });
    assert.match(seen.text, /area0\/doc\d+\.md/);
    assert.doesNotMatch(seen.text, /stale/);
  });

  it('records every call of every server in the shared call records, each able to name its user', async () => {
    for (const s of servers) await s.client.callTool({ name: 'ctx_kb', arguments: { action: 'stats' } });
    const stats = await call(0, 'ctx_kb', { action: 'stats' });
    assert.equal(stats.r.isError, undefined, stats.text);
    const [row] = await query((sql) => sql`SELECT count(DISTINCT process_session)::int AS servers, count(*) FILTER (WHERE user_name IS NOT NULL)::int AS named FROM calls`);
    assert.equal(row?.servers, MACHINES);
    assert.equal(row?.named, 0, 'no user is known without the users part');
  });

  it('leaves no partial document when a server is killed with -9 in the middle of indexing', async () => {
    // Two batches at least (each batch one transaction; a batch is at most 100 files), each file
    // several chunks. The kill is not timed: a statement trigger on kb_chunks holds any statement that
    // writes chunks while big/ sources another transaction wrote are committed (from the second batch
    // on), on an advisory lock this test holds: the batch has written its sources, not their chunks.
    // The server is killed there, and its held statement is ended with its connection (as if it had
    // not been sent yet), so a save that is not one transaction (sources committed apart from their
    // chunks) leaves documents without their chunks here every time.
    // (Was 600 files of 21 kB, killed when a 50 ms poll first saw a committed batch: 13 MB indexed ~1.6 times.)
    const FILES = 200;
    const section = (i: number, s: number) => `## Part ${s}\n\n${`Paragraph ${i}.${s} of the walrus archive with several words.\n\n`.repeat(3)}`;
    const big: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) big[`big/file${i}.md`] = `# File ${i}\n\n${[0, 1, 2, 3].map((s) => section(i, s)).join('')}`;
    const project = checkout(big);
    const dataDir = fixture();
    dirs.push(project, dataDir);
    const env = { CTXGATE_DATA_DIR: dataDir, CTXGATE_DATABASE_URL: url, CTXGATE_CONFIG: `${project}/ctxgate.config.yaml` };
    const countBig = () => query(async (sql) => (await sql`SELECT count(*)::int AS n FROM kb_sources WHERE key LIKE 'file:big/%'`)[0]!.n as number);
    // One connection for the whole hold: the session-level advisory lock lives on it.
    const held = postgres(url, { max: 1, onnotice: () => {} });
    let child: ReturnType<typeof spawn> | undefined;
    try {
      await held.unsafe(`CREATE FUNCTION hold_later_batches() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF EXISTS (SELECT 1 FROM kb_sources WHERE key LIKE 'file:big/%' AND xmin::text <> (txid_current() % 4294967296)::text) THEN
            PERFORM pg_advisory_xact_lock(7301, 1);
          END IF;
          RETURN NULL;
        END $$`);
      await held`CREATE TRIGGER hold_later_batches BEFORE INSERT ON kb_chunks FOR EACH STATEMENT EXECUTE FUNCTION hold_later_batches()`;
      await held`SELECT pg_advisory_lock(7301, 1)`;
      const { command, args } = serverCommand();
      child = spawn(command, [...args, 'call', 'ctx_kb', '{"action":"index","path":"big"}', '--project-root', project], { env: { ...process.env, ...env }, stdio: 'ignore' });
      let ended = false;
      const exited = new Promise((resolve) => child!.once('exit', resolve)).then(() => {
        ended = true;
      });
      // The backend of the held statement (none if the server ended first: the assertion below says so).
      const waiting = async () =>
        (await held`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 7301 AND objid = 1 AND objsubid = 2 AND NOT granted`).map((r) => r.pid as number);
      let pids = await waiting();
      while (!ended && !pids.length) {
        await new Promise((r) => setTimeout(r, 50));
        pids = await waiting();
      }
      child.kill('SIGKILL');
      await exited;
      for (const pid of pids) await held`SELECT pg_terminate_backend(${pid}, 10000)`;
      const indexed = await countBig();
      assert.ok(indexed > 0 && indexed < FILES, `the kill came mid-index (${indexed} of ${FILES} files committed)`);
    } finally {
      child?.kill('SIGKILL');
      await held`SELECT pg_advisory_unlock_all()`;
      await held`DROP TRIGGER IF EXISTS hold_later_batches ON kb_chunks`;
      await held`DROP FUNCTION IF EXISTS hold_later_batches()`;
      await held.end({ timeout: 1 });
    }
    const partial = await query((sql) => sql`SELECT s.key, s.chunk_count, count(c.id)::int AS chunks FROM kb_sources s LEFT JOIN kb_chunks c ON c.source_id = s.id
      GROUP BY s.id HAVING s.chunk_count <> count(c.id)`);
    assert.deepEqual([...partial], [], 'every committed document has all its chunks');
    // Another server indexes the same folder to the end, over what the killed one left.
    const { client } = await connectStdio(['--project-root', project], env);
    try {
      const r = (await client.callTool({ name: 'ctx_kb', arguments: { action: 'index', path: 'big' } })) as Reply;
      assert.equal(r.isError, undefined, r.content[0]?.text);
      assert.equal(await countBig(), FILES);
    } finally {
      await client.close();
    }
  });

  it('answers with a clear error while Postgres is down, and recovers by itself once it is back', async () => {
    cluster!.stopServer();
    try {
      const down = await call(1, 'ctx_kb', { action: 'search', query: 'zebra0' });
      assert.equal(down.r.isError, true, down.text);
      assert.match(down.text, /error UNAVAILABLE: (lost the connection to|cannot reach) the Postgres database at postgres:\/\/postgres@127\.0\.0\.1:\d+\/team/);
      assert.match(down.text, /hint: /);
    } finally {
      cluster!.startServer();
    }
    for (let s = 0; s < MACHINES; s++) {
      const back = await call(s, 'ctx_kb', { action: 'search', query: 'zebra0' });
      assert.equal(back.r.isError, undefined, back.text);
      assert.match(back.text, /area0\/doc/);
    }
  });
});
