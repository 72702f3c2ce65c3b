// Which graph backend answers: `builtin` (ctxgate's code index), `none` (file scans only), or an
// external program — `codegraph`, `codebase-memory-mcp`. An external backend that is missing, or that
// ctxgate cannot drive, is replaced by the built-in index with one logged event (and `doctor` says how
// to install it); one that is there is wrapped so that no answer, an error or a timeout falls back to
// the built-in index, never a failed call.
import type { CodeIndex } from '../code/index.ts';
import type { GraphBackend } from '../config/schema.ts';
import type { Executor } from '../exec/executor.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { createBuiltinAdapter, createNullAdapter, type GraphAdapter, withFallback } from './graph.ts';
import { codegraphIndexed, createCodegraphAdapter } from './graph-codegraph.ts';

export interface GraphDeps {
  runtime: Runtime;
  exec: Executor;
  logger: Logger;
  projectRoot: string;
  code: CodeIndex;
}

/** What the configured backend can do here: who answers, and if that is not the backend, why and how to fix it. */
export interface GraphBackendStatus {
  backend: GraphBackend;
  /** The backend that answers: the one configured, or `builtin` in place of an external one that cannot. */
  answeredBy: GraphBackend;
  /** The external program, when it was found on PATH. */
  bin?: string;
  /** Why the configured backend does not answer (fully). */
  reason?: string;
  /** What to do about it. */
  hint?: string;
}

const EXTERNAL: Partial<Record<GraphBackend, { command: string; install: string }>> = {
  codegraph: { command: 'codegraph', install: 'npm install -g @colbymchenry/codegraph, then codegraph init in the project' },
  'codebase-memory-mcp': {
    command: 'codebase-memory-mcp',
    install: 'npm install -g codebase-memory-mcp (its install step downloads a native binary, so it needs network access beyond the npm registry)',
  },
};

export function graphBackendStatus(backend: GraphBackend, runtime: Runtime, projectRoot: string): GraphBackendStatus {
  const external = EXTERNAL[backend];
  if (!external) return { backend, answeredBy: backend };
  const bin = runtime.which(external.command);
  if (!bin) return { backend, answeredBy: 'builtin', reason: `${external.command} is not on PATH`, hint: `install it: ${external.install}` };
  if (backend === 'codebase-memory-mcp') {
    // Its npm installer fetches the native program from outside the npm registry, which the machines
    // ctxgate is tested on cannot reach: no adapter has run against it, so none is pretended. From its
    // documentation and source (not run here), an adapter would set CBM_CACHE_DIR to ctxgate's data
    // dir (it writes into the repository only with persistence: true, or to refresh a
    // .codebase-memory/ artifact already there), index with `cli index_repository`, and ask
    // search_graph (definitions), trace_path (callers/callees) and query_graph (imports), naming the
    // project as index_repository derived it.
    return { backend, answeredBy: 'builtin', bin, reason: `found at ${bin}, but this version of ctxgate has no adapter for it`, hint: 'use --graph-backend builtin (or codegraph)' };
  }
  if (!codegraphIndexed(runtime, projectRoot)) {
    return { backend, answeredBy: backend, bin, reason: `no .codegraph/ in ${projectRoot}: the built-in index answers until there is one`, hint: `run codegraph init ${projectRoot} (it writes .codegraph/ into the project)` };
  }
  return { backend, answeredBy: backend, bin };
}

export function createGraph(backend: GraphBackend, deps: GraphDeps): GraphAdapter {
  if (backend === 'none') return createNullAdapter('none');
  const builtin = createBuiltinAdapter(deps.code);
  const status = graphBackendStatus(backend, deps.runtime, deps.projectRoot);
  if (backend === 'builtin') return builtin;
  if (status.answeredBy === 'builtin') {
    deps.logger.log('graph_backend_unavailable', { backend, reason: status.reason, hint: status.hint, answeredBy: 'builtin' });
    return builtin;
  }
  return withFallback(createCodegraphAdapter({ ...deps, bin: status.bin! }), builtin, deps.logger);
}
