// A tool's work lives in its handler module, imported on the first call (the Node bundle: a chunk in
// dist/chunks/ whose name carries a content hash). Rebuilding or upgrading ctxgate replaces those files
// under a running server, whose next first import of a handler then finds nothing: say so, and what to do.
import { AppError, ErrorCode } from '../errors.ts';

/** The handler module `load` imports; a module that is gone becomes an error saying to restart the server. */
export async function loadHandler<M>(load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (error) {
    throw handlerGoneError(error) ?? error;
  }
}

/** The error for an import that failed because the module's file is gone (Node and Deno say so alike), or undefined. */
export function handlerGoneError(error: unknown): AppError | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  // Node: Cannot find module '/…/x.mjs' imported from …; Deno: Module not found "file:///…/x.mjs".
  const quoted = /['"]([^'"]+)['"]/.exec(error.message)?.[1];
  const file = quoted?.startsWith('file://') ? decodeURIComponent(new URL(quoted).pathname) : quoted;
  return new AppError(ErrorCode.Unavailable, `ctxgate was rebuilt or upgraded while this session ran (${file ?? 'a module it loads'} is gone)`, {
    cause: error,
    hint: 'restart the MCP server — in Claude Code: /mcp → reconnect',
  });
}
