// Secret-like files stay out of diffs (issue 11): a committed .env or private key would otherwise
// show its changed lines, and a diff over 100 KB would carry them into the knowledge base. The
// changed files are listed first (`--name-status -z`) and each is judged the way every tool judges a
// file (by its path inside the workdir and by where its symlinks lead); those are excluded from the
// real diff by literal pathspecs, so the reply can say which were left out. The rules' own globs back
// that up should a file change between the two commands.
import * as path from 'node:path';
import type { RuntimeFs } from '../runtime/types.ts';
import { judgeSecretPath, SECRET_EXCLUDE_PATHSPECS, type SecretMatch } from '../security/secret-files.ts';
import type { SecretIdentities } from '../security/secret-identities.ts';
import { judgeOpened } from '../security/secret-read.ts';

export interface OmittedPath {
  /** Relative to the workdir, `/`-separated. */
  path: string;
  /** The secret-file rule it falls under, or why it goes with one that does. */
  rule: string;
}

/** The paths of each changed file in `git diff --name-status -z` output (two for renames and copies). */
export function parseNameStatus(output: string): string[][] {
  const fields = output.split('\0');
  const files: string[][] = [];
  for (let i = 0; i < fields.length; i++) {
    const status = fields[i];
    if (!status) continue;
    const count = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    files.push(fields.slice(i + 1, i + 1 + count).filter((p): p is string => p !== undefined));
    i += count;
  }
  return files;
}

export interface SecretExclusions {
  omitted: OmittedPath[];
  /** Pathspecs (relative to the repository root) to append after `--`. */
  pathspecs: string[];
}

export interface DiffPlace {
  fs: Pick<RuntimeFs, 'realpathSync' | 'statSync'> & Partial<Pick<RuntimeFs, 'readOpenedSync'>>;
  /** The secret identities of the workdir: a changed file that is another name of one, or holds a key, is left out too. */
  known?: SecretIdentities;
  /** The repository's top folder (real path). */
  root: string;
  /** The workdir holding it (real path). */
  workdir: string;
}

/** Files a diff may show are at most this big to be judged by content; a bigger one is judged by identity only. */
const CONTENT_JUDGED_BYTES = 16 * 1024 * 1024;

/** The opened file's verdict (identity, key content); a file that cannot be opened as a regular file has none. */
function judgeOpenedPath(place: DiffPlace, relative: string, abs: string): SecretMatch | undefined {
  if (!place.known || !place.fs.readOpenedSync) return undefined;
  const opened = place.fs.readOpenedSync(abs, CONTENT_JUDGED_BYTES);
  if (!opened) return undefined;
  const verdict = judgeOpened(place.known, relative, opened);
  return verdict === 'unknown' ? { rule: 'a hard link made while the diff ran' } : verdict;
}

/**
 * Which changed files to leave out. A rename or copy with a secret-like side is left out whole, so
 * the secret's content does not reappear under its other name.
 */
export function secretExclusions(changed: string[][], place: DiffPlace): SecretExclusions {
  const workdirs = { dirs: [place.workdir] };
  const omitted: OmittedPath[] = [];
  const excluded = new Set<string>();
  for (const paths of changed) {
    const judged = paths.map((p) => {
      const abs = path.join(place.root, p);
      const relative = path.relative(place.workdir, abs).split(path.sep).join('/');
      return { p, relative, abs, match: judgeSecretPath(place.fs, workdirs, relative, abs) };
    });
    // Names first: a rename's other side is left out for the rename; the opened file (identity, key
    // content) decides only when no name does.
    if (!judged.some((j) => j.match)) for (const j of judged) j.match = judgeOpenedPath(place, j.relative, j.abs);
    const secret = judged.find((j) => j.match);
    if (!secret) continue;
    for (const j of judged) {
      excluded.add(j.p);
      const rule = j.match ? j.match.rule + (j.match.leadsTo ? `, through a symlink to ${j.match.leadsTo}` : '') : `renamed or copied from or to ${secret.relative}`;
      omitted.push({ path: j.relative, rule });
    }
  }
  const literal = [...excluded].map((p) => `:(top,exclude,literal)${p}`);
  return { omitted, pathspecs: [...literal, ...SECRET_EXCLUDE_PATHSPECS] };
}
