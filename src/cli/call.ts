// `ctxgate call TOOL 'JSON'`: one tool call in-process, through the same registry the server uses.
// A call that reads code answers from the code index: on a project small enough to index in seconds
// it is built first (progress on stderr); on a bigger one the answer comes first, and says so.
import { createClientSession, type AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';

/** The tools whose answers rest on the code index. */
const CODE_TOOLS = new Set(['read', 'locate', 'search', 'explore']);
/** Up to this many files, the code index is built before the call (seconds on this kind of project). */
export const SMALL_PROJECT_FILES = 5000;
const PROGRESS_EVERY_MS = 1000;

/** Builds the code index first when it is not and the project is small; whether the answer comes before it is complete. */
async function indexFirst(app: AppContext): Promise<{ incomplete: boolean }> {
  if (await app.code.ready()) return { incomplete: false };
  const files = await app.code.filesUpTo(SMALL_PROJECT_FILES);
  if (files > SMALL_PROJECT_FILES) return { incomplete: true };
  const started = Date.now();
  app.runtime.writeStderr(`ctxgate: building the code index first (${files} files)\n`);
  const timer = setInterval(() => {
    const s = app.code.status();
    if (s.total) app.runtime.writeStderr(`ctxgate: code index ${s.done} of ${s.total} files\n`);
  }, PROGRESS_EVERY_MS);
  try {
    await app.code.refresh();
  } finally {
    clearInterval(timer);
  }
  const ready = (await app.code.ready()) !== undefined;
  app.runtime.writeStderr(ready ? `ctxgate: code index built in ${((Date.now() - started) / 1000).toFixed(1)} s\n` : `ctxgate: the code index could not be built (${app.code.status().error ?? app.code.status().state})\n`);
  return { incomplete: !ready };
}

export async function runCall(app: AppContext, registry: ToolRegistry, tool: string, args: unknown, json: boolean): Promise<number> {
  const controller = new AbortController();
  const stop = app.lifecycle.onShutdown(() => controller.abort());
  const { incomplete } = CODE_TOOLS.has(tool) ? await indexFirst(app) : { incomplete: false };
  const result = await registry.call(tool, args, {
    app,
    session: createClientSession(`cli-${app.processSessionId}`),
    signal: controller.signal,
    async progress(progress, total, message) {
      if (!json) app.runtime.writeStderr(`progress ${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}\n`);
    },
  });
  stop();
  if (incomplete) app.runtime.writeStderr(`ctxgate: answered before the code index was complete (over ${SMALL_PROJECT_FILES} files: a running server builds it in the background, and answers from it)\n`);
  const text = json ? JSON.stringify(result, null, 2) : result.content.map((c) => c.text).join('\n');
  await app.runtime.writeStdout(`${text}\n`);
  return result.isError ? 1 : 0;
}
