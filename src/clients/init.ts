// `ctxgate init`: the files to write so each chosen client starts this ctxgate (and, on request, an
// instructions block and Claude Code hooks). Planning reads only; applying writes what changed.
import * as path from 'node:path';
import { quote } from 'shell-quote';
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { isInside, realpathLoose } from '../security/resolve-safe.ts';
import { CLIENTS, type ClientId, type ClientSpec, SERVER_NAME, TOKEN_VARIABLE, type Where } from './catalog.ts';
import { preToolUseGroup, sessionStartGroup, withOurGroup } from './hook-settings.ts';
import { upsertBlock } from './instructions.ts';
import { readJsonc, sameJson, setJson, valueAt } from './json-config.ts';
import { type KeptSetting, keptLaunchSettings } from './kept-settings.ts';
import { type Installation, type Launch, type LauncherChoice, type RuntimeChoice, serverLaunch } from './launch.ts';
import { setTomlTable, tomlTable } from './toml-config.ts';

export interface InitOptions {
  clients: readonly ClientId[];
  runtime: RuntimeChoice;
  /** How the configs start ctxgate: this copy by path (default), or the published package through npx. */
  launcher?: LauncherChoice;
  /** Point the clients at a running `ctxgate serve` instead of starting ctxgate themselves. */
  http?: string;
  instructions: boolean;
  hooks: boolean;
  projectRoot: string;
  /** Extra arguments for the server (e.g. --tools gate). */
  serverArgs: readonly string[];
  /** Keep launch settings of an existing entry that load code (NODE_OPTIONS, LD_PRELOAD, …). */
  keepEnv?: boolean;
}

export interface FileChange {
  file: string;
  /** What this file is for (client label, "instructions", "hooks"). */
  purpose: string;
  before: string;
  after: string;
  existed: boolean;
  /** Where the change is written: the file a symbolic link names, else `file`. */
  target: string;
  /** Launch settings kept from the entry already there (env, envFile …), for the report. */
  kept?: KeptSetting[];
}

export interface InitPlan {
  /** The stdio command the configs name (undefined with --http). */
  launch?: Launch;
  changes: FileChange[];
  /** What the user does next, one sentence each. */
  steps: string[];
}

interface Existing {
  text: string;
  existed: boolean;
  target: string;
}

/**
 * A file as it is now, and where a change to it goes: through a symbolic link (CLAUDE.md -> AGENTS.md)
 * to the file it names, so the link stays a link — but only while that file lies inside `within`
 * (the project, or the client's own config folder): a repository's `CLAUDE.md -> ~/.bashrc` must not
 * get a block appended to the user's shell start-up (issue 23.8). Links in the folders on the way count too.
 */
function readExisting(runtime: Runtime, file: string, within: string): Existing {
  const link = runtime.fs.lstatSync(file);
  let { real } = realpathLoose(runtime.fs, file);
  // A link to a file not there yet is judged where it points (one step), so the right error follows.
  if (link?.isSymbolicLink && real.startsWith('\0')) real = realpathLoose(runtime.fs, path.resolve(path.dirname(file), runtime.fs.readlinkSync(file))).real;
  const folder = realpathLoose(runtime.fs, within).real;
  if (!isInside(folder, real)) {
    const how = link?.isSymbolicLink ? `is a symbolic link to ${runtime.fs.readlinkSync(file)}` : 'lies in a folder that is a symbolic link';
    throw new AppError(ErrorCode.Config, `${file} ${how}, which leads to ${real.startsWith('\0') ? 'a link that goes nowhere' : real}, outside ${within}; ctxgate init does not write through it`, {
      hint: `replace the link with a regular file (or make the change by hand after looking at it with --dry-run), then run ctxgate init again`,
    });
  }
  if (!link) return { text: '', existed: false, target: real };
  const stat = runtime.fs.statSync(file);
  if (!stat) {
    throw new AppError(ErrorCode.Config, `${file} is a symbolic link to ${runtime.fs.readlinkSync(file)}, which does not exist`, {
      hint: 'create the file it names (or remove the link), then run ctxgate init again',
    });
  }
  if (!stat.isFile) throw new AppError(ErrorCode.Config, `${file} is not a regular file`, { hint: 'move it aside, then run ctxgate init again' });
  return { text: runtime.fs.readTextFileSync(file), existed: true, target: real };
}

/** A list where the user's file has one, or nothing; anything else there is theirs to fix, not ours to replace. */
function listAt(text: string, file: string, jsonPath: string[]): unknown[] | undefined {
  const value = valueAt(text, jsonPath);
  if (value === undefined || Array.isArray(value)) return value;
  throw new AppError(ErrorCode.Config, `${file}: "${jsonPath.join('.')}" holds ${value === null ? 'null' : `a ${typeof value}`} where a list belongs`, {
    hint: 'fix the file (or move it aside), then run ctxgate init again',
  });
}

/** The keys that say how a client reaches the server: ours to write. Every other key of the entry is the user's. */
const TRANSPORT_KEYS = new Set(['type', 'command', 'args', 'cwd', 'url', 'httpUrl', 'headers', 'bearer_token_env_var']);

/** Our entry, keeping what the user added to the one already there (env, timeouts, disabled, tool filters …). */
function withUserSettings(current: unknown, entry: Record<string, unknown>): Record<string, unknown> {
  if (!current || typeof current !== 'object' || Array.isArray(current)) return entry;
  const kept = Object.entries(current).filter(([key]) => !TRANSPORT_KEYS.has(key) && !(key in entry));
  return kept.length ? { ...entry, ...Object.fromEntries(kept) } : entry;
}

function serverChange(runtime: Runtime, spec: ClientSpec, where: Where, ours: Record<string, unknown>): FileChange {
  const file = spec.configFile(where);
  // A project config stays in the project; a client's own config stays in its folder.
  const { text, existed, target } = readExisting(runtime, file, spec.global ? path.dirname(file) : where.projectRoot);
  let after = text;
  let entry: Record<string, unknown>;
  if (spec.format === 'toml') {
    const current = tomlTable(text, file, spec.serversKey, SERVER_NAME);
    entry = withUserSettings(current, ours);
    if (!sameJson(current, entry)) after = setTomlTable(text, file, spec.serversKey, SERVER_NAME, entry);
  } else {
    readJsonc(text, file);
    const current = valueAt(text, [spec.serversKey, SERVER_NAME]);
    entry = withUserSettings(current, ours);
    if (!sameJson(current, entry)) after = setJson(after, file, [spec.serversKey, SERVER_NAME], entry);
    const extra = spec.httpExtras;
    if (extra && entry.url !== undefined) {
      const list = listAt(after, file, [extra.key]) ?? [];
      if (!list.some((i) => i && typeof i === 'object' && (i as { id?: unknown }).id === extra.item.id)) after = setJson(after, file, [extra.key], [...list, extra.item]);
    }
  }
  const kept = keptLaunchSettings(entry);
  return { file, purpose: spec.label, before: text, after, existed, target, ...(kept.length ? { kept } : {}) };
}

function hooksChange(runtime: Runtime, projectRoot: string, launch: Launch): FileChange {
  const file = path.join(projectRoot, '.claude', 'settings.local.json');
  const { text, existed, target } = readExisting(runtime, file, projectRoot);
  readJsonc(text, file);
  const command = quote([launch.command, ...launch.args]);
  let after = text;
  for (const [event, group] of [
    ['PreToolUse', preToolUseGroup(command)],
    ['SessionStart', sessionStartGroup(command)],
  ] as const) {
    const current = listAt(after, file, ['hooks', event]);
    const next = withOurGroup(current, group);
    if (!sameJson(current, next)) after = setJson(after, file, ['hooks', event], next);
  }
  return { file, purpose: 'Claude Code hooks', before: text, after, existed, target };
}

export function planInit(runtime: Runtime, installation: Installation, options: InitOptions): InitPlan {
  const where: Where = { projectRoot: options.projectRoot, home: runtime.homeDir(), platform: runtime.platform, env: (n) => runtime.env.get(n) };
  const launch = options.http ? undefined : withArgs(serverLaunch(runtime, installation, options.runtime, options.launcher), options.serverArgs);
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
      const { text, existed, target } = readExisting(runtime, file, options.projectRoot);
      changes.push({ file, purpose: 'agent instructions', before: text, after: upsertBlock(text, file), existed, target });
    }
  }
  if (options.hooks) {
    if (options.clients.includes('claude-code')) changes.push(hooksChange(runtime, options.projectRoot, serverLaunch(runtime, installation, options.runtime, options.launcher)));
    else steps.push('Hooks: skipped — they are Claude Code hooks; add --client claude-code.');
  }
  if (!options.keepEnv) refuseCodeLoading(changes);
  return { ...(launch ? { launch } : {}), changes, steps };
}

/** An entry already there whose launch settings would load code into ctxgate: named, nothing written. */
function refuseCodeLoading(changes: readonly FileChange[]): void {
  const found = changes.flatMap((c) => (c.kept ?? []).filter((k) => k.suspicious).map((k) => `${c.file}: ${k.shown} (${k.suspicious})`));
  if (!found.length) return;
  throw new AppError(ErrorCode.Config, `the ctxgate entry already there has launch settings that would run code when the client starts ctxgate, so nothing was written:\n  ${found.join('\n  ')}`, {
    hint: 'remove them from the entry (a cloned repository may have put them there), or pass --keep-env if you set them yourself',
  });
}

function withArgs(launch: Launch, extra: readonly string[]): Launch {
  return { command: launch.command, args: [...launch.args, ...extra] };
}

/** Why the plan cannot be written, checked before anything is: nothing is then half done. */
function checkWritable(runtime: Runtime, changes: readonly FileChange[]): void {
  const byTarget = new Map<string, FileChange>();
  for (const change of changes) {
    // The folder it goes in, or the nearest one that exists, must be a folder (`.cursor` can be a file).
    for (let dir = path.dirname(change.target); ; dir = path.dirname(dir)) {
      const stat = runtime.fs.statSync(dir);
      if (stat && !stat.isDirectory) {
        throw new AppError(ErrorCode.Config, `${change.file} cannot be written: ${dir} is not a folder`, { hint: `move ${dir} aside, then run ctxgate init again` });
      }
      if (stat || path.dirname(dir) === dir) break;
    }
    const mode = runtime.fs.statSync(change.target)?.mode;
    if (mode !== undefined && (mode & 0o222) === 0) {
      throw new AppError(ErrorCode.Config, `${change.target} is read-only (mode ${(mode & 0o777).toString(8)}), so ctxgate init leaves it alone`, {
        hint: `make it writable (chmod u+w ${change.target}) and run ctxgate init again, or look at the change with --dry-run and make it yourself`,
      });
    }
    const other = byTarget.get(change.target);
    if (other && other.after !== change.after) {
      throw new AppError(ErrorCode.Config, `${other.file} and ${change.file} are one file (${change.target}), and would get different ctxgate entries`, {
        hint: 'run ctxgate init for one of these clients at a time',
      });
    }
    byTarget.set(change.target, change);
  }
}

/** Where a file's previous version is kept under the backup folder: its path in the project, else its absolute path. */
function backupName(projectRoot: string, file: string): string {
  const rel = path.relative(projectRoot, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? path.join('outside', file.replace(/^[/\\]+|:/g, '')) : rel;
}

/**
 * Writes every changed file (folders created, an existing file's mode kept, a symbolic link written
 * through). With `backupDir`, each file it changes is first copied there as it was (0600: configs may
 * hold secrets); returns the folder when it saved anything.
 */
export function applyPlan(runtime: Runtime, plan: InitPlan, options: { projectRoot: string; backupDir?: string }): string | undefined {
  const changed = plan.changes.filter((c) => c.after !== c.before);
  checkWritable(runtime, changed);
  const { backupDir } = options;
  const previous = backupDir ? changed.filter((c) => c.existed) : [];
  for (const change of previous) {
    const copy = path.join(backupDir!, backupName(options.projectRoot, change.file));
    try {
      runtime.fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
      runtime.fs.writeFileAtomicSync(copy, change.before, 0o600);
    } catch (error) {
      throw new AppError(ErrorCode.Unavailable, `cannot keep a copy of ${change.file} before changing it (${messageOf(error)}), so nothing was written`, {
        hint: 'set CTXGATE_DATA_DIR to a writable folder, or look at the change with --dry-run and make it yourself',
      });
    }
  }
  for (const change of changed) {
    runtime.fs.mkdirSync(path.dirname(change.target), { recursive: true });
    const mode = runtime.fs.statSync(change.target)?.mode;
    runtime.fs.writeFileAtomicSync(change.target, change.after, mode === undefined ? 0o644 : mode & 0o777);
  }
  return previous.length ? backupDir : undefined;
}
