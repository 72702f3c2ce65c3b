// `ctxgate init`: the files to write so each chosen client starts this ctxgate (and, on request, an
// instructions block and Claude Code hooks). Planning reads only; applying writes what changed.
import * as path from 'node:path';
import { quote } from 'shell-quote';
import type { Runtime } from '../runtime/types.ts';
import { CLIENTS, type ClientId, type ClientSpec, SERVER_NAME, TOKEN_VARIABLE, type Where } from './catalog.ts';
import { preToolUseGroup, sessionStartGroup, withOurGroup } from './hook-settings.ts';
import { upsertBlock } from './instructions.ts';
import { readJsonc, sameJson, setJson, valueAt } from './json-config.ts';
import { type Installation, type Launch, type RuntimeChoice, serverLaunch } from './launch.ts';
import { setTomlTable, tomlTable } from './toml-config.ts';

export interface InitOptions {
  clients: readonly ClientId[];
  runtime: RuntimeChoice;
  /** Point the clients at a running `ctxgate serve` instead of starting ctxgate themselves. */
  http?: string;
  instructions: boolean;
  hooks: boolean;
  projectRoot: string;
  /** Extra arguments for the server (e.g. --tools gate). */
  serverArgs: readonly string[];
}

export interface FileChange {
  file: string;
  /** What this file is for (client label, "instructions", "hooks"). */
  purpose: string;
  before: string;
  after: string;
  existed: boolean;
}

export interface InitPlan {
  /** The stdio command the configs name (undefined with --http). */
  launch?: Launch;
  changes: FileChange[];
  /** What the user does next, one sentence each. */
  steps: string[];
}

function readText(runtime: Runtime, file: string): { text: string; existed: boolean } {
  return runtime.fs.statSync(file)?.isFile ? { text: runtime.fs.readTextFileSync(file), existed: true } : { text: '', existed: false };
}

function serverChange(runtime: Runtime, spec: ClientSpec, where: Where, entry: Record<string, unknown>): FileChange {
  const file = spec.configFile(where);
  const { text, existed } = readText(runtime, file);
  let after = text;
  if (spec.format === 'toml') {
    if (!sameJson(tomlTable(text, file, spec.serversKey, SERVER_NAME), entry)) after = setTomlTable(text, file, spec.serversKey, SERVER_NAME, entry);
  } else {
    readJsonc(text, file);
    if (!sameJson(valueAt(text, [spec.serversKey, SERVER_NAME]), entry)) after = setJson(after, [spec.serversKey, SERVER_NAME], entry);
    const extra = spec.httpExtras;
    if (extra && entry.url !== undefined) {
      const items = valueAt(after, [extra.key]);
      const list = Array.isArray(items) ? items : [];
      if (!list.some((i) => i && typeof i === 'object' && (i as { id?: unknown }).id === extra.item.id)) after = setJson(after, [extra.key], [...list, extra.item]);
    }
  }
  return { file, purpose: spec.label, before: text, after, existed };
}

function hooksChange(runtime: Runtime, projectRoot: string, launch: Launch): FileChange {
  const file = path.join(projectRoot, '.claude', 'settings.local.json');
  const { text, existed } = readText(runtime, file);
  readJsonc(text, file);
  const command = quote([launch.command, ...launch.args]);
  let after = text;
  for (const [event, group] of [
    ['PreToolUse', preToolUseGroup(command)],
    ['SessionStart', sessionStartGroup(command)],
  ] as const) {
    const current = valueAt(after, ['hooks', event]);
    const next = withOurGroup(current, group);
    if (!sameJson(current, next)) after = setJson(after, ['hooks', event], next);
  }
  return { file, purpose: 'Claude Code hooks', before: text, after, existed };
}

export function planInit(runtime: Runtime, installation: Installation, options: InitOptions): InitPlan {
  const where: Where = { projectRoot: options.projectRoot, home: runtime.homeDir(), platform: runtime.platform, env: (n) => runtime.env.get(n) };
  const launch = options.http ? undefined : withArgs(serverLaunch(runtime, installation, options.runtime, { portable: true }), options.serverArgs);
  const changes: FileChange[] = [];
  const steps: string[] = [];
  for (const id of options.clients) {
    const spec = CLIENTS[id];
    const entry = options.http ? spec.httpEntry(options.http) : spec.stdioEntry(launch!, where);
    if (!entry) {
      steps.push(`${spec.label}: skipped — its config file holds only servers it starts itself; run init without --http for it.`);
      continue;
    }
    changes.push(serverChange(runtime, spec, where, entry));
    steps.push(spec.trustStep);
  }
  if (options.http) {
    steps.push(
      `The HTTP entries read the token from ${TOKEN_VARIABLE} (VS Code asks for it): start the server with ${TOKEN_VARIABLE} set, and set the same value where the client starts.`,
    );
  }
  if (options.instructions) {
    const files = [...new Set(options.clients.map((id) => CLIENTS[id].instructionsFile).filter((f): f is string => f !== undefined))];
    for (const name of files) {
      const file = path.join(options.projectRoot, name);
      const { text, existed } = readText(runtime, file);
      changes.push({ file, purpose: 'agent instructions', before: text, after: upsertBlock(text), existed });
    }
  }
  if (options.hooks) {
    if (options.clients.includes('claude-code')) changes.push(hooksChange(runtime, options.projectRoot, serverLaunch(runtime, installation, options.runtime, { portable: false })));
    else steps.push('Hooks: skipped — they are Claude Code hooks; add --client claude-code.');
  }
  return { ...(launch ? { launch } : {}), changes, steps };
}

function withArgs(launch: Launch, extra: readonly string[]): Launch {
  return { command: launch.command, args: [...launch.args, ...extra] };
}

/** Writes every changed file (folders created, an existing file's mode kept). */
export function applyPlan(runtime: Runtime, plan: InitPlan): void {
  for (const change of plan.changes) {
    if (change.after === change.before) continue;
    runtime.fs.mkdirSync(path.dirname(change.file), { recursive: true });
    const mode = runtime.fs.statSync(change.file)?.mode;
    runtime.fs.writeFileAtomicSync(change.file, change.after, mode === undefined ? 0o644 : mode & 0o777);
  }
}
