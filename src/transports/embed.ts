// ctxgate inside another TypeScript/JavaScript host (the Pi coding agent's extension): the same tools,
// called in-process, without MCP. The host lists the tools, calls them, and closes ctxgate when done.
import { type CommonOptions, createAppContext } from '../app/bootstrap.ts';
import { createClientSession } from '../app/context.ts';
import { loadRuntime } from '../runtime/index.ts';
import { selectTools } from '../tools/index.ts';
import { createToolRegistry } from '../tools/registry.ts';
import type { EmbedApi } from './embed-api.ts';

export type { CallOptions, CallResult, EmbedOptions, EmbeddedCtxgate, ListedTool } from './embed-api.ts';

/** The tools as MCP lists them (name, title, description, JSON Schema input), without opening a project. */
export const listTools: EmbedApi['listTools'] = (tools) => createToolRegistry(selectTools(tools, 'tools')).list();

export const openCtxgate: EmbedApi['openCtxgate'] = async (options) => {
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
};
