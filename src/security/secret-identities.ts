// The identities (device + inode) of the secret-like files in the workdirs, so that a hard link or a
// bind mount of `.env` under a harmless name is as secret as `.env` (issue 23, item 2). Found by one
// walk of each workdir that reads folders only (no file is opened, only secret-named ones stat'ed),
// kept per set of workdirs and refreshed in the background once a minute; a hard link made after the
// last walk (the inode's ctime is later) makes a reader that can wait walk again before it judges.
import * as path from 'node:path';
import type { FileStat, RuntimeFs } from '../runtime/types.ts';
import type { Workdirs } from './resolve-safe.ts';
import { secretReason } from './secret-files.ts';

/** Folders never walked for secrets: git's own objects, installed packages (huge, and not the project's). */
export const SECRET_WALK_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);
const SKIPPED_DIRS = SECRET_WALK_SKIPPED_DIRS;
const REFRESH_MS = 60_000;
const READS_IN_FLIGHT = 16;

export interface SecretIdentities {
  /** `dev:ino` of every secret-like file found, with its path. */
  readonly holders: ReadonlyMap<string, string>;
  /** When the walk that found them started (ms since the epoch). */
  readonly builtAt: number;
}

export function identityKey(st: Pick<FileStat, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}

/**
 * What the identities say of a file: the secret it is another name of, 'unknown' when it is a hard
 * link made after they were collected (walk again, then ask again), else undefined.
 */
export function identityVerdict(known: SecretIdentities, st: Pick<FileStat, 'dev' | 'ino' | 'nlink' | 'ctimeMs'>): string | 'unknown' | undefined {
  const holder = known.holders.get(identityKey(st));
  if (holder !== undefined) return holder;
  return st.nlink > 1 && st.ctimeMs >= known.builtAt ? 'unknown' : undefined;
}

/**
 * Lists the entries of a folder's tree that may be secret by name (paths relative to it,
 * `/`-separated; a superset: each is judged by secretReason) the way the walk below reaches them —
 * hidden folders entered, .git and node_modules not, no symlinked folder followed — in a process of
 * its own; undefined when it cannot (then the walk runs here). On the Linux tree the walk's 5k folder
 * reads and 83k names took this thread ~0.45 s at the start of a server, beside its first search.
 */
export type SecretNameLister = (dir: string) => Promise<string[] | undefined>;

let lister: SecretNameLister | undefined;

/** The lister the walks use from now on (undefined: the walk in this thread); the one replaced. */
export function listSecretNamesWith(next: SecretNameLister | undefined): SecretNameLister | undefined {
  const was = lister;
  lister = next;
  return was;
}

/** The identities of the secret-like files among `listed` (relative to `dir`). */
function holdersAmong(fs: RuntimeFs, dir: string, listed: readonly string[], holders: Map<string, string>): void {
  for (const rel of listed) {
    if (!secretReason(rel)) continue;
    // A symlink named like a secret makes its target one too.
    const st = fs.statSync(path.join(dir, rel));
    if (st?.isFile) holders.set(identityKey(st), rel);
  }
}

async function collect(fs: RuntimeFs, workdirs: Workdirs): Promise<SecretIdentities> {
  const builtAt = Date.now();
  const holders = new Map<string, string>();
  const list = lister;
  const walked: string[] = [];
  for (const dir of workdirs.dirs) {
    const listed = list ? await list(dir).catch(() => undefined) : undefined;
    if (listed) holdersAmong(fs, dir, listed, holders);
    else walked.push(dir);
  }
  if (walked.length) await walk(fs, walked, holders);
  return { holders, builtAt };
}

async function walk(fs: RuntimeFs, dirs: readonly string[], holders: Map<string, string>): Promise<void> {
  // Each folder with its path relative to its workdir ('/'-separated): a file's is one concatenation
  // (the Linux tree's 80k entries, where a path.relative each cost a third of the walk).
  const queue: { dir: string; rel: string }[] = dirs.map((d) => ({ dir: d, rel: '' }));
  while (queue.length) {
    const batch = queue.splice(0, READS_IN_FLIGHT);
    await Promise.all(
      batch.map(async ({ dir, rel: folder }) => {
        let entries: Awaited<ReturnType<RuntimeFs['readDir']>>;
        try {
          entries = await fs.readDir(dir);
        } catch {
          return;
        }
        for (const e of entries) {
          const rel = folder ? `${folder}/${e.name}` : e.name;
          if (e.isDirectory && !e.isSymbolicLink) {
            if (!SKIPPED_DIRS.has(e.name)) queue.push({ dir: path.join(dir, e.name), rel });
            continue;
          }
          if (!secretReason(rel)) continue;
          // A symlink named like a secret makes its target one too.
          const st = fs.statSync(path.join(dir, e.name));
          if (st?.isFile) holders.set(identityKey(st), rel);
        }
      }),
    );
  }
}

interface Cached {
  builtAt: number;
  current: Promise<SecretIdentities>;
  refreshing: boolean;
}
const cache = new Map<string, Cached>();

/**
 * The secret identities of these workdirs: collected on first use, walked again in the background
 * when a minute old, and at once (awaited) when `newerThan` is later than the last walk.
 */
export function knownSecrets(fs: RuntimeFs, workdirs: Workdirs, newerThan = 0): Promise<SecretIdentities> {
  const key = workdirs.dirs.join('\0');
  const now = Date.now();
  const cached = cache.get(key);
  if (!cached || cached.builtAt <= newerThan) {
    const fresh: Cached = { builtAt: now, current: collect(fs, workdirs), refreshing: false };
    cache.set(key, fresh);
    fresh.current.catch(() => cache.delete(key));
    return fresh.current;
  }
  if (now - cached.builtAt > REFRESH_MS && !cached.refreshing) {
    cached.refreshing = true;
    const next = collect(fs, workdirs);
    next.then(
      (known) => cache.set(key, { builtAt: known.builtAt, current: Promise.resolve(known), refreshing: false }),
      () => {
        cached.refreshing = false;
      },
    );
  }
  return cached.current;
}
