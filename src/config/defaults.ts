// The configuration when no config file exists: the schema's defaults as a plain object, so that a server
// started without a file neither loads the config parser (yaml) nor runs the schema on an empty object.
// test/config/defaults.test.ts keeps it equal to configSchema.parse({}) (src/config/schema.ts).
import type { Config } from './schema.ts';

/** A fresh copy each call: callers adjust their copy (`--graph-backend`, `--tools`). */
export function defaultConfig(): Config {
  return {
    gates: { maxFiles: 25, maxHits: 120, maxTokens: 6000, minRelevance: 0.35, compoundMargin: 0.15 },
    limits: { maxRefusals: 3, absoluteMaxTokens: 24000 },
    estimation: { charsPerToken: 3.5 },
    scoring: { weights: { kind: 0.3, lexical: 0.25, proximity: 0.2, shape: 0.15, recency: 0.1 } },
    backend: { graph: 'builtin' },
    scan: { excludeDirs: ['node_modules', 'dist', 'build', 'target', '.venv', 'vendor', '.git'], respectGitignore: true },
    storage: { backend: 'sqlite' },
    workdirs: [],
  };
}
