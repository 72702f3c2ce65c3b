// The entries of a tree whose status changed since a moment, listed by find(1) from their ctime. An
// edit, a replace by rename, a new hard link, a chmod and a utimes that sets the mtime back all set a
// file's ctime to now, and nothing sets it back; adding, removing or renaming an entry does the same
// to its folder. So everything changed since a moment is among what this lists — a superset: find
// counts in whole minutes. On the Linux tree (~83k entries) the stats cost find ~0.2 s of CPU in a
// process of its own, on the other core, while this thread opens the index; the same stats here
// come with a read of the whole catalogue to compare them with.
import { childEnv } from '../exec/env.ts';
import type { Executor } from '../exec/executor.ts';
import type { Runtime } from '../runtime/types.ts';
import { SECRET_WALK_SKIPPED_DIRS } from '../security/secret-identities.ts';
import { SECRET_WALK_PRUNED, secretNameTest } from './secret-names.ts';

/**
 * Catalogues of fewer files are stat'ed file by file: that takes a few milliseconds, less than
 * starting find (tens of milliseconds, hundreds on a loaded machine).
 */
export const LIST_FROM_FILES = 5000;

const FIND_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Characters find's -name reads as a pattern: a folder name holding one is not pruned (it could match others). */
const PATTERN_CHARS = /[*?[\\]/;

export interface ChangedSinceOptions {
  runtime: Runtime;
  exec: Executor;
  root: string;
  /** Folder names never entered (exact names; hidden folders are never entered either). */
  skipDirs: readonly string[];
}

/**
 * Lists the paths (relative to the root, `/`-separated; '' for the root itself) of files, folders and
 * links whose ctime may be `sinceMs` (ms since the epoch) or later. Undefined when find is missing,
 * failed (an unreadable folder hides what it holds), or its list did not fit: then nothing is known.
 */
export type ChangedSince = (sinceMs: number, signal?: AbortSignal) => Promise<string[] | undefined>;

/** Start points past which the tree is not split further (find's argument list stays short). */
const MAX_STARTS = 4000;

/**
 * The tree cut into `parts` lists of find start points of about equal weight: the root and its
 * entries in a first list (depth 1 only), each folder's entries one level down dealt round-robin to
 * the others — on the Linux tree, `drivers/` alone is 40% of the files, its entries hundreds.
 */
function startPoints(options: ChangedSinceOptions, skipped: (name: string) => boolean, parts: number): string[][] | undefined {
  let top: ReturnType<Runtime['fs']['readDirSync']>;
  try {
    top = options.runtime.fs.readDirSync(options.root);
  } catch {
    return undefined;
  }
  const starts: string[] = [];
  for (const e of top) {
    if (!e.isDirectory || e.isSymbolicLink || skipped(e.name)) continue;
    try {
      for (const c of options.runtime.fs.readDirSync(`${options.root}/${e.name}`)) starts.push(`./${e.name}/${c.name}`);
    } catch {
      return undefined;
    }
    if (starts.length > MAX_STARTS) return undefined;
  }
  const lists: string[][] = Array.from({ length: parts }, () => []);
  starts.sort();
  for (let i = 0; i < starts.length; i++) lists[i % parts]!.push(starts[i]!);
  return lists.filter((l) => l.length);
}

/** The folder names the list never enters (besides hidden ones): those find can match exactly. */
function skippedNames(options: ChangedSinceOptions): string[] {
  return options.skipDirs.filter((n) => n && !PATTERN_CHARS.test(n));
}

/**
 * The test for a ctime at `sinceMs` or later. GNU find takes the moment itself (`-newerct @SECONDS`,
 * to the millisecond); another find gets `-cmin -N`, changed less than N minutes ago (GNU exactly,
 * BSD rounded up), with one minute more for that — up to two minutes of entries more than asked,
 * a whole tree when it was unpacked a minute before its first index was listed.
 */
function changedTest(sinceMs: number, gnu: boolean): string[] {
  if (gnu) return ['-newerct', `@${(Math.max(0, sinceMs) / 1000).toFixed(3)}`];
  return ['-cmin', `-${Math.max(1, Math.ceil((Date.now() - sinceMs) / 60_000) + 1)}`];
}

/** Whether `find` is GNU's (its `--version` says so): asked once per list maker. */
function gnuFind(options: ChangedSinceOptions, find: string): Promise<boolean> {
  return options.exec
    .run({ command: find, args: ['--version'], cwd: options.root, env: childEnv(options.runtime, { LC_ALL: 'C' }), timeoutMs: FIND_TIMEOUT_MS, maxOutputBytes: 64 * 1024, leavesNothing: true })
    .then((r) => r.exitCode === 0 && /GNU findutils/.test(r.stdout))
    .catch(() => false);
}

/**
 * Runs `expression` over the tree: one find per core, each on its share of the tree (the stats are
 * the work, the kernel's), plus one for the root's own entries; the output of each, or undefined when
 * one failed (an unreadable folder hides what it holds), did not fit or was stopped.
 */
async function findParts(options: ChangedSinceOptions, find: string, enters: (name: string) => boolean, expression: string[], signal?: AbortSignal): Promise<string[] | undefined> {
  const run = (args: string[]) =>
    options.exec
      .run({ command: find, args, cwd: options.root, env: childEnv(options.runtime, { LC_ALL: 'C' }), timeoutMs: FIND_TIMEOUT_MS, signal, maxOutputBytes: MAX_OUTPUT_BYTES, leavesNothing: true })
      .catch(() => undefined);
  const parts = startPoints(options, (name) => !enters(name), Math.max(1, options.runtime.cpuCount()));
  const runs = parts ? [run(['.', '-maxdepth', '1', ...expression]), ...parts.map((starts) => run([...starts, ...expression]))] : [run(['.', ...expression])];
  const out: string[] = [];
  for (const r of await Promise.all(runs)) {
    if (r?.exitCode !== 0 || r.truncated || r.timedOut || r.cancelled) return undefined;
    out.push(r.stdout);
  }
  return out;
}

/** A path find printed ('.' or './…') relative to the root ('' for the root itself). */
function relativeOf(entry: string): string | undefined {
  return entry === '.' ? '' : entry.startsWith('./') ? entry.slice(2) : undefined;
}

export function createChangedSince(options: ChangedSinceOptions): ChangedSince {
  const names = skippedNames(options);
  const pruned = ['(', '-type', 'd', '(', '-name', '.?*', ...names.flatMap((n) => ['-o', '-name', n]), ')', ')', '-prune', '-o'];
  let gnu: Promise<boolean> | undefined;
  return async (sinceMs, signal) => {
    const find = options.runtime.which('find');
    if (!find) return undefined;
    gnu ??= gnuFind(options, find);
    const outputs = await findParts(options, find, (name) => !name.startsWith('.') && !names.includes(name), [...pruned, ...changedTest(sinceMs, await gnu), '-print0'], signal);
    if (!outputs) return undefined;
    const out: string[] = [];
    for (const stdout of outputs) {
      for (const entry of stdout.split('\0')) {
        const rel = relativeOf(entry);
        if (rel !== undefined) out.push(rel);
      }
    }
    return out;
  };
}

/** What changed since a moment, and the entries that may be secret by name, from one walk. */
export interface ChangedAndSecretNames {
  changed: Promise<string[] | undefined>;
  /** As a SecretNameLister lists the root (workspace/secret-names.ts). */
  secretNames: Promise<string[] | undefined>;
}

/**
 * Both lists a new server's warm start needs from one walk of the tree by GNU find: the secret walk's
 * (every folder but .git and node_modules), each entry tested for a secret name and, when its ctime
 * is recent, for being outside the folders the changed list leaves out. On the Linux tree's 83k
 * entries the two walks cost ~0.35 s of CPU (secret names ~0.125, ctimes ~0.22) beside that
 * server's first search; one ~0.255.
 * Undefined when there is no find.
 */
export function listChangedAndSecretNames(options: ChangedSinceOptions, sinceMs: number): ChangedAndSecretNames | undefined {
  const find = options.runtime.which('find');
  if (!find) return undefined;
  const names = skippedNames(options);
  // Left out of the changed list: what hidden or skipped folders hold, and those folders themselves.
  const outside = ['!', '-path', '*/.*/*', ...names.flatMap((n) => ['!', '-path', `*/${n}/*`]), '!', '(', '-type', 'd', '(', '-name', '.?*', ...names.flatMap((n) => ['-o', '-name', n]), ')', ')'];
  const expression = [...SECRET_WALK_PRUNED, '-o', '(', '(', ...secretNameTest('gnu'), '-printf', 'S%p\\0', ')', ',', '(', ...changedTest(sinceMs, true), ...outside, '-printf', 'C%p\\0', ')', ')'];
  const walked = findParts(options, find, (name) => !SECRET_WALK_SKIPPED_DIRS.has(name), expression).then((outputs) => {
    if (!outputs) return undefined;
    const changed: string[] = [];
    const secret: string[] = [];
    for (const stdout of outputs) {
      for (const entry of stdout.split('\0')) {
        const rel = relativeOf(entry.slice(1));
        if (rel === undefined) continue;
        if (entry[0] === 'C') changed.push(rel);
        else if (entry[0] === 'S' && rel) secret.push(rel);
      }
    }
    return { changed, secret };
  });
  // Another find (BSD's) refuses -printf or -regextype, as GNU's refuses an unreadable folder: the
  // changed list from the finds of its own (their failure says nothing is known), the names from the
  // lister's (secret-names.ts).
  return { changed: walked.then((w) => w?.changed ?? createChangedSince(options)(sinceMs)), secretNames: walked.then((w) => w?.secret) };
}
