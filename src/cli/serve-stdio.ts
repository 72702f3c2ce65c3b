// `ctxgate` with no command: the stdio server MCP clients start, one per session. It answers the
// handshake and tools/list from the settings and the tools' declarations; the app (code index,
// knowledge base, workers, jobs, log) is built right after the list goes out, by a call that comes
// first, or a moment after the handshake when neither comes — so a client waits for module loading
// it needs, not for all of it.
import type { AppContext } from '../app/context.ts';
import { followRoots, updateRootWorkdirs } from '../app/roots.ts';
import { type CommonOptions, loadSettings } from '../app/settings.ts';
import { projectRootNamed } from '../config/paths.ts';
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { selectTools } from '../tools/index.ts';
import { createToolRegistry } from '../tools/registry.ts';
import { runStdio, type StdioOptions } from '../transports/stdio.ts';

/** Serves until `stopped` settles (a signal, or stdin closing); returns the exit code. */
export async function serveStdio(runtime: Runtime, common: CommonOptions, stopped: Promise<string>): Promise<number> {
  const settings = loadSettings(runtime, common);
  const registry = createToolRegistry(selectTools(settings.config.tools, common.tools ? '--tools' : `${settings.configFile ?? 'config'} tools`));
  let building: Promise<AppContext> | undefined;
  const app = (): Promise<AppContext> =>
    (building ??= Promise.all([import('../app/bootstrap.ts'), import('../app/warm-start.ts')])
      .then(([{ createAppContext }, { warmStart }]) => {
        const built = createAppContext(runtime, common, settings);
        built.logger.log('server_start', { transport: 'stdio', projectRoot: built.projectRoot, workdirs: built.workdirs.dirs, tools: registry.names });
        // An index on disk is checked against the disk now, not at the first search.
        warmStart(built);
        return built;
      })
      .catch((error: unknown) => {
        // Every call answers with this error too; stderr is where a client shows why the server is of no use.
        runtime.writeStderr(`ctxgate: cannot start serving ${settings.projectRoot}: ${messageOf(error)}\n`);
        throw error;
      }));
  // With no project root named, a client's MCP roots decide it (GUI clients do not start in the project).
  const roots: StdioOptions = projectRootNamed(runtime, common.projectRoot)
    ? {}
    : {
        onRoots: async (folders, first) => {
          const built = await app();
          if (first) await followRoots(built, common, folders);
          else updateRootWorkdirs(built, folders);
        },
      };
  const log = (event: string, fields: Record<string, unknown>) => void app().then((built) => built.logger.log(event, fields));
  const server = await runStdio({ runtime, processSessionId: settings.processSessionId, projectRoot: settings.projectRoot, app, log }, registry, roots);
  const reason = await stopped;
  await server.close();
  if (!building) return 0;
  try {
    const built = await building;
    built.logger.log('server_stop', { reason });
    await built.lifecycle.shutdown(reason);
  } catch (error) {
    runtime.writeStderr(`ctxgate: ${messageOf(error)}\n`);
    return 1;
  }
  return 0;
}
