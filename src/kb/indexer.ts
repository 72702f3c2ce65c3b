// ctx_kb index: a file or a folder into the knowledge base. Skips .git/node_modules/vendor, gitignored
// files, binaries, files over 1 MB, secret-like files (by name and by where a symlink leads) and content
// holding a private key, and symlinks (never followed, as rg and git do), and says how many it skipped
// and why; stops at 5000 files / 100 MB per call. Unchanged files are not redone.
// Batches are small transactions, so other processes' calls get their turn in between; and one
// process at a time indexes a given path (a lease in the database): another asking meanwhile is told
// who is doing it, and searches what has been committed so far.
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import type { SafePath, Workdirs } from '../security/resolve-safe.ts';
import { judgeSecret, judgeSecretPath, secretRefusal } from '../security/secret-files.ts';
import { readJudged } from '../security/secret-read.ts';
import { isStorageError, StorageError } from '../storage/storage-error.ts';
import { UNENTERED_DIRS } from '../workspace/list.ts';
import { walk } from '../workspace/walk.ts';
import { chunkDocument, formatFor } from './chunk/index.ts';
import type { KnowledgeStore } from './knowledge-store.ts';
import { fileDigest } from './file-digest.ts';
import type { SourceInput } from './store.ts';

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILES = 5000;
export const MAX_TOTAL_BYTES = 100 * 1024 * 1024;
/**
 * Files per transaction: one fsync per batch instead of per file, yet short enough (~0.2 s) that
 * another process waiting to write or read is not held up for long.
 */
const BATCH_FILES = 100;
const BATCH_BYTES = 2 * 1024 * 1024;
/** A lease not renewed for this long is free again (its holder hangs); a dead holder's is free at once. */
const LEASE_TTL_MS = 60_000;

export type SkipReason = 'secret' | 'symlink' | 'too large' | 'binary' | 'private key' | 'unreadable';

export interface IndexReport {
  path: string;
  indexed: number;
  unchanged: number;
  chunks: number;
  bytes: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** A few skipped paths per reason, to show what happened. */
  examples: Partial<Record<SkipReason, string[]>>;
  capped?: string;
  /** Another process (or call) is indexing this path right now: nothing was done here. */
  busyBy?: { pid: number; since: number };
}

export interface IndexOptions {
  /** Where symlinks may lead: a secret judged by its real path is one wherever it is. */
  workdirs: Workdirs;
  respectGitignore: boolean;
  signal?: AbortSignal;
  progress?: (done: number, total: number, message: string) => Promise<void>;
}

interface Candidate {
  abs: string;
  label: string;
  size: number;
  mtimeMs: number;
  /** A symlink met in a folder: judged, reported, never followed. */
  link?: boolean;
}

export function isBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8000);
  return head.includes(0);
}

function label(target: SafePath, rel: string): string {
  return target.relative ? `${target.relative}/${rel}` : rel;
}

async function candidates(fs: RuntimeFs, target: SafePath, options: IndexOptions): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for await (const e of walk(fs, {
    root: target.workdir,
    base: target.real,
    includeHidden: true,
    respectGitignore: options.respectGitignore,
    listOnlyDirs: UNENTERED_DIRS,
    excludeDirs: UNENTERED_DIRS,
    signal: options.signal,
  })) {
    if (e.type === 'symlink') out.push({ abs: e.path, label: label(target, e.rel), size: 0, mtimeMs: 0, link: true });
    if (e.type !== 'file') continue;
    const st = await fs.stat(e.path);
    if (st) out.push({ abs: e.path, label: label(target, e.rel), size: st.size, mtimeMs: st.mtimeMs });
  }
  return out;
}

export async function indexPath(fs: RuntimeFs, kb: KnowledgeStore, target: SafePath, options: IndexOptions): Promise<IndexReport> {
  const report: IndexReport = { path: target.relative || '.', indexed: 0, unchanged: 0, chunks: 0, bytes: 0, skipped: {}, examples: {} };
  const skip = (reason: SkipReason, path: string) => {
    report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
    const list = report.examples[reason] ?? [];
    report.examples[reason] = list;
    if (list.length < 3) list.push(path);
  };

  const st = await fs.stat(target.real);
  const single = st?.isFile === true;
  const secretTarget = judgeSecret(options.workdirs, { relative: target.relative, real: target.real, folder: !single });
  if (secretTarget) throw secretRefusal(target.relative || '.', secretTarget, 'indexed');
  if (single) {
    if (st.size > MAX_FILE_BYTES) {
      throw new AppError(ErrorCode.LimitExceeded, `'${target.relative}' is ${st.size} bytes; files over ${MAX_FILE_BYTES} bytes are not indexed`, {
        hint: 'index the folder holding the parts you need, or split the file',
      });
    }
  }
  const got = await kb.indexLease(`index:${target.real}`, LEASE_TTL_MS);
  if (!got.ok) {
    report.busyBy = { pid: got.holder.pid, since: got.holder.since };
    return report;
  }
  try {
    const files = single ? [{ abs: target.real, label: target.relative, size: st.size, mtimeMs: st.mtimeMs }] : await candidates(fs, target, options);
    await indexFiles({ fs, kb, single, options, report, skip, renew: () => got.lease.renew() }, files);
  } finally {
    await got.lease.release().catch(() => undefined);
  }
  return report;
}

interface IndexRun {
  fs: RuntimeFs;
  kb: KnowledgeStore;
  single: boolean;
  options: IndexOptions;
  report: IndexReport;
  skip: (reason: SkipReason, path: string) => void;
  renew: () => void;
}

interface Prepared {
  source: SourceInput;
  bytes: number;
}

/** Files wait here until a batch is full; the report counts them once their batch is committed. */
function createBatcher(run: IndexRun) {
  let batch: Prepared[] = [];
  let batchBytes = 0;
  return {
    queuedFiles: 0,
    queuedBytes: 0,
    /** True when the batch is full and should be flushed. */
    add(item: Prepared): boolean {
      batch.push(item);
      batchBytes += item.bytes;
      this.queuedFiles++;
      this.queuedBytes += item.bytes;
      return batch.length >= BATCH_FILES || batchBytes >= BATCH_BYTES;
    },
    async flush(): Promise<void> {
      if (!batch.length) return;
      const work = batch;
      batch = [];
      batchBytes = 0;
      try {
        await run.kb.saveAll(
          work.map((w) => w.source),
          run.renew,
        );
      } catch (error) {
        if (isStorageError(error) && run.report.indexed > 0) {
          throw new StorageError(error.reason, error.file, `${error.message} — ${run.report.indexed} files were indexed before this and stay searchable`, error.hint ?? '', error);
        }
        throw error;
      }
      for (const w of work) {
        run.report.indexed++;
        run.report.chunks += w.source.chunks.length;
        run.report.bytes += w.bytes;
      }
    },
  };
}

async function indexFiles(run: IndexRun, files: Candidate[]): Promise<void> {
  const { fs, kb, single, options, skip } = run;
  const batcher = createBatcher(run);
  let done = 0;
  for (const file of files) {
    if (options.signal?.aborted) break;
    done++;
    if (done % 100 === 0) await options.progress?.(done, files.length, `indexing ${file.label}`);
    if (file.link) {
      skip(judgeSecretPath(fs, options.workdirs, file.label, file.abs) ? 'secret' : 'symlink', file.label);
      continue;
    }
    if (!single && judgeSecret(options.workdirs, { relative: file.label, real: file.abs })) {
      skip('secret', file.label);
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      skip('too large', file.label);
      continue;
    }
    const key = `file:${file.abs}`;
    const known = await kb.source(key);
    if (known && known.mtime_ms === file.mtimeMs && known.size === file.size) {
      run.report.unchanged++;
      continue;
    }
    if (batcher.queuedFiles >= MAX_FILES || batcher.queuedBytes + file.size > MAX_TOTAL_BYTES) {
      run.report.capped = `stopped at ${batcher.queuedFiles} files / ${batcher.queuedBytes} bytes (limits: ${MAX_FILES} files, ${MAX_TOTAL_BYTES / 1024 / 1024} MB per call); index subfolders separately`;
      break;
    }
    let bytes: Uint8Array;
    try {
      // Judged again as opened: a hard link of a secret, key content, or a swap since the walk is refused.
      ({ bytes } = await readJudged(fs, options.workdirs, file.abs, 'indexed', { shown: file.label, maxBytes: MAX_FILE_BYTES }));
    } catch (error) {
      if (single) throw error;
      const secret = error instanceof AppError && error.code === ErrorCode.SecretRefused;
      skip(secret ? (/private key/.test(error.message) ? 'private key' : 'secret') : 'unreadable', file.label);
      continue;
    }
    if (isBinary(bytes)) {
      if (single) throw new AppError(ErrorCode.InvalidArgument, `'${file.label}' is a binary file`, { hint: 'only text is indexed' });
      skip('binary', file.label);
      continue;
    }
    const digest = fileDigest(bytes);
    // The same bytes at another time (another clone of the project, a touch): nothing to index again.
    if (known && known.size === bytes.length && known.digest === digest) {
      run.report.unchanged++;
      continue;
    }
    // A private key in it was refused by readJudged above (its content is judged as opened).
    const text = new TextDecoder().decode(bytes);
    const chunks = chunkDocument(text, file.label, formatFor(file.label));
    const full = batcher.add({ source: { key, kind: 'file', label: file.label, path: file.abs, mtimeMs: file.mtimeMs, size: file.size, digest, chunks }, bytes: bytes.length });
    if (full) await batcher.flush();
  }
  // The last report goes out before the final commit: the SDK client drops a progress notification
  // it reads in the same chunk as the response, and the commit's fsync keeps the two apart.
  if (files.length >= 100) await options.progress?.(files.length, files.length, 'indexed');
  await batcher.flush();
}
