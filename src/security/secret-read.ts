// The one way a file's content is read for showing (read, execute_file, ctx_kb index, block expansion)
// and the one judgement of an opened file (issue 23, items 2–4): the path is judged by its names (as
// given and where its symlinks lead), then opened without following a final symlink, and the opened
// descriptor is judged again — by its identity (another name of a known secret: a hard link, a bind
// mount), by where the kernel says it is, and by its content (a private key, credentials). A path
// swapped for a symlink or another file between the judgement and the open is refused, never read.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { FileStat, OpenedFile, RuntimeFs } from '../runtime/types.ts';
import { isInside, type Workdirs } from './resolve-safe.ts';
import { secretInContent } from './secret-content.ts';
import { judgeSecret, type SecretMatch, secretRefusal } from './secret-files.ts';
import { identityKey, identityVerdict, knownSecrets, type SecretIdentities } from './secret-identities.ts';

/** A path relative to the workdir holding it (`/`-separated), or absolute when none does. */
export function shownPath(workdirs: Workdirs, abs: string): string {
  const workdir = workdirs.dirs.find((d) => isInside(d, abs));
  return workdir ? path.relative(workdir, abs).split(path.sep).join('/') : abs;
}

/**
 * What identity and content say of an opened file (`relative`: where it really is, inside its
 * workdir): a secret, 'unknown' when it is a hard link newer than the known identities, or undefined.
 */
export function judgeOpened(known: SecretIdentities, relative: string, opened: Pick<OpenedFile, 'bytes' | 'stat'>): SecretMatch | 'unknown' | undefined {
  const holder = identityVerdict(known, opened.stat);
  if (holder === 'unknown') return 'unknown';
  if (holder !== undefined) return { rule: `another name (a hard link or mount) of the secret file '${holder}'` };
  const content = secretInContent(relative, opened.bytes);
  return content ? { rule: content } : undefined;
}

function changedWhileRead(shown: string): AppError {
  return new AppError(ErrorCode.Unavailable, `'${shown}' changed while it was being opened (it was replaced, or a link was made to it), so it was not read`, {
    hint: 'try again once the file stays put',
  });
}

function sameFile(a: Pick<FileStat, 'dev' | 'ino'>, b: Pick<FileStat, 'dev' | 'ino'>): boolean {
  return identityKey(a) === identityKey(b);
}

export interface JudgedRead {
  bytes: Uint8Array;
  stat: FileStat;
  /** The real path read. */
  real: string;
}

/**
 * Reads a file for showing, or refuses: a secret (SECRET_REFUSED, `refused` says what was not done:
 * 'read', 'indexed'…), a path that changed while it was opened, a file over `maxBytes`.
 */
export async function readJudged(fs: RuntimeFs, workdirs: Workdirs, abs: string, refused: string, options: { shown?: string; maxBytes?: number } = {}): Promise<JudgedRead> {
  const { shown, real, stat: judged } = judgePath(fs, workdirs, abs, refused, options.shown);
  let opened: OpenedFile;
  try {
    opened = await fs.readOpened(real, options.maxBytes);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EFBIG') throw new AppError(ErrorCode.LimitExceeded, `'${shown}' is larger than ${options.maxBytes} bytes`, { hint: 'process it with a command that streams it instead' });
    if (code === 'ENOENT') throw new AppError(ErrorCode.NotFound, `'${shown}' does not exist`);
    throw changedWhileRead(shown);
  }
  refuseUnlessJudged(opened, judged, real, shown);
  await refuseByIdentityOrContent(fs, workdirs, { shown, real }, opened, refused);
  return { bytes: opened.bytes, stat: opened.stat, real };
}

/** The judgement before a file is opened: its names (as given and where its links lead), inside the workdirs, a regular file. */
function judgePath(fs: RuntimeFs, workdirs: Workdirs, abs: string, refused: string, shownAs: string | undefined): { shown: string; real: string; stat: FileStat } {
  const shown = shownAs ?? shownPath(workdirs, abs);
  const real = fs.realpathSync(abs);
  const named = judgeSecret(workdirs, { relative: shown, real });
  if (named) throw secretRefusal(shown, named, refused);
  if (!workdirs.dirs.some((d) => isInside(d, real))) {
    throw new AppError(ErrorCode.OutsideWorkdir, `'${shown}' leads outside the workdirs`, { hint: `pass a path under ${workdirs.dirs.join(' or ')}` });
  }
  const stat = fs.lstatSync(real);
  if (!stat?.isFile) throw changedWhileRead(shown);
  return { shown, real, stat };
}

/**
 * What identity and content say of an opened file (`real`: where it is): a hard link newer than the
 * known identities has them looked for again once; 'unknown' only when it is still newer after that.
 */
async function verdictOf(fs: RuntimeFs, workdirs: Workdirs, real: string, opened: Pick<OpenedFile, 'bytes' | 'stat'>): Promise<SecretMatch | 'unknown' | undefined> {
  const relative = shownPath(workdirs, real);
  const verdict = judgeOpened(await knownSecrets(fs, workdirs), relative, opened);
  return verdict === 'unknown' ? judgeOpened(await knownSecrets(fs, workdirs, opened.stat.ctimeMs), relative, opened) : verdict;
}

/**
 * Whether an opened file (`real`: where it is) is another name of a known secret or holds one: for
 * readers that leave such a file out rather than refuse (the code index's parse step).
 */
export async function isSecretOpened(fs: RuntimeFs, workdirs: Workdirs, real: string, opened: Pick<OpenedFile, 'bytes' | 'stat'>): Promise<boolean> {
  return (await verdictOf(fs, workdirs, real, opened)) !== undefined;
}

/** Refuses an opened file that is another name of a known secret or holds one. */
async function refuseByIdentityOrContent(fs: RuntimeFs, workdirs: Workdirs, file: { shown: string; real: string }, opened: Pick<OpenedFile, 'bytes' | 'stat'>, refused: string): Promise<void> {
  const verdict = await verdictOf(fs, workdirs, file.real, opened);
  if (verdict === 'unknown') throw changedWhileRead(file.shown);
  if (verdict) throw secretRefusal(file.shown, verdict, refused);
}

/** The descriptor must be the file judged, where it was judged: not a file swapped in meanwhile, nor one reached through a folder swapped for a symlink. */
function refuseUnlessJudged(opened: { stat: FileStat; location?: string }, judged: FileStat, real: string, shown: string): void {
  if (!sameFile(opened.stat, judged) || (opened.location !== undefined && opened.location !== real)) throw changedWhileRead(shown);
}

/** Of a file read in chunks (too big to read whole), the part its content is judged by. */
const STREAMED_HEAD_BYTES = 1024 * 1024;

/**
 * The judgement readJudged makes, for a file that is then read a chunk at a time instead of whole
 * (read of a file over a few MB): its names, where it really is, and — on the descriptor, opened
 * without following a final symlink — its identity (a hard link or mount of a known secret) and the
 * content of its first megabyte. What it returns is what every later open of the chunks must find.
 */
export async function judgeStreamed(fs: RuntimeFs, workdirs: Workdirs, abs: string, refused: string, shownAs?: string): Promise<{ dev: number; ino: number; real: string }> {
  const { shown, real, stat: judged } = judgePath(fs, workdirs, abs, refused, shownAs);
  let opened: ReturnType<RuntimeFs['files']['openRead']>;
  try {
    opened = fs.files.openRead(real);
  } catch {
    throw changedWhileRead(shown);
  }
  const head = new Uint8Array(Math.min(STREAMED_HEAD_BYTES, opened.stat.size));
  try {
    refuseUnlessJudged(opened, judged, real, shown);
    fs.files.read(opened.fd, head, 0);
  } finally {
    fs.files.close(opened.fd);
  }
  await refuseByIdentityOrContent(fs, workdirs, { shown, real }, { bytes: head, stat: opened.stat }, refused);
  return { dev: opened.stat.dev, ino: opened.stat.ino, real };
}
