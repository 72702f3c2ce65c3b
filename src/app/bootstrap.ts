// Builds the AppContext from CLI options, environment and config file.
import * as path from 'node:path';
import { createGrammars } from '../code/grammars.ts';
import { createCodeIndex } from '../code/index.ts';
import { createParsePool } from '../code/parse-pool.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../code/schema.ts';
import { readConfigFile } from '../config/load.ts';
import { resolveStorageSettings } from '../config/storage.ts';
import { ensurePrivateDir, projectDataDir } from '../config/paths.ts';
import { messageOf } from '../errors.ts';
import { JobManager } from '../exec/jobs.ts';
import { createExecutor } from '../exec/executor.ts';
import { createProcessTracker } from '../exec/tracker.ts';
import { createKbHandle, createPostgresKbHandle, kbDatabaseFile } from '../kb/open.ts';
import { sharedPathsRoot } from '../vcs/project-key.ts';
import { checkoutOrigin, projectKeyOf } from './project-key.ts';
import { createUsageRecorder } from '../kb/usage.ts';
import { runtimeNetwork } from '../net/fetch-url.ts';
import { createLogger } from '../logging/logger.ts';
import { createGraph } from '../retrieval/graph-backends.ts';
import type { Runtime } from '../runtime/types.ts';
import { openDatabase } from '../storage/database.ts';
import type { AppContext } from './context.ts';
import { createForeground } from '../time/foreground.ts';
import { createLifecycle } from './lifecycle.ts';
import { createGrepPool } from '../workspace/grep/grep-pool.ts';
import { createWatchedTextIndex } from './text-index.ts';
import { createChangedSince } from '../workspace/changed-since.ts';
import { createSecretNameLister } from '../workspace/secret-names.ts';
import { listSecretNamesWith } from '../security/secret-identities.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { createFilesNaming } from './files-naming.ts';
import { catalogueSnapshot } from '../textindex/catalogue-snapshot.ts';
import { checkedNote, checkedNoteFile } from './checked-note.ts';
import type { EarlyList } from './early-check.ts';
import { type AppSettings, type CommonOptions, readSettings } from './settings.ts';

export type { CommonOptions } from './settings.ts';

/** The longest background work waits for the calls being answered before it starts anyway. */
const QUIET_WAIT_MAX_MS = 30_000;

/** CTXGATE_PARSE_WORKERS / CTXGATE_GREP_WORKERS: how many workers (0: the main thread); default from the processors. */
function workersFromEnv(runtime: Runtime, name: string): number | undefined {
  const n = Number.parseInt(runtime.env.get(name) ?? '', 10);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 16) : undefined;
}

/** What a server began before its app was built. */
export interface AppStart {
  /** find's list of what changed since the last whole check (app/early-check.ts). */
  earlyList?: EarlyList;
}

/** The app: settings as given (the stdio server loads them first), else read from the options. */
export function createAppContext(runtime: Runtime, options: CommonOptions, settings: AppSettings = readSettings(runtime, options, readConfigFile), start: AppStart = {}): AppContext {
  const { projectRoot, config, configFile: file, processSessionId } = settings;
  const storage = resolveStorageSettings(runtime, config.storage);
  if (storage.backend === 'sqlite' && storage.warning) runtime.writeStderr(`${storage.warning}\n`);
  const dataDir = projectDataDir(runtime, projectRoot);
  const workdirs = { dirs: [...settings.workdirs] };
  let dataDirUsable = true;
  try {
    ensurePrivateDir(runtime, dataDir);
  } catch (error) {
    dataDirUsable = false;
    runtime.writeStderr(`ctxgate: data dir ${dataDir} cannot be created (${messageOf(error)}); set CTXGATE_DATA_DIR to a writable folder\n`);
  }
  const explicitLog = options.logFile ?? runtime.env.get('CTXGATE_LOG_FILE');
  const logFile = explicitLog ? path.resolve(runtime.cwd(), explicitLog) : dataDirUsable ? path.join(dataDir, 'ctxgate.log') : undefined;
  const logger = createLogger(runtime, { file: logFile, debug: options.debug });
  const lifecycle = createLifecycle({ onError: (error) => logger.log('shutdown_error', { error: messageOf(error) }) });
  lifecycle.onShutdown(() => logger.close());
  // Registered before the executor and jobs: shutdown hooks run newest first, so it closes after them.
  const procs = createProcessTracker(runtime, { sessionId: processSessionId, dataDir: dataDirUsable ? dataDir : undefined, logger });
  lifecycle.onShutdown(() => procs.close());
  procs.sweepDeadServers();
  const exec = createExecutor(runtime, procs);
  lifecycle.onShutdown(() => exec.killAll());
  // The secret identities' walk by find, in a process of its own (until this app shuts down).
  const secretNames = createSecretNameLister({ runtime, exec });
  listSecretNamesWith(secretNames);
  lifecycle.onShutdown(() => {
    const current = listSecretNamesWith(undefined);
    if (current !== secretNames) listSecretNamesWith(current);
  });
  const kb =
    storage.backend === 'postgres'
      ? createPostgresKbHandle({
          url: storage.url,
          projectKey: () => projectKeyOf({ storage, runtime, exec, projectRoot }),
          sessionId: processSessionId,
          origin: checkoutOrigin(runtime, projectRoot),
          pathsRoot: () => sharedPathsRoot({ runtime, exec }, projectRoot),
        })
      : createKbHandle(runtime, kbDatabaseFile(runtime, dataDir), processSessionId, logger);
  lifecycle.onShutdown(() => kb.close());
  const usage = createUsageRecorder(kb, { onError: (error) => logger.log('usage_write_failed', { error: messageOf(error) }) });
  lifecycle.onShutdown(() => usage.flush());
  const grammars = createGrammars(runtime);
  // Registered before the code index: shutdown hooks run newest first, so the index stops before its parser.
  const parser = createParsePool(runtime, grammars, { workers: workersFromEnv(runtime, 'CTXGATE_PARSE_WORKERS'), onEvent: (event, fields) => logger.log(event, fields) });
  lifecycle.onShutdown(() => parser.close());
  const grepPool = createGrepPool(runtime, { workers: workersFromEnv(runtime, 'CTXGATE_GREP_WORKERS'), onEvent: (event, fields) => logger.log(event, { ...fields, pool: 'grep' }) });
  lifecycle.onShutdown(() => grepPool.close());
  const foreground = createForeground();
  // Background work waits this long at most for the calls being answered (a long ctx_run must not hold it off).
  const whenQuiet = () => foreground.quiet(QUIET_WAIT_MAX_MS);
  const code = createCodeIndex({
    fs: runtime.fs,
    whenQuiet,
    // `git ls-files` lists the catalogue in a repository (the walk otherwise).
    git: { runtime, exec },
    grammars,
    parser,
    onBulkPass: () => runtime.beginBulkWork?.(),
    logger,
    workdirs,
    root: projectRoot,
    scan: config.scan,
    // Before the first build is done, an answer about a name parses the files that name it.
    filesNaming: createFilesNaming({ runtime, exec, workdirs, grepPool, root: projectRoot, excludeDirs: config.scan.excludeDirs }),
    // A warm start checks what changed since the index was last confirmed (find lists it) instead of every file.
    changedSince: createChangedSince({ runtime, exec, root: projectRoot, skipDirs: [...UNENTERED_DIRS, ...config.scan.excludeDirs] }),
    databaseExists: () => runtime.fs.statSync(path.join(dataDir, 'code.db'))?.isFile === true,
    checkedNote: checkedNote(runtime, checkedNoteFile(dataDir)),
    catalogueSnapshot: catalogueSnapshot(runtime.fs, path.join(dataDir, 'code.db-catalogue')),
    ...(start.earlyList?.root === projectRoot ? { earlyList: start.earlyList } : {}),
    openDatabase: async () => {
      runtime.fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      return openDatabase(runtime, path.join(dataDir, 'code.db'), { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS, logger });
    },
  });
  lifecycle.onShutdown(() => code.close());
  const textIndex = createWatchedTextIndex({ runtime, logger, code, root: projectRoot, excludeDirs: config.scan.excludeDirs, dataDir, whenQuiet });
  lifecycle.onShutdown(() => textIndex.close());
  const graph = createGraph(config.backend.graph, { runtime, exec, logger, projectRoot, code });
  lifecycle.onShutdown(() => graph.dispose());
  const jobs = new JobManager(runtime, path.join(dataDir, 'jobs', processSessionId), procs);
  lifecycle.onShutdown(() => jobs.stopAll());
  return {
    runtime,
    config,
    configFile: file,
    storage,
    projectRoot,
    workdirs,
    dataDir,
    logger,
    exec,
    jobs,
    net: runtimeNetwork(runtime),
    kb,
    usage,
    code,
    textIndex,
    grepPool,
    graph,
    lifecycle,
    foreground,
    processSessionId,
    debug: options.debug,
  };
}
