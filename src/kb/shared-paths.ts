// Files in a shared knowledge base are named relative to one root — the repository's top
// (vcs/project-key.ts sharedPathsRoot): two checkouts of one repository (on two machines, or in two
// folders), and two servers rooted in different folders of it, then share one document per file,
// and each sees it under its own path — so the stale check compares with the file in its own
// checkout. Paths outside that root (another workdir) stay absolute, as on SQLite.
import * as path from 'node:path';

export interface SharedPaths {
  /** A source key as stored: a `file:` key of a file under the project root becomes relative. */
  sharedKey(key: string): string;
  /** A stored source key as this machine names it. */
  localKey(key: string): string;
  /** A file's absolute path → the form stored. */
  sharedPath(p: string): string;
  /** A stored path → this machine's absolute path. */
  localPath(p: string): string;
}

const FILE = 'file:';

export function sharedPaths(projectRoot: string): SharedPaths {
  const root = projectRoot.endsWith(path.sep) ? projectRoot : projectRoot + path.sep;
  const sharedPath = (p: string) => (p.startsWith(root) ? p.slice(root.length) : p);
  const localPath = (p: string) => (path.isAbsolute(p) ? p : root + p);
  return {
    sharedKey: (key) => (key.startsWith(FILE) ? FILE + sharedPath(key.slice(FILE.length)) : key),
    localKey: (key) => (key.startsWith(FILE) ? FILE + localPath(key.slice(FILE.length)) : key),
    sharedPath,
    localPath,
  };
}

const same = (p: string) => p;
/** No translation (a store used without a project root: benchmarks, tests of the store itself). */
export const SAME_PATHS: SharedPaths = { sharedKey: same, localKey: same, sharedPath: same, localPath: same };
