// The config file's schema: the gate spec's full schema (gates, limits, estimation, scoring, backend,
// scan) plus ctxmode's `workdirs`. Every field is optional and defaults to the spec's value; unknown
// keys are refused so that a typo never silently does nothing.
import { z } from 'zod';
import { GRAPH_BACKENDS, STORAGE_BACKENDS } from './choices.ts';

export { GRAPH_BACKENDS, type GraphBackend, STORAGE_BACKENDS, type StorageBackend } from './choices.ts';

const ratio = z.number().min(0).max(1);
const positiveInt = z.number().int().positive();

const gates = z
  .strictObject({
    maxFiles: positiveInt.default(25),
    maxHits: positiveInt.default(120),
    maxTokens: positiveInt.default(6000),
    minRelevance: ratio.default(0.35),
    compoundMargin: ratio.default(0.15),
  })
  .prefault({});

const limits = z
  .strictObject({
    maxRefusals: z.number().int().min(0).default(3),
    absoluteMaxTokens: positiveInt.default(24000),
  })
  .prefault({});

const estimation = z.strictObject({ charsPerToken: z.number().positive().default(3.5) }).prefault({});

const weights = z
  .strictObject({
    kind: ratio.default(0.3),
    lexical: ratio.default(0.25),
    proximity: ratio.default(0.2),
    shape: ratio.default(0.15),
    recency: ratio.default(0.1),
  })
  .prefault({});

const scoring = z.strictObject({ weights }).prefault({});

const backend = z.strictObject({ graph: z.enum(GRAPH_BACKENDS).default('builtin') }).prefault({});

const scan = z
  .strictObject({
    excludeDirs: z.array(z.string().min(1)).default(['node_modules', 'dist', 'build', 'target', '.venv', 'vendor', '.git']),
    respectGitignore: z.boolean().default(true),
  })
  .prefault({});

/**
 * Where the shared knowledge lives: the embedded SQLite file (one machine) or a Postgres database a
 * team shares. The URL may also come from CTXGATE_DATABASE_URL (config/storage.ts checks the pair).
 */
const storage = z
  .strictObject({
    backend: z.enum(STORAGE_BACKENDS).default('sqlite'),
    url: z.string().min(1).optional(),
    /** The namespace of this project's rows on Postgres (default: the repository's normalised remote URL). */
    projectKey: z.string().trim().min(1).max(500).optional(),
  })
  .prefault({});

export const configSchema = z.strictObject({
  gates,
  limits,
  estimation,
  scoring,
  backend,
  scan,
  storage,
  workdirs: z.array(z.string().min(1)).default([]),
  /** Tools to offer: names or the groups `gate` / `context` (default: all nine). Checked against the registry. */
  tools: z.array(z.string().min(1)).min(1).optional(),
});

export type Config = z.infer<typeof configSchema>;
