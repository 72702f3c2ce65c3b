// A worker pool on one of the bundle's worker entries (dist/*.mjs), as the package starts it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createWorkerPool, type WorkerPool } from '../../src/workers/pool.ts';
import { repoRoot, runtime } from './env.ts';

/** One worker started from dist/`file` (which scripts/build.mjs must have built); no in-thread fallback. */
export function bundledWorkerPool<J, R>(file: string): WorkerPool<J, R> {
  const entry = path.join(repoRoot, 'dist', file);
  assert.ok(existsSync(entry), `scripts/build.mjs builds dist/${file}`);
  return createWorkerPool<J, R>({
    start: () => runtime.startWorker(pathToFileURL(entry)),
    size: 1,
    queueLimit: 2,
    jobTimeoutMs: 30_000,
    fallback: () => Promise.reject(new Error('not in this thread')),
  });
}
