import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RUN_MARKER } from '../../src/exec/tracker.ts';
import { environHas } from '../../src/runtime/procfs.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { alive, eventually, pidsWithArg, uniqueSleepArg } from '../helpers/process.ts';
import { connectStdio } from '../helpers/server.ts';

const environ = (...entries: string[]) => new TextEncoder().encode(entries.map((e) => `${e}\0`).join(''));

describe('process tracker', () => {
  it('matches a marker as a whole entry, or as a prefix of the value when asked', () => {
    const env = environ('A=1', `${RUN_MARKER}=s1:12`, 'XCTXGATE_RUN_ID=s2:1');
    assert.equal(environHas(env, { name: RUN_MARKER, value: 's1:12' }), true);
    assert.equal(environHas(env, { name: RUN_MARKER, value: 's1:1' }), false, 'run 1 is not run 12');
    assert.equal(environHas(env, { name: RUN_MARKER, value: 's1:', prefix: true }), true);
    assert.equal(environHas(env, { name: RUN_MARKER, value: 's2:', prefix: true }), false, 'a longer name that ends the same does not count');
    assert.equal(environHas(new Uint8Array(), { name: RUN_MARKER, value: '', prefix: true }), false);
  });

  it('lists the processes carrying a marker and counts a zombie as gone', async () => {
    const value = uniqueSleepArg();
    // The child exits at once and its parent never reaps it: a zombie for as long as the parent sleeps.
    const parent = spawn('python3', ['-c', 'import os, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)'], {
      env: { ...process.env, TEST_MARK: value },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (c: Buffer) => resolve(c.toString()))));
      assert.ok(await eventually(() => !alive(zombie)), 'the child became a zombie');
      const marked = runtime.listProcesses({ name: 'TEST_MARK', value }).filter((p) => p.marked);
      assert.deepEqual(
        marked.map((p) => p.pid),
        [parent.pid],
        'the parent carries the mark; its zombie child is not listed',
      );
      assert.equal(runtime.processStartTime(zombie), undefined);
      assert.equal(runtime.listProcesses().some((p) => p.pid === runtime.pid), false, 'the caller is left out');
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('ends the command and the jobs of a server killed with -9 when the next server starts on the project', async () => {
    const project = fixture();
    const dataDir = fixture();
    const env = { CTXGATE_DATA_DIR: dataDir };
    const args = ['--project-root', project];
    const [job, jobEscapee, command, commandEscapee] = [uniqueSleepArg(), uniqueSleepArg(), uniqueSleepArg(), uniqueSleepArg()];

    const first = await connectStdio(args, env);
    const started = await first.client.callTool({ name: 'ctx_run', arguments: { action: 'execute', background: true, command: `setsid sleep ${jobEscapee} & sleep ${job}` } });
    assert.equal(started.isError, undefined, JSON.stringify(started));
    // A foreground command still running when the server dies: its reply never comes.
    first.client.callTool({ name: 'ctx_run', arguments: { action: 'execute', command: `setsid sleep ${commandEscapee} & sleep ${command}`, timeout: 600_000 } }).catch(() => undefined);
    const all = [job, jobEscapee, command, commandEscapee];
    assert.ok(await eventually(() => all.every((arg) => pidsWithArg(arg).length === 1)), 'all four sleeps started');
    const pids = all.map((arg) => pidsWithArg(arg)[0]!);

    const serverPid = first.transport.pid!;
    process.kill(serverPid, 'SIGKILL');
    assert.ok(await eventually(() => !alive(serverPid)));
    await first.client.close();
    assert.deepEqual(
      pids.map(alive),
      [true, true, true, true],
      'a killed server cannot end anything itself',
    );

    const second = await connectStdio(args, env);
    try {
      assert.ok(await eventually(() => pids.every((pid) => !alive(pid))), `still running: ${all.filter((arg) => pidsWithArg(arg).length > 0)}`);
      // CTXGATE_DATA_DIR holds one folder per project.
      const projectData = path.join(dataDir, readdirSync(dataDir)[0]!);
      assert.ok(
        await eventually(() => !readdirSync(path.join(projectData, 'runs')).some((f) => f.startsWith(`${serverPid}-`))),
        'the dead server\'s registry is removed',
      );
      const jobs = path.join(projectData, 'jobs');
      assert.ok(!existsSync(jobs) || readdirSync(jobs).length === 0, 'and its job logs');
    } finally {
      await second.client.close();
      removeDir(project);
      removeDir(dataDir);
    }
  });
});
