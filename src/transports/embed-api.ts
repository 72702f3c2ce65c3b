// The embedded API's types (src/transports/embed.ts implements them): what a host that loads the
// bundle (dist/embed.mjs) programs against. Types only, from a few small modules, so that a host's
// type check (integrations/pi) reads these lines and not the whole app behind them.
import type { CallResult } from '../tools/call-result.ts';
import type { ListedTool } from '../tools/listed-tool.ts';

export type { CallResult, ListedTool };

export interface EmbedOptions {
  /** The project to serve (the host's working folder). */
  projectRoot: string;
  /** Tool names or groups (gate, context, all); default: the config's `tools`, else all. */
  tools?: string[];
  /** A config file; default: the usual search from the project root. */
  config?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  progress?: (progress: number, total: number | undefined, message: string | undefined) => void;
}

export interface EmbeddedCtxgate {
  readonly projectRoot: string;
  readonly tools: ListedTool[];
  call(name: string, args: unknown, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/** What dist/embed.mjs exports. */
export interface EmbedApi {
  /** The tools as MCP lists them (name, title, description, JSON Schema input), without opening a project. */
  listTools(tools?: string[]): ListedTool[];
  /** Opens ctxgate on a project; close it when done. */
  openCtxgate(options: EmbedOptions): Promise<EmbeddedCtxgate>;
}
