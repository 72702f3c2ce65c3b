// ctxgate inside another TypeScript/JavaScript host (the Pi coding agent's extension): the same tools,
// called in-process, without MCP. The host lists the tools, calls them, and closes ctxgate when done.
import { type CommonOptions, createAppContext } from '../app/bootstrap.ts';
import { createClientSession } from '../app/context.ts';
import { loadRuntime } from '../runtime/index.ts';
import { selectTools } from '../tools/index.ts';
import { type CallResult, createToolRegistry, type ListedTool } from '../tools/registry.ts';

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

/** The tools as MCP lists them (name, title, description, JSON Schema input), without opening a project. */
export function listTools(tools?: string[]): ListedTool[] {
  return createToolRegistry(selectTools(tools, 'tools')).list();
}

export async function openCtxgate(options: EmbedOptions): Promise<EmbeddedCtxgate> {
  const runtime = await loadRuntime();
  const common: CommonOptions = { projectRoot: options.projectRoot, debug: false, ...(options.tools ? { tools: options.tools } : {}), ...(options.config ? { config: options.config } : {}) };
  const app = createAppContext(runtime, common);
  const registry = createToolRegistry(selectTools(app.config.tools, options.tools ? 'tools' : `${app.configFile ?? 'config'} tools`));
  const session = createClientSession(`embed-${app.processSessionId}`);
  return {
    projectRoot: app.projectRoot,
    tools: registry.list(),
    call(name, args, callOptions = {}) {
      return registry.call(name, args, {
        app,
        session,
        signal: callOptions.signal ?? new AbortController().signal,
        async progress(progress, total, message) {
          callOptions.progress?.(progress, total, message);
        },
      });
    },
    close: () => app.lifecycle.shutdown('host closed ctxgate'),
  };
}
