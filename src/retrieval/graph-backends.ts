// Which graph backend answers: `builtin` (ctxgate's code index), `none` (file scans only), or an
// external program — `codegraph`, `codebase-memory-mcp` — wrapped so that a missing, slow or
// crashing one falls back to the built-in index with a logged event, never a failed call.
import type { CodeIndex } from '../code/index.ts';
import type { GraphBackend } from '../config/schema.ts';
import type { Executor } from '../exec/executor.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { createBuiltinAdapter, createNullAdapter, type GraphAdapter, withFallback } from './graph.ts';
import { createCodegraphAdapter } from './graph-codegraph.ts';

export interface GraphDeps {
  runtime: Runtime;
  exec: Executor;
  logger: Logger;
  projectRoot: string;
  code: CodeIndex;
}

/** An external backend that is not installed: it never answers, so the fallback always does. */
function missing(name: GraphBackend, logger: Logger, why: string): GraphAdapter {
  logger.log('graph_backend_unavailable', { backend: name, reason: why });
  return createNullAdapter(name);
}

export function createGraph(backend: GraphBackend, deps: GraphDeps): GraphAdapter {
  if (backend === 'none') return createNullAdapter('none');
  const builtin = createBuiltinAdapter(deps.code);
  if (backend === 'builtin') return builtin;
  if (backend === 'codebase-memory-mcp') {
    const bin = deps.runtime.which('codebase-memory-mcp');
    return withFallback(bin ? missing(backend, deps.logger, `found at ${bin}, but its answers are not mapped yet`) : missing(backend, deps.logger, 'codebase-memory-mcp is not on PATH'), builtin, deps.logger);
  }
  return withFallback(createCodegraphAdapter(deps), builtin, deps.logger);
}
