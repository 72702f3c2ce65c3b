import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { endProcesses } from '../../src/exec/terminate.ts';
import { createProcessTracker, mayBeMidExecOf, RUN_MARKER } from '../../src/exec/tracker.ts';
import type { ProcessInfo, Runtime } from '../../src/runtime/types.ts';
import { environHas, environValue } from '../../src/runtime/procfs.ts';
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
    assert.equal(environValue(env, RUN_MARKER), 's1:12');
    assert.equal(environValue(environ('XCTXGATE_RUN_ID=s2:1'), RUN_MARKER), undefined);
    assert.equal(environValue(environ(`${RUN_MARKER}=`), RUN_MARKER), '');
  });

  it('counts start times and "now" on one clock', async () => {
    const before = runtime.ticksSinceBoot();
    assert.ok(before !== undefined && before > 0);
    const child = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      const started = Number(runtime.processStartTime(child.pid!));
      assert.ok(started >= before - 1, `started at ${started}, now was ${before}`);
      assert.ok(started <= runtime.ticksSinceBoot()! + 1);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('looks again at a young process caught mid-exec (empty environment) before judging it', async () => {
    // A fake process table: the command's descendant reads an empty environment for two looks (it is
    // in the middle of an exec), then shows its marker; an old process with an empty environment
    // (started before the command, e.g. by `env -i`) is never waited for.
    const marker = { name: RUN_MARKER, value: 's:1' };
    let looks = 0;
    const signalled: number[] = [];
    const young = (): ProcessInfo => ({ pid: 901, ppid: 1, pgid: 901, startTime: '1000', marked: looks > 2, ...(looks > 2 ? { markerValue: 's:1' } : { envEmpty: true }) });
    const old: ProcessInfo = { pid: 902, ppid: 1, pgid: 902, startTime: '10', marked: false, envEmpty: true };
    const fake = {
      ...runtime,
      ticksSinceBoot: () => 999,
      listProcesses: () => {
        looks++;
        return [young(), old].filter((p) => p.pid !== 901 || !signalled.includes(901));
      },
      signalProcess: (pid: number) => {
        signalled.push(pid);
        return true;
      },
    } as Runtime;
    const tracker = createProcessTracker(fake, { sessionId: 's' });
    const begun = tracker.begin({});
    assert.equal(begun.env[RUN_MARKER], 's:1');
    await tracker.finish(begun.marker);
    assert.deepEqual(signalled, [901], 'the young process was ended once its marker showed; the old one was left alone');

    // Without a start bound nothing is waited for, and an unsure process is not signalled.
    looks = 0;
    signalled.length = 0;
    assert.equal(await endProcesses(fake, () => fake.listProcesses(marker), (list) => list.filter((p) => p.marked)), 0);
    assert.deepEqual(signalled, []);
  });

  it('waits only for a young process in the middle of an exec that may be the command\'s (by its parent)', async () => {
    const since = 1000;
    const unsure = mayBeMidExecOf('s:1', since);
    const p = (pid: number, ppid: number, more: Partial<ProcessInfo> = {}): ProcessInfo => ({ pid, ppid, pgid: pid, startTime: '2000', marked: false, ...more });
    const table = [
      p(1, 0, { startTime: '1' }),
      p(10, 1, { startTime: '5' }), // an unrelated shell with its environment
      p(20, 1, { marked: true, markerValue: 's:1' }), // the command's leader
      p(30, 1, { marked: true, markerValue: 's:2' }), // another command of this server
      p(21, 20, { envEmpty: true }), // the command's child, mid-exec
      p(22, 21, { envEmpty: true }), // its child, also mid-exec
      p(11, 10, { envEmpty: true }), // the unrelated shell's child, mid-exec
      p(12, 11, { envEmpty: true }), // and its grandchild
      p(31, 30, { envEmpty: true }), // the other command's child
      p(40, 1, { envEmpty: true }), // adopted by init (a double fork's orphan)
      p(50, 4242, { envEmpty: true }), // its parent is gone, or is this server
      p(60, 20, { envEmpty: true, startTime: '900' }), // started before the command: env -i, not mid-exec
    ];
    const byPid = new Map(table.map((x) => [x.pid, x]));
    const judged = Object.fromEntries(table.map((x) => [x.pid, unsure(x, byPid)]));
    assert.deepEqual(judged, { 1: false, 10: false, 20: false, 30: false, 21: true, 22: true, 11: false, 12: false, 31: false, 40: true, 50: true, 60: false });

    // Through a command's end: the unrelated process mid-exec costs no wait and no look beyond the first.
    let looks = 0;
    const fake = {
      ...runtime,
      ticksSinceBoot: () => 999,
      listProcesses: () => {
        looks++;
        return [table[0]!, table[1]!, table[6]!];
      },
      signalProcess: () => true,
    } as Runtime;
    const tracker = createProcessTracker(fake, { sessionId: 's' });
    const begun = tracker.begin({});
    await tracker.finish(begun.marker);
    assert.equal(looks, 1);
  });

  it('takes one look for many commands ending together, and ends only what carries each one\'s own marker', async () => {
    // Fifty commands of session s end at once; a process of command 12 is still there. Each command
    // used to read every process's environment on its own (and again every 5 ms while a young one
    // read empty): fifty commands ending together kept the event loop busy for seconds.
    let looks = 0;
    const signalled: number[] = [];
    const left: ProcessInfo = { pid: 912, ppid: 1, pgid: 912, startTime: '1000', marked: true, markerValue: 's:12' };
    const fake = {
      ...runtime,
      listProcesses: (marker?: { value: string; prefix?: boolean }) => {
        looks++;
        assert.deepEqual(marker, { name: RUN_MARKER, value: 's:', prefix: true }, 'one look serves every marker of the session');
        return signalled.includes(912) ? [] : [left];
      },
      signalProcess: (pid: number) => {
        signalled.push(pid);
        return true;
      },
    } as Runtime;
    const tracker = createProcessTracker(fake, { sessionId: 's' });
    const markers = Array.from({ length: 50 }, () => tracker.begin({}).marker);
    await Promise.all(markers.map((m) => tracker.finish(m)));
    assert.deepEqual(signalled, [912], 'command 12 ended its process; command 1 did not take it for its own');
    assert.ok(looks <= 4, `${looks} looks for 50 commands`);
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

  it("signals nothing a registry of another boot or machine names, and leaves another machine's registry alone", async () => {
    const here = runtime.bootIdentity();
    if (!here) return; // no /proc: nothing is recorded
    // A process of ours, in its own group, that the registries below name as a dead server's group.
    const arg = uniqueSleepArg();
    const sleeper = spawn('sleep', [arg], { detached: true, stdio: 'ignore' });
    const pid = sleeper.pid!;
    const group = { pgid: pid, startTime: runtime.processStartTime(pid)! };
    const dataDir = fixture();
    const runs = path.join(dataDir, 'runs');
    mkdirSync(runs, { recursive: true });
    const registry = (name: string, machine: { host: string; boot: string }) => {
      mkdirSync(path.join(dataDir, 'jobs', name), { recursive: true });
      // 2^22 + 1 is above Linux's largest pid: the registry's server is dead.
      writeFileSync(path.join(runs, `4194305-1-${name}.json`), JSON.stringify({ session: name, groups: [group], folders: [`jobs/${name}`], ...machine }));
    };
    try {
      // Written before this machine booted: a registry of an earlier boot.
      registry('rebooted', { host: here.host, boot: 'an-earlier-boot pid:[4026531836]' });
      const beforeBoot = (Date.now() - runtime.ticksSinceBoot()! * 10 - 3_600_000) / 1000;
      utimesSync(path.join(runs, '4194305-1-rebooted.json'), beforeBoot, beforeBoot);
      registry('elsewhere', { host: 'another-machine', boot: 'its-boot' });
      // This host name and this kernel, another pid namespace: a server in a container, alive.
      registry('container', { host: here.host, boot: `${here.boot.split(' ')[0]} pid:[4026599999]` });
      // This host name, another kernel boot, written since this machine booted: another machine of the same name.
      registry('namesake', { host: here.host, boot: 'another-kernel pid:[4026531836]' });
      const tracker = createProcessTracker(runtime, { dataDir });
      tracker.sweepDeadServers();
      await tracker.close();
      assert.ok(alive(pid), 'the process the stale registries name still runs');
      assert.deepEqual(readdirSync(runs).sort(), ['4194305-1-container.json', '4194305-1-elsewhere.json', '4194305-1-namesake.json'], "an earlier boot's registry is removed, the others kept");
      assert.deepEqual(readdirSync(path.join(dataDir, 'jobs')).sort(), ['container', 'elsewhere', 'namesake']);
      for (const kept of ['container', 'elsewhere', 'namesake']) rmSync(path.join(runs, `4194305-1-${kept}.json`));

      // Booted a minute ago: a registry of this host name and another kernel written ten minutes ago
      // may be a live server of another machine of the same name (it writes its registry every ten
      // minutes): kept; one unwritten for two hours is an earlier boot's.
      registry('recent', { host: here.host, boot: 'another-kernel pid:[4026531836]' });
      registry('stale', { host: here.host, boot: 'another-kernel pid:[4026531836]' });
      const ago = (ms: number) => (Date.now() - ms) / 1000;
      utimesSync(path.join(runs, '4194305-1-recent.json'), ago(600_000), ago(600_000));
      utimesSync(path.join(runs, '4194305-1-stale.json'), ago(7_200_000), ago(7_200_000));
      const justBooted = createProcessTracker({ ...runtime, ticksSinceBoot: () => 6000 }, { dataDir });
      justBooted.sweepDeadServers();
      await justBooted.close();
      assert.deepEqual(readdirSync(runs).sort(), ['4194305-1-recent.json']);
      rmSync(path.join(runs, '4194305-1-recent.json'));

      // The same records from this boot of this machine are a dead server's: its group ends.
      registry('this-boot', here);
      const next = createProcessTracker(runtime, { dataDir });
      next.sweepDeadServers();
      await next.close();
      assert.ok(await eventually(() => !alive(pid)), 'a group this boot recorded ends');
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      removeDir(dataDir);
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
      // CTXGATE_DATA_DIR holds one folder per project (beside Node's compile cache, on Node 22 and later).
      const projectData = path.join(dataDir, readdirSync(dataDir).find((name) => name !== 'compile-cache')!);
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
