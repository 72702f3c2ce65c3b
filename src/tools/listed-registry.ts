// A registry that answers tools/list from tools/listing.ts and builds the tools' declarations (zod
// schemas, hints, handler loaders) only when it is first asked for more: a stdio server's tool list
// goes out before any schema is built (issue 24: ~25 ms of a start on Deno, ~10 on Node).
import { failureResult } from './call-result.ts';
import { handlerGoneError } from './handler-chunk.ts';
import { TOOL_LISTING } from './listing.ts';
import type { ListedTool, ToolRegistry } from './registry.ts';

/** The registry of the named tools (checked names, tools/names.ts), in the listing's order. */
export function createListedRegistry(names: readonly string[]): ToolRegistry {
  const wanted = new Set(names);
  const listed: ListedTool[] = TOOL_LISTING.filter((t) => wanted.has(t.name));
  let real: Promise<ToolRegistry> | undefined;
  const registry = () =>
    (real ??= Promise.all([import('./index.ts'), import('./registry.ts')]).then(([{ TOOLS }, { createToolRegistry }]) =>
      createToolRegistry(TOOLS.filter((t) => wanted.has(t.name))),
    ));
  return {
    names: listed.map((t) => t.name),
    list: () => listed,
    async call(name, args, ctx) {
      let loaded: ToolRegistry;
      try {
        loaded = await registry();
      } catch (error) {
        // The declarations' module is gone (rebuilt or upgraded under this server): the call says so.
        real = undefined;
        return failureResult(handlerGoneError(error) ?? error);
      }
      return loaded.call(name, args, ctx);
    },
    loadHandlers: async () => (await registry()).loadHandlers(),
    only: (only) => createListedRegistry(listed.map((t) => t.name).filter((n) => only.includes(n))),
  };
}
