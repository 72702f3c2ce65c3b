// `ctxgate init`: configure MCP clients to start this ctxgate, print what changed (or, with
// --dry-run, the diff) and what the user still has to do in each client.
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ClientId } from '../clients/catalog.ts';
import { applyPlan, type FileChange, planInit } from '../clients/init.ts';
import { findInstallation, type LauncherChoice, type RuntimeChoice } from '../clients/launch.ts';
import { projectDataDir, resolveProjectRoot } from '../config/paths.ts';
import type { Runtime } from '../runtime/types.ts';
import { selectToolNames } from '../tools/names.ts';
import { checkLaunch } from './launch-check.ts';

export interface InitCommand {
  projectRoot?: string;
  clients: readonly ClientId[];
  runtime?: RuntimeChoice;
  launcher?: LauncherChoice;
  /** Start the written command and list its tools (not with --dry-run or --http). */
  check: boolean;
  http?: string;
  dryRun: boolean;
  instructions: boolean;
  hooks: boolean;
  /** Keep an existing entry's code-loading launch settings (NODE_OPTIONS, LD_PRELOAD, …). */
  keepEnv?: boolean;
  /** Passed on to the server the clients start. */
  config?: string;
  graphBackend?: string;
  tools?: readonly string[];
}

/** The options the configured server should start with (a config file by absolute path). */
function serverArgs(runtime: Runtime, command: InitCommand): string[] {
  const args: string[] = [];
  if (command.config) args.push('--config', path.resolve(runtime.cwd(), command.config));
  if (command.graphBackend) args.push('--graph-backend', command.graphBackend);
  if (command.tools) args.push('--tools', command.tools.join(','));
  return args;
}

function shown(projectRoot: string, file: string): string {
  const rel = path.relative(projectRoot, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

function outcome(change: FileChange): string {
  if (change.after === change.before) return 'unchanged';
  return change.existed ? 'updated' : 'created';
}

/** The report `ctxgate init` prints (with dryRun, unified diffs of what would change) and its exit code. */
export async function runInit(runtime: Runtime, command: InitCommand): Promise<{ text: string; code: number }> {
  if (command.tools) selectToolNames(command.tools, '--tools'); // a typo fails here, not when the client starts the server
  const projectRoot = resolveProjectRoot(runtime, command.projectRoot);
  const installation = findInstallation(runtime.fs, runtime.mainScript);
  const plan = planInit(runtime, installation, {
    clients: command.clients,
    runtime: command.runtime ?? runtime.name,
    ...(command.launcher ? { launcher: command.launcher } : {}),
    ...(command.http ? { http: command.http } : {}),
    instructions: command.instructions,
    hooks: command.hooks,
    projectRoot,
    serverArgs: serverArgs(runtime, command),
    keepEnv: command.keepEnv === true,
  });
  const lines: string[] = [`ctxgate init for ${projectRoot}`];
  lines.push(plan.launch ? `server: ${[plan.launch.command, ...plan.launch.args].join(' ')}` : `server: ${command.http} (HTTP)`);
  if (command.dryRun) {
    for (const change of plan.changes) {
      if (change.after === change.before) continue;
      const name = shown(projectRoot, change.file);
      const [a, b] = path.isAbsolute(name) ? [name, name] : [`a/${name}`, `b/${name}`];
      lines.push('', createTwoFilesPatch(change.existed ? a : '/dev/null', b, change.before, change.after, '', '', { context: 3 }).replace(/^=+\n/, '').trimEnd());
    }
    lines.push('', `dry run: nothing written (${plan.changes.filter((c) => c.after !== c.before).length} file(s) would change)`);
  } else {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const saved = applyPlan(runtime, plan, { projectRoot, backupDir: path.join(projectDataDir(runtime, projectRoot), 'init-backups', stamp) });
    const width = Math.max(...plan.changes.map((c) => c.purpose.length), 0);
    for (const change of plan.changes) lines.push(`  ${change.purpose.padEnd(width)}  ${shown(projectRoot, change.file)}  ${outcome(change)}`);
    if (saved) lines.push(`previous versions of the updated files: ${saved}`);
  }
  for (const change of plan.changes) {
    if (!change.kept) continue;
    lines.push('', `kept from the ctxgate entry already in ${shown(projectRoot, change.file)} (the client starts ctxgate with these):`);
    for (const k of change.kept) lines.push(`  ${k.shown}${k.suspicious ? `  — kept with --keep-env: ${k.suspicious}` : ''}`);
  }
  let code = 0;
  if (plan.launch && command.check && !command.dryRun) {
    const checked = await checkLaunch(runtime, plan.launch, projectRoot);
    lines.push(checked.ok ? `check: ${checked.text}` : `check FAILED: ${checked.text}`);
    if (!checked.ok) code = 1;
  }
  if (plan.steps.length) lines.push('', 'next:', ...plan.steps.map((s) => `  - ${s}`));
  return { text: lines.join('\n'), code };
}
