// The one gate every path argument passes through: the path must lie inside a workdir both as
// written (no `..` or /proc/self/root detours) and after every symlink is followed.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';

export interface Workdirs {
  /** Real (symlink-free) absolute paths; the first is the primary workdir (the project root). */
  readonly dirs: readonly string[];
}

export interface SafePath {
  /** Absolute path as written (normalized), inside the workdir. */
  path: string;
  /** The path with every symlink resolved; equal to `path` when nothing is a link. */
  real: string;
  /** The workdir the path belongs to. */
  workdir: string;
  /** Path relative to its workdir, with `/` separators ('' for the workdir itself). */
  relative: string;
  exists: boolean;
}

export interface ResolveOptions {
  /** Refuse paths that do not exist (default true). */
  mustExist?: boolean;
}

const MAX_PATH_BYTES = 4096;
const MAX_SEGMENT_BYTES = 255;

export function isInside(dir: string, candidate: string): boolean {
  if (candidate === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return candidate.startsWith(prefix);
}

function checkShape(input: string): void {
  if (input.includes('\0')) {
    throw new AppError(ErrorCode.InvalidArgument, 'path contains a NUL byte', { hint: 'pass a plain path' });
  }
  const bytes = new TextEncoder().encode(input).length;
  if (bytes > MAX_PATH_BYTES) {
    throw new AppError(ErrorCode.InvalidArgument, `path is ${bytes} bytes long; the limit is ${MAX_PATH_BYTES}`, { hint: 'pass a shorter path' });
  }
  const longSegment = input.split('/').find((s) => new TextEncoder().encode(s).length > MAX_SEGMENT_BYTES);
  if (longSegment) {
    throw new AppError(ErrorCode.InvalidArgument, `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`, { hint: 'pass a shorter path' });
  }
}

/** realpath of the deepest existing ancestor, with the missing rest appended. */
export function realpathLoose(fs: RuntimeFs, absolute: string): { real: string; exists: boolean } {
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    if (fs.lstatSync(existing)) break;
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    // A dangling symlink: where it points is unknown territory, treat it as outside.
    return { real: '\0dangling', exists: false };
  }
  return { real: rest.length ? path.join(real, ...rest) : real, exists: rest.length === 0 };
}

function outside(input: string, workdirs: Workdirs): AppError {
  return new AppError(ErrorCode.OutsideWorkdir, `path '${input}' is outside the workdirs`, {
    hint: `pass a path under ${workdirs.dirs.join(' or ')}`,
  });
}

function resolveIn(fs: RuntimeFs, input: string, workdirs: Workdirs, base: string): SafePath {
  const lexical = path.resolve(base, input);
  const workdir = workdirs.dirs.find((dir) => isInside(dir, lexical));
  if (!workdir) throw outside(input, workdirs);
  const { real, exists } = realpathLoose(fs, lexical);
  if (!workdirs.dirs.some((dir) => isInside(dir, real))) {
    throw new AppError(ErrorCode.OutsideWorkdir, `path '${input}' leads outside the workdirs through a symlink`, {
      hint: `pass a path whose target lies under ${workdirs.dirs.join(' or ')}`,
    });
  }
  const relative = path.relative(workdir, lexical).split(path.sep).join('/');
  return { path: lexical, real, workdir, relative, exists };
}

/**
 * Resolves a user-supplied path inside the workdirs. A relative path is taken against the primary
 * workdir; when several workdirs exist and it exists under more than one, it is ambiguous.
 */
export function resolveSafe(fs: RuntimeFs, workdirs: Workdirs, input: string | undefined, options: ResolveOptions = {}): SafePath {
  const mustExist = options.mustExist ?? true;
  const given = input === undefined || input === '' || input === './' ? '.' : input;
  checkShape(given);
  const primary = workdirs.dirs[0];
  if (!primary) throw new AppError(ErrorCode.Internal, 'no workdir is configured');

  let resolved: SafePath;
  if (path.isAbsolute(given) || given === '.' || workdirs.dirs.length === 1) {
    resolved = resolveIn(fs, given, workdirs, primary);
  } else {
    const matches: SafePath[] = [];
    let firstError: unknown;
    for (const dir of workdirs.dirs) {
      try {
        const candidate = resolveIn(fs, given, workdirs, dir);
        if (candidate.exists) matches.push(candidate);
      } catch (error) {
        firstError ??= error;
      }
    }
    if (matches.length > 1) {
      throw new AppError(ErrorCode.Ambiguous, `path '${given}' exists in ${matches.length} workdirs: ${matches.map((m) => m.workdir).join(', ')}`, {
        hint: 'pass an absolute path to say which one',
      });
    }
    if (matches[0]) resolved = matches[0];
    else if (firstError) throw firstError;
    else resolved = resolveIn(fs, given, workdirs, primary);
  }
  if (mustExist && !resolved.exists) {
    throw new AppError(ErrorCode.NotFound, `path '${given}' does not exist`, {
      hint: resolved.relative ? `check the spelling; it was looked up as ${resolved.path}` : undefined,
    });
  }
  return resolved;
}
