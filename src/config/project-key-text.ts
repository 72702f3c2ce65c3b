// How a project key is written: the normalisation a repository's remote URL goes through to become
// the key every clone agrees on, and that a key a person gives (storage.projectKey, `users add|grant
// --project`) goes through too. Text only: working out a project's key from its repository is vcs's.

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
