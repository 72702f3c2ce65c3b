import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadRuntime } from '../../src/runtime/index.ts';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from '../../src/workers/pool.ts';
import { onDeno, repoRoot } from '../helpers/env.ts';

const runtime = await loadRuntime();
const WORKER = pathToFileURL(path.join(repoRoot, 'test/fixtures/workers/job-worker.ts'));

type Job = { op: 'echo'; value: unknown } | { op: 'fail' } | { op: 'crash' } | { op: 'hang' } | { op: 'bytes'; n: number } | { op: 'hold'; mb: number };

const pools: WorkerPool<Job, unknown>[] = [];
function pool(options: Partial<WorkerPoolOptions<Job, unknown>> = {}): WorkerPool<Job, unknown> & { events: string[] } {
  const events: string[] = [];
  const p = createWorkerPool<Job, unknown>({
    start: () => runtime.startWorker(WORKER),
    size: 2,
    queueLimit: 4,
    jobTimeoutMs: 5000,
    fallback: async (job) => (job.op === 'echo' ? { value: job.value, worker: false } : Promise.reject(new Error(`no ${job.op} in this thread`))),
    onEvent: (name) => events.push(name),
    ...options,
  });
  pools.push(p);
  return Object.assign(p, { events });
}

after(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('worker pool', () => {
  it('runs jobs in workers and returns each job its own result', async () => {
    const p = pool();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => p.run({ op: 'echo', value: i })));
    assert.deepEqual(
      results,
      Array.from({ length: 20 }, (_, i) => ({ value: i, worker: true })),
    );
    assert.equal(p.mode(), 'workers');
  });

  it('moves a transferred result buffer back intact', async () => {
    const p = pool({ size: 1 });
    const bytes = (await p.run({ op: 'bytes', n: 1000 })) as Uint8Array;
    assert.equal(bytes.length, 1000);
    assert.equal(bytes[999], 7);
  });

  it('fails a job whose handler throws, with its message, and keeps serving', async () => {
    const p = pool({ size: 1 });
    await assert.rejects(p.run({ op: 'fail' }), /the job failed on purpose/);
    assert.deepEqual(await p.run({ op: 'echo', value: 'after' }), { value: 'after', worker: true });
  });

  it('fails the job that crashed its worker and answers the next from a new worker', async () => {
    const p = pool({ size: 1 });
    await p.run({ op: 'echo', value: 'warm' });
    await assert.rejects(p.run({ op: 'crash' }), /crashed/);
    assert.deepEqual(await p.run({ op: 'echo', value: 'next' }), { value: 'next', worker: true });
    assert.ok(p.events.includes('worker_crashed'));
    assert.equal(p.mode(), 'workers');
  });

  it('gives the jobs sent ahead to a worker that crashed to a new worker', async () => {
    const p = pool({ size: 1, ahead: 4 });
    await p.run({ op: 'echo', value: 'warm' });
    const crash = p.run({ op: 'crash' }).catch((e: Error) => e);
    const behind = [1, 2, 3].map((value) => p.run({ op: 'echo', value }));
    assert.match(String(await crash), /crashed/);
    assert.deepEqual(await Promise.all(behind), [1, 2, 3].map((value) => ({ value, worker: true })));
  });

  it('stops a job over its time limit, replaces its worker, and runs the jobs queued behind it', async () => {
    const p = pool({ size: 1, jobTimeoutMs: 1500 });
    await p.run({ op: 'echo', value: 'warm' });
    const stuck = p.run({ op: 'hang' });
    const behind = p.run({ op: 'echo', value: 'behind' });
    await assert.rejects(stuck, /time limit|over its/);
    assert.deepEqual(await behind, { value: 'behind', worker: true });
    assert.ok(p.events.includes('worker_job_timeout'));
  });

  it('makes a producer wait while the queue is full', async () => {
    const p = pool({ size: 1, queueLimit: 2 });
    const admitted: number[] = [];
    const results: Promise<unknown>[] = [];
    const producer = (async () => {
      for (let i = 0; i < 8; i++) {
        const { result } = await p.submit({ op: 'echo', value: i });
        admitted.push(i);
        results.push(result);
      }
    })();
    // Right after submitting, the producer is held at the queue's limit, not past it.
    await new Promise((r) => setImmediate(r));
    assert.ok(admitted.length <= 3, `admitted ${admitted.length} before any ran`);
    await producer;
    assert.deepEqual((await Promise.all(results)).map((r) => (r as { value: number }).value), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('fails queued and running jobs on close, stops its workers, and refuses new jobs', async () => {
    const p = pool({ size: 1, jobTimeoutMs: 60_000 });
    await p.run({ op: 'echo', value: 'warm' });
    const failure = (e: unknown) => e as Error;
    const running = p.run({ op: 'hang' }).catch(failure);
    const queued = p.run({ op: 'echo', value: 'queued' }).catch(failure);
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    assert.match(String(await running), /closed/);
    assert.match(String(await queued), /closed/);
    await assert.rejects(p.run({ op: 'echo', value: 'late' }), /closed/);
  });

  it('stops the worker running a job whose signal aborts, and runs the jobs behind it on a new one', async () => {
    const p = pool({ size: 1, jobTimeoutMs: 60_000 });
    await p.run({ op: 'echo', value: 'warm' });
    const cancel = new AbortController();
    const running = p.run({ op: 'hang' }, { signal: cancel.signal });
    const behind = p.run({ op: 'echo', value: 'behind' });
    await new Promise((r) => setTimeout(r, 100));
    cancel.abort();
    await assert.rejects(running, /cancelled/);
    assert.deepEqual(await behind, { value: 'behind', worker: true });
    assert.ok(p.events.includes('worker_job_cancelled'));
    assert.ok(!p.events.includes('worker_job_timeout'));
  });

  it('drops a queued job whose signal aborts, and refuses one whose signal has aborted already', async () => {
    const p = pool({ size: 1, jobTimeoutMs: 60_000 });
    await p.run({ op: 'echo', value: 'warm' });
    const stuck = new AbortController();
    const running = p.run({ op: 'hang' }, { signal: stuck.signal }).catch((e: Error) => e);
    const cancel = new AbortController();
    const queued = p.run({ op: 'echo', value: 'queued' }, { signal: cancel.signal });
    cancel.abort();
    await assert.rejects(queued, /cancelled/);
    await assert.rejects(p.run({ op: 'echo', value: 'late' }, { signal: cancel.signal }), /cancelled/);
    stuck.abort();
    assert.match(String(await running), /cancelled/);
  });

  it('runs an urgent job ahead of the jobs already queued', async () => {
    const p = pool({ size: 1 });
    const order: unknown[] = [];
    const queued = [1, 2, 3].map((value) => p.run({ op: 'echo', value }).then((r) => order.push((r as { value: unknown }).value)));
    const urgent = p.run({ op: 'echo', value: 'urgent' }, { urgent: true }).then((r) => order.push((r as { value: unknown }).value));
    await Promise.all([...queued, urgent]);
    assert.deepEqual(order, ['urgent', 1, 2, 3]);
  });

  it('stops workers that sat idle, and starts new ones for the next job', async () => {
    let started = 0;
    let stopped = 0;
    const p = pool({
      size: 1,
      idleMs: 50,
      start: () => {
        started++;
        const handle = runtime.startWorker(WORKER);
        handle.onExit(() => stopped++);
        return handle;
      },
    });
    await p.run({ op: 'echo', value: 1 });
    while (stopped < 1) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await p.run({ op: 'echo', value: 2 }), { value: 2, worker: true });
    assert.equal(started, 2);
  });

  it('keeps a worker started with a heap cap under it: a job that needs more ends that worker, which is replaced (Node)', { skip: onDeno ? 'Deno workers take no heap limit' : false }, async () => {
    const p = pool({ size: 1, start: () => runtime.startWorker(WORKER, { maxHeapMb: 48 }) });
    assert.equal(await p.run({ op: 'hold', mb: 8 }), 64_000, 'a job within the cap runs');
    await assert.rejects(p.run({ op: 'hold', mb: 400 }), /crashed/);
    assert.deepEqual(await p.run({ op: 'echo', value: 3 }), { value: 3, worker: true });
    assert.ok(p.events.includes('worker_crashed'));
  });

  it('starts its workers when warmed, before any job, and gives the first jobs to them (no second start)', async () => {
    let started = 0;
    const p = pool({
      start: () => {
        started++;
        return runtime.startWorker(WORKER);
      },
    });
    p.warm(1);
    assert.equal(started, 1, 'warmed up to one: one starts');
    p.warm();
    assert.equal(started, 2, 'then the other');
    assert.deepEqual([p.readyWorkers(), p.startingWorkers()], [0, 2], 'both starting');
    while (p.events.filter((e) => e === 'worker_ready').length < 2) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual([p.readyWorkers(), p.startingWorkers()], [2, 0], 'both ready');
    const results = await Promise.all([1, 2, 3, 4].map((value) => p.run({ op: 'echo', value })));
    assert.deepEqual(results, [1, 2, 3, 4].map((value) => ({ value, worker: true })));
    p.warm();
    assert.equal(started, 2, 'a pool already full starts none');
  });

  it('stays in this thread when warmed where workers cannot start', async () => {
    const p = pool({
      start: () => {
        throw new Error('no workers here');
      },
    });
    p.warm();
    assert.equal(p.mode(), 'in-thread');
    assert.deepEqual(await p.run({ op: 'echo', value: 1 }), { value: 1, worker: false });
  });

  it('runs jobs in this thread when workers cannot start', async () => {
    const p = pool({
      start: () => {
        throw new Error('no workers here');
      },
    });
    assert.deepEqual(await p.run({ op: 'echo', value: 1 }), { value: 1, worker: false });
    assert.equal(p.mode(), 'in-thread');
  });

  it('runs jobs in this thread when the worker module does not load', async () => {
    const p = pool({ start: () => runtime.startWorker(pathToFileURL(path.join(repoRoot, 'test/fixtures/workers/missing-worker.ts'))) });
    const results = await Promise.all([1, 2, 3].map((value) => p.run({ op: 'echo', value })));
    assert.deepEqual(results, [1, 2, 3].map((value) => ({ value, worker: false })));
    assert.equal(p.mode(), 'in-thread');
  });

  it('runs every job in this thread with size 0', async () => {
    const p = pool({ size: 0 });
    assert.deepEqual(await p.run({ op: 'echo', value: 'x' }), { value: 'x', worker: false });
  });
});
