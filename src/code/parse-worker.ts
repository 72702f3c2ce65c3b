// Entry of a parse worker (a module worker started by src/code/parse-pool.ts; bundled as
// dist/parse-worker.mjs): its own tree-sitter and grammars, one file per job.
import { loadRuntime } from '../runtime/index.ts';
import { serveJobs } from '../workers/serve.ts';
import { createGrammars } from './grammars.ts';
import { type ParseJob, type ParseResult, parseInThread } from './parse-pool.ts';

const runtime = await loadRuntime();
const port = runtime.parentPort();
if (port) {
  const grammars = createGrammars(runtime);
  serveJobs<ParseJob, ParseResult>(port, (job) => parseInThread(grammars, job));
}
