// The key that names one project's rows in a shared database: the repository's remote URL,
// normalised so that every clone of one repository agrees (ssh or https, with or without a user,
// a password, a port or ".git"), else the project root's real path. storage.projectKey overrides it.
import * as path from 'node:path';
import { normaliseRemoteUrl } from '../config/project-key-text.ts';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { gitEnv } from './git.ts';
import { SAFE_CONFIG } from './git-guard.ts';

export { normaliseProjectKey, normaliseRemoteUrl } from '../config/project-key-text.ts';

/** The remote to name a project by: origin when there is one, else the first in the config. */
export function pickRemote(configLines: string): string | undefined {
  const remotes = configLines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('remote.') && line.includes('.url '))
    .map((line) => {
      const space = line.indexOf('.url ');
      return { name: line.slice('remote.'.length, space), url: line.slice(space + '.url '.length).trim() };
    });
  return (remotes.find((r) => r.name === 'origin') ?? remotes[0])?.url;
}

type GitDeps = { runtime: Runtime; exec: Executor };

/** git's answer (stdout) in the project root, or undefined when git is missing or fails. */
async function askGit(deps: GitDeps, projectRoot: string, args: string[]): Promise<string | undefined> {
  const gitPath = deps.runtime.which('git');
  if (!gitPath) return undefined;
  const env = gitEnv(deps.runtime, projectRoot);
  // A project root below the repository's top still belongs to that repository.
  delete env.GIT_CEILING_DIRECTORIES;
  const result = await deps.exec.run({ command: gitPath, args: [...SAFE_CONFIG, ...args], cwd: projectRoot, env, timeoutMs: 10_000, maxOutputBytes: 64 * 1024 }).catch(() => undefined);
  return result?.exitCode === 0 ? result.stdout : undefined;
}

/** The project's default key: its normalised remote URL, or its real path when it has no remote. */
export async function defaultProjectKey(deps: GitDeps, projectRoot: string): Promise<string> {
  const configLines = await askGit(deps, projectRoot, ['config', '--get-regexp', '^remote\\..*\\.url$']);
  const remote = configLines === undefined ? undefined : pickRemote(configLines);
  const key = remote ? normaliseRemoteUrl(remote) : '';
  return key || deps.runtime.fs.realpathSync(projectRoot);
}

/**
 * The folder a shared knowledge base names this project's files from: the repository's top, so two
 * servers rooted in different folders of one repository (services/billing, services/search of a
 * monorepo, both keyed by its remote) store one file under one name — else the project root. It is
 * spelled from the project root (`../..`), so a root reached through a symlink keeps its prefix.
 */
export async function sharedPathsRoot(deps: GitDeps, projectRoot: string): Promise<string> {
  const top = (await askGit(deps, projectRoot, ['rev-parse', '--show-toplevel']))?.trim();
  if (!top) return projectRoot;
  const up = path.relative(deps.runtime.fs.realpathSync(projectRoot), top);
  // Only ever upwards: a top below or beside the root would be git misreading the folder.
  if (up !== '' && !up.split(path.sep).every((part) => part === '..')) return projectRoot;
  return path.resolve(projectRoot, up);
}
