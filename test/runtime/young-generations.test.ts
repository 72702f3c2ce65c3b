// V8's young generations in a Node process (runtime/node.ts): kept small from the runtime's start — a
// worker's nursery does not grow however much of its garbage survives a while — until bulk work
// begins (beginBulkWork), after which a worker started may grow one. The flags are process-wide:
// this file's tests run in order, the one that begins bulk work last.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadRuntime } from '../../src/runtime/index.ts';
import { createWorkerPool } from '../../src/workers/pool.ts';
import { churn, nurseryMb } from '../fixtures/workers/nursery.ts';
import { onDeno, repoRoot } from '../helpers/env.ts';

const runtime = await loadRuntime();
const WORKER = pathToFileURL(path.join(repoRoot, 'test/fixtures/workers/job-worker.ts'));
const skip = onDeno ? 'Deno keeps its own young generations (its workers take no limits)' : false;

interface Nursery {
  newSpaceMb: number;
}

/** A new worker's young generation after 80 MB of objects that each survive a while. */
async function nurseryOfNewWorker(): Promise<Nursery> {
  const pool = createWorkerPool<{ op: 'nursery'; mb: number }, Nursery>({
    start: () => runtime.startWorker(WORKER),
    size: 1,
    queueLimit: 1,
    jobTimeoutMs: 60_000,
    fallback: () => Promise.reject(new Error('not in this thread')),
  });
  try {
    return await pool.run({ op: 'nursery', mb: 80 });
  } finally {
    await pool.close();
  }
}

describe('young generations (Node)', { skip }, () => {
  it('stay small in a worker whose objects survive a while (V8 alone grows one to 32 MB), and in this thread after it started', async () => {
    const before = nurseryMb();
    const { newSpaceMb } = await nurseryOfNewWorker();
    assert.ok(newSpaceMb <= 8, `new space ${newSpaceMb} MB`);
    churn(80);
    assert.ok(nurseryMb() <= Math.max(before, 8), `this thread's new space ${nurseryMb()} MB, ${before} MB before`);
  });

  it('may grow once bulk work has begun', async () => {
    assert.ok(runtime.beginBulkWork, 'the Node runtime has beginBulkWork');
    runtime.beginBulkWork();
    const { newSpaceMb } = await nurseryOfNewWorker();
    assert.ok(newSpaceMb > 8, `new space ${newSpaceMb} MB`);
  });
});
