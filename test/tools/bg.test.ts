import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readdirSync } from 'node:fs';
import { MAX_LIVE_JOBS } from '../../src/exec/jobs.ts';
import { availableRuntimes } from '../../src/exec/programs.ts';
import { fixture, removeDir, runtime, withTempRoot } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';
import { alive, eventually, pidsWithArg, uniqueSleepArg } from '../helpers/process.ts';


describe('ctx_bg', () => {
  let root: string;
  let t: TestApp;
  const run = async (args: Record<string, unknown>) => (await t.call('ctx_run', { action: 'execute', background: true, ...args })).structuredContent as { id: string; pid: number };
  const bg = async (args: Record<string, unknown>) => {
    const r = await t.call('ctx_bg', args);
    return { r, text: textOf(r), data: (r.structuredContent ?? {}) as Record<string, unknown> };
  };

  before(() => {
    root = fixture();
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('does not quote a command that holds a password in the job label, even where the label would cut it short', async () => {
    const job = await run({ command: ': postgres://u:hunter2isalongpassword@db.example/app; sleep 30' });
    try {
      const listed = (await bg({ action: 'list' })).text;
      assert.ok(listed.includes(job.id));
      assert.doesNotMatch(listed, /hunter2/);
      assert.match(listed, /the command holds/);
    } finally {
      await bg({ action: 'kill', id: job.id });
    }
  });

  it('starts a job, lists it, waits for it and shows its newest output', async () => {
    const job = await run({ command: 'for i in 1 2 3 4 5; do echo "tick $i"; sleep 0.1; done' });
    assert.match(job.id, /^job-\d+$/);
    assert.ok((await bg({ action: 'list' })).text.includes(job.id));
    const waited = await bg({ action: 'wait', id: job.id, timeout_ms: 10_000 });
    assert.equal(waited.data.finished, true);
    assert.equal(waited.data.exit_code, 0);
    const log = await bg({ action: 'log', id: job.id, tail_lines: 2 });
    assert.match(log.text, /tick 4\ntick 5\n?$/);
    assert.doesNotMatch(log.text, /tick 3/);
    const byPid = await bg({ action: 'log', pid: job.pid, tail_bytes: 7 });
    assert.match(byPid.text, /tick 5\n?$/);
  });

  it('waits without killing, then kills the whole group on request', async () => {
    const job = await run({ command: "sh -c 'sleep 60' & sleep 60" });
    const waited = await bg({ action: 'wait', id: job.id, timeout_ms: 200 });
    assert.equal(waited.data.finished, false);
    assert.equal(alive(job.pid), true, 'wait never kills');
    const killed = await bg({ action: 'kill', id: job.id });
    assert.equal(killed.data.killed, true);
    assert.equal(alive(job.pid), false);
    const again = await bg({ action: 'kill', id: job.id });
    assert.match(again.text, /had already ended/);
  });

  it('kills a grandchild that setsid took out of the job\'s group along with the job', async () => {
    const arg = uniqueSleepArg();
    const job = await run({ command: `setsid sleep ${arg} & sleep 60` });
    assert.ok(await eventually(() => pidsWithArg(arg).length === 1), 'the setsid sleep started');
    const killed = await bg({ action: 'kill', id: job.id });
    assert.equal(killed.data.killed, true);
    assert.equal(alive(job.pid), false);
    assert.deepEqual(pidsWithArg(arg), [], 'the setsid sleep is gone when kill answers');
  });

  it('ends what a job left outside its group when the job exits by itself', async () => {
    const arg = uniqueSleepArg();
    const job = await run({ command: `setsid nohup sleep ${arg} >/dev/null 2>&1 & echo started` });
    const waited = await bg({ action: 'wait', id: job.id, timeout_ms: 20_000 });
    assert.equal(waited.data.finished, true);
    assert.match((await bg({ action: 'log', id: job.id })).text, /started/);
    assert.deepEqual(pidsWithArg(arg), []);
  });

  it('never signals a process that is not one of its jobs', async () => {
    const other = await bg({ action: 'kill', pid: process.pid });
    assert.equal(other.r.isError, true);
    assert.match(other.text, /no background job with pid/);
    assert.match((await bg({ action: 'kill' })).text, /name the job by id or pid/);
  });

  it('ends a job at its max age', async () => {
    const job = await run({ command: 'sleep 30', timeout: 300 });
    const waited = await bg({ action: 'wait', id: job.id, timeout_ms: 10_000 });
    assert.equal(waited.data.finished, true);
    assert.equal(waited.data.endedBy, 'max age');
  });

  it('refuses a job beyond the 16 live ones and checks its limits', async () => {
    const started = [];
    for (let i = 0; i < MAX_LIVE_JOBS; i++) started.push(await run({ command: 'sleep 30' }));
    const extra = await t.call('ctx_run', { action: 'execute', background: true, command: 'sleep 30' });
    assert.equal(extra.isError, true);
    assert.match(textOf(extra), /16 background jobs are running/);
    for (const j of started) await bg({ action: 'kill', id: j.id });
    assert.match((await bg({ action: 'log', id: started[0]!.id, tail_lines: 10_001 })).text, /tail_lines: must be at most 10000/);
    assert.match((await bg({ action: 'log', id: started[0]!.id, tail_bytes: 4 * 1024 * 1024 + 1 })).text, /tail_bytes: must be at most 4194304/);
    assert.match((await bg({ action: 'wait', id: started[0]!.id, timeout_ms: 3_600_001 })).text, /timeout_ms: must be at most 3600000/);
  });

  it('leaves no temp folder behind when a job is refused or its compile step fails', async () => {
    const temps = fixture();
    const app = testApp(root, {}, {}, withTempRoot(runtime, temps));
    const start = (args: Record<string, unknown>) => app.call('ctx_run', { action: 'execute', background: true, ...args });
    const started: string[] = [];
    for (let i = 0; i < MAX_LIVE_JOBS; i++) started.push((await start({ command: 'sleep 30' })).structuredContent!.id as string);
    assert.equal(readdirSync(temps).length, MAX_LIVE_JOBS, 'each shell job owns its sources while it runs');
    const extra = await start({ command: 'sleep 30' });
    assert.match(textOf(extra), /^error LIMIT_EXCEEDED: 16 background jobs are running/);
    assert.equal(readdirSync(temps).length, MAX_LIVE_JOBS, 'the refused 17th job left no folder');
    for (const id of started) await app.call('ctx_bg', { action: 'kill', id });
    assert.deepEqual(readdirSync(temps), [], 'ended jobs remove their folders');
    if (availableRuntimes(runtime).rust) {
      const broken = await start({ language: 'rust', command: 'fn main() { let }' });
      assert.match(textOf(broken), /compile step failed/);
      assert.deepEqual(readdirSync(temps), [], 'a job whose compile step failed left no folder');
    }
    await app.close();
    removeDir(temps);
  });

  it('keeps only the newest 16 MB of a log and says so', async () => {
    const job = await run({ command: 'yes "0123456789abcdef0123456789abcdef" | head -c 20000000; echo LAST-LINE' });
    await bg({ action: 'wait', id: job.id, timeout_ms: 60_000 });
    const list = (await bg({ action: 'list' })).data.jobs as { id: string; log_bytes: number; log_truncated: boolean }[];
    const info = list.find((j) => j.id === job.id)!;
    assert.equal(info.log_truncated, true);
    assert.ok(info.log_bytes <= 16 * 1024 * 1024 + 2 * 1024 * 1024, `log ${info.log_bytes} bytes`);
    assert.match((await bg({ action: 'log', id: job.id, tail_lines: 1 })).text, /LAST-LINE/);
  });

  it('ends every job when the server shuts down', async () => {
    const t2 = testApp(root);
    const r = await t2.call('ctx_run', { action: 'execute', background: true, command: 'sleep 60' });
    const pid = (r.structuredContent as { pid: number }).pid;
    assert.equal(alive(pid), true);
    await t2.close();
    assert.equal(alive(pid), false);
  });
});
