// `ctxgate doctor`: what this machine offers ctxgate, and what is missing.
import { availableRuntimes } from '../exec/programs.ts';
import type { Language } from '../exec/languages.ts';
import type { AppContext } from '../app/context.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { VERSION } from '../version.ts';

export interface DoctorReport {
  ctxgate: string;
  runtime: { name: string; version: string; platform: string };
  projectRoot: string;
  workdirs: readonly string[];
  configFile: string | null;
  dataDir: string;
  logFile: string | null;
  tools: { names: readonly string[]; listTokens: number };
  commands: Record<string, string | null>;
  /** ctx_run languages and the executable that runs each (null: missing). */
  languages: Record<Language, string | null>;
  warnings: string[];
}

const COMMANDS = ['git', 'rg', 'ctags'] as const;

export function diagnose(app: AppContext, registry: ToolRegistry): DoctorReport {
  const commands: Record<string, string | null> = {};
  for (const c of COMMANDS) commands[c] = app.runtime.which(c) ?? null;
  const warnings: string[] = [];
  if (!commands.git) warnings.push('git is not on PATH: ctx_git cannot work');
  if (!commands.rg) warnings.push('rg (ripgrep) is not on PATH: searches use the slower built-in engine');
  if (!app.runtime.fs.statSync(app.dataDir)?.isDirectory) warnings.push(`data dir ${app.dataDir} is missing: set CTXGATE_DATA_DIR to a writable folder`);
  if (!app.logger.file) warnings.push('file logging is off');
  const languages = availableRuntimes(app.runtime);
  const missing = Object.entries(languages).filter(([, cmd]) => !cmd).map(([lang]) => lang);
  if (missing.length) warnings.push(`ctx_run languages without a runtime here: ${missing.join(', ')}`);
  return {
    ctxgate: VERSION,
    runtime: { name: app.runtime.name, version: app.runtime.version, platform: app.runtime.platform },
    projectRoot: app.projectRoot,
    workdirs: app.workdirs.dirs,
    configFile: app.configFile ?? null,
    dataDir: app.dataDir,
    logFile: app.logger.file ?? null,
    tools: { names: registry.names, listTokens: Math.ceil(JSON.stringify(registry.list()).length / app.config.estimation.charsPerToken) },
    commands,
    languages,
    warnings,
  };
}

export function formatDoctor(r: DoctorReport): string {
  const lines = [
    `ctxgate ${r.ctxgate} on ${r.runtime.name} ${r.runtime.version} (${r.runtime.platform})`,
    `project root  ${r.projectRoot}`,
    `workdirs      ${r.workdirs.join(', ')}`,
    `config        ${r.configFile ?? '(defaults)'}`,
    `data dir      ${r.dataDir}`,
    `log file      ${r.logFile ?? '(off)'}`,
    `tools         ${r.tools.names.length ? r.tools.names.join(', ') : '(none)'} (~${r.tools.listTokens} tokens per tools/list)`,
    ...Object.entries(r.commands).map(([name, where]) => `${name.padEnd(13)} ${where ?? 'not found'}`),
    `languages     ${Object.entries(r.languages).map(([lang, cmd]) => `${lang}${cmd ? '' : ' (missing)'}`).join(', ')}`,
  ];
  if (r.warnings.length) lines.push('', 'warnings:', ...r.warnings.map((w) => `  - ${w}`));
  return lines.join('\n');
}
