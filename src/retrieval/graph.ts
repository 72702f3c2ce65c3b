// Graph backends (codebase-memory-mcp, codegraph, a built-in graph) answer symbol lookups and
// structure questions. None is wired yet: every backend resolves to the NullAdapter, which finds
// nothing, and the dispatcher falls back to the file scan.
import type { GraphBackend } from '../config/schema.ts';
import type { Hit } from './types.ts';

export interface GraphAdapter {
  readonly name: GraphBackend;
  readonly available: boolean;
  searchSymbol(symbol: string): Promise<Hit[]>;
  dispose(): Promise<void>;
}

export function createGraphAdapter(backend: GraphBackend): GraphAdapter {
  return {
    name: backend,
    available: false,
    searchSymbol: async () => [],
    dispose: async () => undefined,
  };
}
