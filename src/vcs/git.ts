// Read-only git: status, diff, log. Runs git with a sanitized environment (inherited GIT_* dropped,
// no system/global config, no pager, no prompts, no optional locks, no transports), reads no
// repository data outside the workdir (repository-bounds.ts), never lets
// repository config start a program (git-guard.ts), leaves secret-like files out of diffs
// (diff-secrets.ts), passes paths after `--`, and never discovers a repository above the workdir.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import { childEnv } from '../exec/env.ts';
import type { ExecResult, Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { isInside, type SafePath } from '../security/resolve-safe.ts';
import { knownSecrets } from '../security/secret-identities.ts';
import { type OmittedPath, parseNameStatus, secretExclusions } from './diff-secrets.ts';
import { guardFromConfig, NO_TRANSPORT_ENV, SAFE_CONFIG, SAFE_DIFF_FLAGS, type WorktreeGuard } from './git-guard.ts';
import { findOutsidePlace } from './repository-bounds.ts';

export const GIT_TIMEOUT_MS = 60_000;
export const DIFF_MAX_BYTES = 200 * 1024;
export const DIFF_MAX_LINES = 2000;

export function gitEnv(runtime: Runtime, workdir: string): Record<string, string> {
  const env = childEnv(runtime);
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key];
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    LC_ALL: 'C',
    ...NO_TRANSPORT_ENV,
    // Discovery stops at the workdir: a repository above it would reach outside.
    GIT_CEILING_DIRECTORIES: path.dirname(workdir),
  };
}

export interface GitRun {
  runtime: Runtime;
  exec: Executor;
  cwd: SafePath;
  signal?: AbortSignal;
}

interface GitOptions {
  maxOutputBytes?: number;
  onStdout?: (chunk: Uint8Array) => boolean | undefined;
  /** Set for commands that read the worktree, where the repository's filters would run. */
  guard?: WorktreeGuard;
}

async function git(run: GitRun, args: string[], options: GitOptions = {}): Promise<ExecResult> {
  const gitPath = run.runtime.which('git');
  if (!gitPath) throw new AppError(ErrorCode.Unavailable, 'git is not on PATH', { hint: 'install git' });
  const result = await run.exec.run({
    command: gitPath,
    args: ['--no-pager', ...SAFE_CONFIG, ...args],
    cwd: run.cwd.real,
    env: { ...gitEnv(run.runtime, run.cwd.workdir), ...options.guard?.env },
    timeoutMs: GIT_TIMEOUT_MS,
    signal: run.signal,
    maxOutputBytes: options.maxOutputBytes ?? 4 * 1024 * 1024,
    onStdout: options.onStdout,
  });
  if (result.timedOut) throw new AppError(ErrorCode.Timeout, `git ${args[0]} did not finish within ${GIT_TIMEOUT_MS / 1000} s`, { hint: 'narrow it with path' });
  return result;
}

/** The repository's top folder; a clear error when the workdir is not (only) a repository. */
export async function repositoryRoot(run: GitRun): Promise<string> {
  const r = await git(run, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
  if (r.exitCode === 0) {
    const [top = '', gitDir = '', commonDir = ''] = r.stdout.split('\n');
    const root = insideWorkdir(run, top);
    const outside = findOutsidePlace(run.runtime.fs, run.cwd.workdir, { gitDir, commonDir });
    if (outside) {
      throw new AppError(ErrorCode.OutsideWorkdir, `the repository at ${root} keeps its data outside the workdirs: ${outside.what} is ${outside.real}`, {
        hint: `make the folder holding ${outside.real} the project root (or a workdir) to reach this repository`,
      });
    }
    return root;
  }
  const parent = findParentRepository(run.runtime.fs, run.cwd.workdir);
  if (parent) {
    throw new AppError(ErrorCode.Unavailable, `${run.cwd.workdir} is not a git repository itself; it lies inside the repository at ${parent}, which reaches outside the workdirs`, {
      hint: `make ${parent} the project root (or a workdir) to reach it`,
    });
  }
  throw new AppError(ErrorCode.Unavailable, `${run.cwd.path} is not inside a git repository`, { hint: 'run git init there, or pass cwd of a folder that is in a repository' });
}

/** core.worktree in a repository's config can put its files anywhere; git would read them there. */
function insideWorkdir(run: GitRun, root: string): string {
  let real = root;
  try {
    real = run.runtime.fs.realpathSync(root);
  } catch {
    // Not there: judged as written.
  }
  if (isInside(run.cwd.workdir, real)) return real;
  throw new AppError(ErrorCode.OutsideWorkdir, `the repository's working tree is ${root}, outside the workdirs (core.worktree in its config points there)`, {
    hint: `make ${root} the project root (or a workdir), or fix core.worktree, to reach it`,
  });
}

function findParentRepository(fs: Runtime['fs'], workdir: string): string | undefined {
  let dir = path.dirname(workdir);
  for (;;) {
    if (fs.lstatSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Reads the repository's config (includes followed) and blanks every filter driver it defines. */
async function worktreeGuard(run: GitRun): Promise<WorktreeGuard> {
  const r = await git(run, ['config', '--list', '-z']);
  if (r.exitCode !== 0) throw failure('config --list', r);
  return guardFromConfig(r.stdout);
}

function failure(command: string, r: ExecResult): AppError {
  const reason = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(0, 4).join('\n');
  return new AppError(ErrorCode.InvalidArgument, `git ${command} failed: ${reason}`);
}

export interface StatusEntry {
  /** Two status letters as in `git status --porcelain=v1` (e.g. " M", "A ", "??"). */
  xy: string;
  path: string;
  /** The old name of a renamed or copied file. */
  from?: string;
}

export interface GitStatus {
  branch: string;
  entries: StatusEntry[];
  truncated: boolean;
  /** Filter drivers the repository defines, which did not run. */
  filters: string[];
}

export async function gitStatus(run: GitRun, limit = DIFF_MAX_LINES): Promise<GitStatus> {
  await repositoryRoot(run);
  const guard = await worktreeGuard(run);
  // A dirty submodule is found by running git inside it, under its own config: only its commit counts.
  const r = await git(run, ['status', '--porcelain=v1', '-b', '-z', '--untracked-files=normal', '--ignore-submodules=dirty'], { guard });
  if (r.exitCode !== 0) throw failure('status', r);
  const fields = r.stdout.split('\0');
  let branch = '';
  const entries: StatusEntry[] = [];
  let truncated = false;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!f) continue;
    if (f.startsWith('## ')) {
      branch = f.slice(3);
      continue;
    }
    const xy = f.slice(0, 2);
    const entry: StatusEntry = { xy, path: f.slice(3) };
    // With -z a rename's old name follows as its own field.
    if (xy.includes('R') || xy.includes('C')) entry.from = fields[++i];
    if (entries.length >= limit) {
      truncated = true;
      break;
    }
    entries.push(entry);
  }
  return { branch, entries, truncated, filters: guard.filters };
}

export interface DiffOptions {
  path?: SafePath;
  stat: boolean;
  staged: boolean;
  unified?: number;
}

export interface GitDiff {
  diff: string;
  truncated: boolean;
  lines: number;
  bytes: number;
  /** Secret-like files that changed and were left out. */
  omitted: OmittedPath[];
  /** Filter drivers the repository defines, which did not run. */
  filters: string[];
}

export async function gitDiff(run: GitRun, options: DiffOptions): Promise<GitDiff> {
  const root = await repositoryRoot(run);
  const guard = await worktreeGuard(run);
  const base = ['diff', ...SAFE_DIFF_FLAGS, '--no-relative', '--no-color'];
  if (options.staged) base.push('--cached');
  // No path: the whole repository, as plain `git diff` shows from any folder of it.
  const scope = ['--', options.path ? options.path.path : ':(top)'];
  const names = await git(run, [...base, '--name-status', '-z', ...scope], { guard });
  if (names.exitCode !== 0) throw failure('diff', names);
  const known = await knownSecrets(run.runtime.fs, { dirs: [run.cwd.workdir] });
  const { omitted, pathspecs } = secretExclusions(parseNameStatus(names.stdout), { fs: run.runtime.fs, root, workdir: run.cwd.workdir, known });
  const args = [...base];
  if (options.stat) args.push('--stat');
  if (options.unified !== undefined) args.push(`--unified=${options.unified}`);
  args.push(...scope, ...pathspecs);
  let lines = 0;
  let bytes = 0;
  const r = await git(run, args, {
    guard,
    maxOutputBytes: DIFF_MAX_BYTES,
    onStdout(chunk) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
      return bytes > DIFF_MAX_BYTES || lines > DIFF_MAX_LINES;
    },
  });
  if (!r.stoppedEarly && r.exitCode !== 0) throw failure('diff', r);
  let diff = r.stdout;
  const cut = r.stoppedEarly || r.truncated;
  if (cut) {
    const kept = diff.split('\n').slice(0, DIFF_MAX_LINES);
    diff = kept.join('\n');
    while (new TextEncoder().encode(diff).length > DIFF_MAX_BYTES) diff = diff.slice(0, diff.lastIndexOf('\n'));
  }
  return { diff, truncated: cut, lines: diff ? diff.split('\n').length : 0, bytes: new TextEncoder().encode(diff).length, omitted, filters: guard.filters };
}

export interface LogEntry {
  hash: string;
  date: string;
  author: string;
  subject: string;
  body?: string;
  email?: string;
}

export async function gitLog(run: GitRun, options: { n: number; path?: SafePath; oneline: boolean }): Promise<LogEntry[]> {
  await repositoryRoot(run);
  const format = options.oneline ? '%h%x1f%ad%x1f%an%x1f%s%x1e' : '%H%x1f%ad%x1f%an%x1f%s%x1f%ae%x1f%b%x1e';
  const args = ['log', `--max-count=${options.n}`, '--no-show-signature', '--no-color', '--date=short', `--format=${format}`, '--'];
  if (options.path) args.push(options.path.path);
  const r = await git(run, args);
  if (r.exitCode !== 0) {
    // A repository without commits has no log: that is an answer, not a failure.
    if (/does not have any commits yet|bad default revision/.test(r.stderr)) return [];
    throw failure('log', r);
  }
  return r.stdout
    .split('\x1e')
    .map((rec) => rec.replace(/^\n/, ''))
    .filter(Boolean)
    .map((rec) => {
      const [hash = '', date = '', author = '', subject = '', email, body] = rec.split('\x1f');
      const entry: LogEntry = { hash, date, author, subject };
      if (!options.oneline) {
        entry.email = email;
        if (body?.trim()) entry.body = body.trim();
      }
      return entry;
    });
}
