// Where a repository keeps its data, judged against the workdir (issue 23.6). A `.git` file
// (gitdir: /elsewhere), a `.git` symlink, a linked worktree's common dir, an `objects` folder that is
// a link, and `objects/info/alternates` each make git read objects from another folder: a diff or a
// log would then show another repository's contents. Every such folder must lie inside the workdir.
import * as path from 'node:path';
import type { RuntimeFs } from '../runtime/types.ts';
import { isInside } from '../security/resolve-safe.ts';

/** git follows alternates of alternates this deep (sha1-file.c); deeper chains are ignored by git. */
const MAX_ALTERNATE_DEPTH = 5;

export interface RepositoryPlaces {
  /** `git rev-parse --absolute-git-dir`. */
  gitDir: string;
  /** `git rev-parse --path-format=absolute --git-common-dir`. */
  commonDir: string;
}

export interface OutsidePlace {
  /** What the folder is, in words ("the git dir", "an alternate object store"). */
  what: string;
  /** The folder as git names it. */
  place: string;
  /** Where it really lies (symlinks followed). */
  real: string;
}

/** The first of the repository's data folders that lies outside `workdir`, or undefined. */
export function findOutsidePlace(fs: RuntimeFs, workdir: string, places: RepositoryPlaces): OutsidePlace | undefined {
  const judge = (what: string, place: string): OutsidePlace | undefined => {
    const real = realOrSelf(fs, place);
    return isInside(workdir, real) ? undefined : { what, place, real };
  };
  const first = judge('the git dir', places.gitDir) ?? judge('the common git dir', places.commonDir);
  if (first) return first;
  return checkObjects(fs, path.join(places.commonDir, 'objects'), 'the object store', 0, judge);
}

function checkObjects(
  fs: RuntimeFs,
  objects: string,
  what: string,
  depth: number,
  judge: (what: string, place: string) => OutsidePlace | undefined,
): OutsidePlace | undefined {
  const here = judge(what, objects);
  if (here || depth >= MAX_ALTERNATE_DEPTH) return here;
  for (const alternate of readAlternates(fs, objects)) {
    const found = checkObjects(fs, alternate, 'an alternate object store (objects/info/alternates)', depth + 1, judge);
    if (found) return found;
  }
  return undefined;
}

/** The folders `objects/info/alternates` names, absolute; a line git would read but we cannot parse counts as outside. */
export function readAlternates(fs: RuntimeFs, objects: string): string[] {
  let text: string;
  try {
    text = fs.readTextFileSync(path.join(objects, 'info', 'alternates'));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line || line.startsWith('#')) continue;
    const entry = line.startsWith('"') ? unquote(line) : line;
    // Relative entries are relative to the objects folder that lists them, as git reads them.
    out.push(entry === undefined ? '\0unparsed alternate' : path.resolve(objects, entry));
  }
  return out;
}

/** git's C-style quoting ("a\tb", "\303\251"); undefined when it is not a well-formed quoted path. */
function unquote(line: string): string | undefined {
  if (!line.endsWith('"') || line.length < 2) return undefined;
  const body = line.slice(1, -1);
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    if (/[0-3]/.test(next) && /^[0-7]{2}$/.test(body.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else if (next in escapes) bytes.push(escapes[next]!);
    else return undefined;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function realOrSelf(fs: RuntimeFs, place: string): string {
  try {
    return fs.realpathSync(place);
  } catch {
    // A missing folder reads as nothing to git; a dangling link is judged where it points (unknown: outside).
    return fs.lstatSync(place)?.isSymbolicLink ? '\0dangling' : path.resolve(place);
  }
}
