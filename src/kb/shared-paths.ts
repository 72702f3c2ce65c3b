// Files in a shared knowledge base are named relative to the project root: two checkouts of one
// repository (on two machines, or in two folders) then share one document per file, and each sees
// it under its own path — so the stale check compares with the file in its own checkout. Paths
// outside the project root (another workdir) stay absolute, as on SQLite.
import * as path from 'node:path';

export interface SharedPaths {
  /** This machine's absolute path (or a `file:` key holding one) → the form stored. */
  toShared(p: string): string;
  /** The stored form → this machine's absolute path (or key). */
  toLocal(p: string): string;
}

const FILE = 'file:';

export function sharedPaths(projectRoot: string): SharedPaths {
  const root = projectRoot.endsWith(path.sep) ? projectRoot : projectRoot + path.sep;
  const share = (p: string) => (p.startsWith(root) ? p.slice(root.length) : p);
  const local = (p: string) => (path.isAbsolute(p) ? p : root + p);
  return {
    toShared: (p) => (p.startsWith(FILE) ? FILE + share(p.slice(FILE.length)) : share(p)),
    toLocal: (p) => (p.startsWith(FILE) ? FILE + local(p.slice(FILE.length)) : local(p)),
  };
}

/** No translation (a store used without a project root: benchmarks, tests of the store itself). */
export const SAME_PATHS: SharedPaths = { toShared: (p) => p, toLocal: (p) => p };
