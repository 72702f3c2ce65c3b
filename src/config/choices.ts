// The closed sets of names the config and the command line accept, without the schema: `--graph-backend`
// is checked at start, before anything needs zod's config schema (src/config/schema.ts builds on these).
export const GRAPH_BACKENDS = ['codebase-memory-mcp', 'codegraph', 'builtin', 'none'] as const;
export type GraphBackend = (typeof GRAPH_BACKENDS)[number];

export const STORAGE_BACKENDS = ['sqlite', 'postgres'] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];
