// The key that names one project's rows in a shared database: the repository's remote URL,
// normalised so that every clone of one repository agrees (ssh or https, with or without a user,
// a password, a port or ".git"), else the project root's real path. storage.projectKey overrides it.
import * as path from 'node:path';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { gitEnv } from './git.ts';
import { SAFE_CONFIG } from './git-guard.ts';

/**
 * `host/path`, lower-cased, without scheme, user, password, port, trailing slashes or ".git":
 * git@github.com:Org/Repo.git, ssh://git@github.com:22/Org/Repo and https://u:p@github.com/org/repo.git
 * all become github.com/org/repo. A local path (a remote that is another folder) stays a path.
 */
export function normaliseRemoteUrl(remote: string): string {
  let text = remote.trim();
  const scp = scpHostAndPath(text);
  if (scp) {
    text = `${scp.host}/${scp.path}`;
  } else if (text.includes('://')) {
    try {
      const url = new URL(text);
      text = url.protocol === 'file:' ? url.pathname : `${url.hostname}${url.pathname}`;
    } catch {
      // Not a URL after all: kept as it is.
    }
  }
  while (text.endsWith('/')) text = text.slice(0, -1);
  if (text.toLowerCase().endsWith('.git')) text = text.slice(0, -4);
  while (text.endsWith('/')) text = text.slice(0, -1);
  return text.toLowerCase();
}

/**
 * A project key as given by a person (storage.projectKey, `users add|grant --project`), normalised as
 * the default key is: a remote URL in any form becomes its key (git@github.com:Acme/Shop.git →
 * github.com/acme/shop), so it matches what a server with no key set works out. An absolute path
 * (the default key of a folder without a remote) stays as it is: paths are case-sensitive.
 */
export function normaliseProjectKey(key: string): string {
  const text = key.trim();
  return text.startsWith('/') ? text : normaliseRemoteUrl(text);
}

/** git's scp-like form `[user@]host:path` (no "://", and a colon before any slash). */
function scpHostAndPath(text: string): { host: string; path: string } | undefined {
  if (text.includes('://')) return undefined;
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  if (colon <= 0 || (slash !== -1 && slash < colon)) return undefined;
  const userHost = text.slice(0, colon);
  const host = userHost.slice(userHost.lastIndexOf('@') + 1);
  const path = text.slice(colon + 1).replace(/^\/+/, '');
  return host && path ? { host, path } : undefined;
}

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
