// What the command line, the environment and the config file decide before anything is opened: the
// project root, the config, the workdirs and this process's id. Cheap to load (no indexes,
// databases or workers), so the stdio server lists its tools from it before the app is built; the
// config parser (yaml, zod's config schema) is loaded only when a config file exists.
import type { GraphBackend } from '../config/choices.ts';
import { defaultConfig } from '../config/defaults.ts';
import { findConfigFile } from '../config/find.ts';
import { resolveProjectRoot, resolveWorkdirs } from '../config/paths.ts';
import type { Config } from '../config/schema.ts';
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

/** Reads and validates a config file (src/config/load.ts's readConfigFile). */
export type ConfigReader = (runtime: Runtime, file: string) => Config;

/** The project root, and the config file that applies there (undefined: none, the defaults apply). */
function findSource(runtime: Runtime, options: CommonOptions): { projectRoot: string; file: string | undefined } {
  const projectRoot = resolveProjectRoot(runtime, options.projectRoot);
  return { projectRoot, file: findConfigFile(runtime, options.config, projectRoot) };
}

function settingsFrom(runtime: Runtime, options: CommonOptions, projectRoot: string, file: string | undefined, config: Config): AppSettings {
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

/** The settings, with `read` reading the config file if one applies. */
export function readSettings(runtime: Runtime, options: CommonOptions, read: ConfigReader): AppSettings {
  const { projectRoot, file } = findSource(runtime, options);
  return settingsFrom(runtime, options, projectRoot, file, file ? read(runtime, file) : defaultConfig());
}

/** readSettings for the stdio server's start: the config parser is imported only when there is a file to read. */
export async function loadSettings(runtime: Runtime, options: CommonOptions): Promise<AppSettings> {
  const { projectRoot, file } = findSource(runtime, options);
  const config = file ? (await import('../config/load.ts')).readConfigFile(runtime, file) : defaultConfig();
  return settingsFrom(runtime, options, projectRoot, file, config);
}
