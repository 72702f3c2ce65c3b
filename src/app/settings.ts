// What the command line, the environment and the config file decide before anything is opened: the
// project root, the config, the workdirs and this process's id. Cheap to load (no indexes,
// databases or workers), so the stdio server lists its tools from it before the app is built.
import type { Config, GraphBackend } from '../config/schema.ts';
import { loadConfig } from '../config/load.ts';
import { resolveProjectRoot, resolveWorkdirs } from '../config/paths.ts';
import type { Runtime } from '../runtime/types.ts';

export interface CommonOptions {
  projectRoot?: string;
  config?: string;
  graphBackend?: GraphBackend;
  /** --tools: which tools to offer (names or groups); overrides the config's `tools`. */
  tools?: string[];
  logFile?: string;
  debug: boolean;
}

export interface AppSettings {
  projectRoot: string;
  config: Config;
  configFile: string | undefined;
  workdirs: string[];
  /** Identifies this server process (logs, usage records, ctx_kb purge scope=session). */
  processSessionId: string;
}

export function loadSettings(runtime: Runtime, options: CommonOptions): AppSettings {
  const projectRoot = resolveProjectRoot(runtime, options.projectRoot);
  const { config, file } = loadConfig(runtime, options.config, projectRoot);
  if (options.graphBackend) config.backend.graph = options.graphBackend;
  if (options.tools) config.tools = options.tools;
  return {
    projectRoot,
    config,
    configFile: file,
    workdirs: resolveWorkdirs(runtime, projectRoot, config.workdirs, file),
    processSessionId: crypto.randomUUID(),
  };
}
