// `ctxgate` with no command: the stdio server MCP clients start, one per session. It answers the
// handshake and tools/list from the settings and the tools' declarations; the app (code index,
// knowledge base, workers, jobs, log) is built right after the list goes out, by a call that comes
// first, or a moment after the handshake when neither comes — so a client waits for module loading
// it needs, not for all of it.
import { readCheckedNote } from '../app/checked-note.ts';
import { compileCachePath, trimCompileCache } from '../app/compile-cache.ts';
import { createDeferredApp, isLastingFailure } from '../app/deferred-app.ts';
import { createRootsFollower } from '../app/roots-follower.ts';
import type { AppContext } from '../app/context.ts';
import { type CommonOptions, loadSettings } from '../app/settings.ts';
import { projectRootNamed } from '../config/paths.ts';
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { createListedRegistry } from '../tools/listed-registry.ts';
import { selectToolNames } from '../tools/names.ts';
import { settlesWithin, sleep } from '../time/within.ts';
import { runStdio, type StdioOptions } from '../transports/stdio.ts';

/** The loading of every tool's code waits this long for a first call to come (clients call right after the list)… */
const HANDLERS_AFTER_MS = 250;
/** …and then at most this long for the calls being answered. */
const HANDLERS_QUIET_WAIT_MS = 10_000;

/**
 * Runs `then` once the handshake is past, no call is being answered, and the warm start (the index
 * checked, its catalogue read: what a first search waits for) is done — each waited for at most
 * HANDLERS_QUIET_WAIT_MS.
 */
async function quietThen<T>(app: AppContext, then: () => Promise<T>): Promise<T> {
  await sleep(HANDLERS_AFTER_MS, { unref: true });
  await settlesWithin(app.code.warmed(), HANDLERS_QUIET_WAIT_MS);
  await app.foreground.quiet(HANDLERS_QUIET_WAIT_MS);
  return then();
}

/** Serves until `stopped` settles (a signal, or stdin closing); returns the exit code. */
export async function serveStdio(runtime: Runtime, common: CommonOptions, stopped: Promise<string>): Promise<number> {
  const settings = await loadSettings(runtime, common);
  const registry = createListedRegistry(selectToolNames(settings.config.tools, common.tools ? '--tools' : `${settings.configFile ?? 'config'} tools`));
  // A project searched before: what a first search waits for (find's lists) starts now, beside the handshake.
  // Without the note of an earlier whole check there is nothing to start: its modules are not even loaded.
  const note = readCheckedNote(runtime, settings.projectRoot);
  const early = note
    ? import('../app/early-check.ts').then(({ startEarlyCheck }) => startEarlyCheck(runtime, settings, note)).catch(() => undefined)
    : Promise.resolve(undefined);
  const deferred = createDeferredApp({
    projectRoot: settings.projectRoot,
    report: (text) => runtime.writeStderr(text),
    build: async () => {
      const [{ createAppContext }, { warmStart }] = await Promise.all([import('../app/bootstrap.ts'), import('../app/warm-start.ts')]);
      const earlyList = await early;
      const built = createAppContext(runtime, common, settings, earlyList ? { earlyList } : {});
      built.logger.log('server_start', { transport: 'stdio', projectRoot: built.projectRoot, workdirs: built.workdirs.dirs, tools: registry.names });
      // An index on disk is checked against the disk now, not at the first search.
      warmStart(built);
      // Load the tools' code now, so that a rebuild or an upgrade replacing it on disk later does not
      // break this session — once the calls being answered are: a first call loads its own tool's
      // code, and compiling all of it meanwhile took a loaded machine's first search ~0.2 s.
      void quietThen(built, () => registry.loadHandlers()).then(async (failures) => {
        for (const error of failures) built.logger.log('handler_load_failed', { error: messageOf(error) });
        built.logger.log('handlers_loaded', { failed: failures.length });
        // Then, in the same quiet: a compile cache grown past its bound is emptied (app/compile-cache.ts).
        if (await trimCompileCache(runtime.fs, compileCachePath(runtime))) built.logger.log('compile_cache_emptied', {});
      }).catch((error: unknown) => built.logger.log('compile_cache_error', { error: messageOf(error) }));
      return built;
    },
  });
  // An index on disk (the note of a check was there): the app — the database's opening, the grep
  // workers' start, ~0.5–1 s on a loaded machine — is built now too, beside the handshake, not after the list.
  void early.then((list) => list && deferred.get().catch(() => undefined));
  // With no project root named, a client's MCP roots decide it (GUI clients do not start in the project).
  const follower = projectRootNamed(runtime, common.projectRoot)
    ? undefined
    : createRootsFollower({ build: deferred.get, common, startRoot: settings.projectRoot, report: (text) => runtime.writeStderr(text) });
  const app = follower?.app ?? deferred.get;
  const roots: StdioOptions = follower ? { onRoots: follower.onRoots } : {};
  // Nothing is logged before the app exists (the log lives in its data dir); a build that fails said so on stderr.
  const log = (event: string, fields: Record<string, unknown>) => void deferred.get().then((built) => built.logger.log(event, fields), () => {});
  const server = await runStdio({ runtime, processSessionId: settings.processSessionId, app, log }, registry, roots);
  const reason = await stopped;
  await server.close();
  const built = await deferred.built();
  if (!built) {
    const failure = deferred.failure();
    // Already written to stderr when it happened; a configuration error exits as it does for every command.
    return !failure ? 0 : isLastingFailure(failure) ? 2 : 1;
  }
  try {
    built.logger.log('server_stop', { reason });
    await built.lifecycle.shutdown(reason);
  } catch (error) {
    runtime.writeStderr(`ctxgate: ${messageOf(error)}\n`);
    return 1;
  }
  return 0;
}
