// What every tool call can reach: the runtime, the validated config, where things live, the logger.
import type { CodeIndex } from '../code/index.ts';
import type { Config } from '../config/schema.ts';
import type { StorageSettings } from '../config/storage.ts';
import type { JobManager } from '../exec/jobs.ts';
import type { Executor } from '../exec/executor.ts';
import { createFloodState, type FloodState } from '../kb/flood-guard.ts';
import type { KbHandle } from '../kb/open.ts';
import type { UsageRecorder } from '../kb/usage.ts';
import type { Network } from '../net/fetch-url.ts';
import type { Logger } from '../logging/logger.ts';
import { createRefusalCounter, type RefusalCounter } from '../retrieval/refusal-counter.ts';
import type { GraphAdapter } from '../retrieval/graph.ts';
import type { Runtime } from '../runtime/types.ts';
import type { TextIndexReader } from '../textindex/types.ts';
import type { Workdirs } from '../security/resolve-safe.ts';
import type { Foreground } from '../time/foreground.ts';
import type { GrepPool } from '../workspace/grep/grep-pool.ts';
import type { Lifecycle } from './lifecycle.ts';

export interface AppContext {
  runtime: Runtime;
  config: Config;
  configFile: string | undefined;
  /** Where the shared knowledge lives: the SQLite file in the data dir, or a team's Postgres. */
  storage: StorageSettings;
  projectRoot: string;
  workdirs: Workdirs;
  /** Per-project data folder (0700): log, HTTP token, databases. */
  dataDir: string;
  logger: Logger;
  /** Starts every child process (rg, git, ctx_run); ends them all on shutdown. */
  exec: Executor;
  /** Background jobs (ctx_run background, ctx_bg). */
  jobs: JobManager;
  /** How ctx_kb fetch reaches the network (the runtime's DNS and HTTP). */
  net: Network;
  /** The knowledge base, opened on first use. */
  kb: KbHandle;
  /** One record per tool call, written to the knowledge base in batches. */
  usage: UsageRecorder;
  /** The code index (tree-sitter symbols, references, imports), built in the background on first use. */
  code: CodeIndex;
  /** The graph backend the gate tools ask (`backend.graph`), falling back to the file scan. */
  graph: GraphAdapter;
  /** The built-in search engine's workers (read and match files off the main thread). */
  grepPool?: GrepPool;
  /** The code text index (trigrams over the primary workdir): narrows search and locate scans when set. */
  textIndex?: TextIndexReader;
  lifecycle: Lifecycle;
  /** The tool calls being answered: background work waits for them before it starts (see foreground.ts). */
  foreground: Foreground;
  /** Identifies this server process (ctx_kb stats/purge scope=session). */
  processSessionId: string;
  debug: boolean;
}

/** State that lives as long as one MCP client session (stdio: the process; HTTP: the session id). */
export interface ClientSession {
  id: string;
  /** The gate's consecutive refusals (locate, search). */
  refusals: RefusalCounter;
  /** The ctx_kb search flood guard (ctx_kb search, ctx_run batch queries). */
  flood: FloodState;
  /** The team endpoint's user whose token opened the session (none for the server's own token, stdio, the CLI). */
  user?: string;
}

export function createClientSession(id: string, user?: string): ClientSession {
  return { id, refusals: createRefusalCounter(), flood: createFloodState(), ...(user !== undefined ? { user } : {}) };
}
