// `ctxgate call TOOL 'JSON'`: one tool call in-process, through the same registry the server uses.
import { createClientSession, type AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';

export async function runCall(app: AppContext, registry: ToolRegistry, tool: string, args: unknown, json: boolean): Promise<number> {
  const controller = new AbortController();
  const stop = app.lifecycle.onShutdown(() => controller.abort());
  const result = await registry.call(tool, args, {
    app,
    session: createClientSession(`cli-${app.processSessionId}`),
    signal: controller.signal,
    async progress(progress, total, message) {
      if (!json) app.runtime.writeStderr(`progress ${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}\n`);
    },
  });
  stop();
  const text = json ? JSON.stringify(result, null, 2) : result.content.map((c) => c.text).join('\n');
  await app.runtime.writeStdout(`${text}\n`);
  return result.isError ? 1 : 0;
}
