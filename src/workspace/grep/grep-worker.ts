// Entry of a grep worker (a module worker started by src/workspace/grep/grep-pool.ts; bundled as
// dist/grep-worker.mjs): reads and matches batches of files the main thread has already judged.
import { loadRuntime } from '../../runtime/index.ts';
import { serveJobs } from '../../workers/serve.ts';
import { createMatcher, type Matcher, NEVER_PAUSE } from './matcher.ts';
import { readBuffer, runScanJob, type ScanJob, type ScanJobResult } from './scan-files.ts';
import type { GrepQuery } from './types.ts';

const runtime = await loadRuntime();
const port = runtime.parentPort();
if (port) {
  // A search sends many batches with one query: compile it once.
  let last: { key: string; matcher: Matcher } | undefined;
  const matcherOf = (query: GrepQuery) => {
    const key = JSON.stringify(query);
    if (last?.key !== key) last = { key, matcher: createMatcher(query) };
    return last.matcher;
  };
  // serveJobs runs one job at a time: one buffer for every file this worker reads (grown to the
  // largest, gone with the worker when it stops idle).
  const into = readBuffer();
  serveJobs<ScanJob, ScanJobResult>(port, (job) => runScanJob(runtime.fs, job, NEVER_PAUSE, matcherOf, into));
}
