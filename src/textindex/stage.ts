// The text stage of the refresh pass: reads every file whose size or mtime changed (and every file
// the text index has not taken yet), hashes it, and indexes the trigrams of those whose content
// changed. It runs before the parse stage: it is the stage that finds out whether a file's content
// changed (the catalogue's `version` goes up), which the parse stage then follows. Documents are
// collected in memory and written as one segment every few tens of MB, together with their
// catalogue rows in the same transaction, so a reader never sees a file marked indexed whose
// postings are not there.
import { createHash } from 'node:crypto';
import type { RuntimeFs } from '../runtime/types.ts';
import type { Database } from '../storage/database.ts';
import { bucketRowId } from './schema.ts';
import { SegmentBuilder } from './segment.ts';
import { isBinary, MAX_TEXT_FILE_BYTES, TrigramExtractor } from './trigrams.ts';

/** A file the text stage looks at: its catalogue row and its stat now. */
export interface TextWork {
  /** The catalogue row. */
  id: number;
  path: string;
  abs: string;
  /** Its stat now (the catalogue row still holds that of the version it knows). */
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** What the catalogue holds: the content hash of the version it knows ('' unknown) and its number. */
  hash: string;
  version: number;
  /** The stat does not prove the file is the version the catalogue row knows (file-identity.ts). */
  statChanged: boolean;
}

export interface TextStageOptions {
  db: Database;
  fs: RuntimeFs;
  /** Called inside every write transaction (the build lease's renew). */
  renew?: () => void;
  stopped?: () => boolean;
  /** Files done so far, every few hundred files. */
  onProgress?: (done: number) => void;
  /** Source bytes / postings / files held in memory before a segment is written (tests make them small). */
  flushBytes?: number;
  flushPostings?: number;
  flushRows?: number;
}

export interface TextStageResult {
  /** Files read. */
  read: number;
  /** Files whose trigrams were indexed. */
  indexed: number;
  /** Files found unchanged (same content hash: only their stat was recorded). */
  unchanged: number;
  segments: number;
}

interface RowUpdate {
  id: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** When the read that took it began. */
  takenAt: number;
  hash: string;
  version: number;
  /** A local document index in the segment being built, null (not indexed), or keep the current one. */
  doc: number | null | 'keep';
}

const FLUSH_BYTES = 64 * 1024 * 1024;
/**
 * Postings a segment collects before it is written: the segment builder's scratch arrays grow with
 * it and are kept for the whole stage (segment.ts). The text stage alone on the kernel's `drivers/`
 * (910 MB, 2026-12-02, run side by side): 12 Mi postings 544 MB peak RSS and 52.3 s CPU against 6 Mi
 * 436 MB and 51.5 s; then 6 Mi 385 MB and 50.2 s against 3 Mi 360 MB and 45.0 s (24 segments instead
 * of 14, compaction no slower: 52 s against 63 s, index 76.6 MB against 77.3 MB).
 */
const FLUSH_POSTINGS = 3 * 1024 * 1024;
const FLUSH_ROWS = 4000;
/** Reads kept in flight ahead of the one being indexed. */
const READ_AHEAD = 8;

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** The content hash of the file at `abs` as it is now; undefined when it cannot be read. */
export async function fileHash(fs: RuntimeFs, abs: string): Promise<string | undefined> {
  try {
    return hashBytes(await fs.readFile(abs));
  } catch {
    return undefined;
  }
}

/** Lets pending I/O and tool calls run (setImmediate where the runtime has it: no 1 ms timer floor). */
function yieldToLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

export async function runTextStage(work: readonly TextWork[], options: TextStageOptions): Promise<TextStageResult> {
  const { db, fs } = options;
  const flushBytes = options.flushBytes ?? FLUSH_BYTES;
  const flushPostings = options.flushPostings ?? FLUSH_POSTINGS;
  const flushRows = options.flushRows ?? FLUSH_ROWS;
  const builder = new SegmentBuilder();
  const extractor = new TrigramExtractor();
  const result: TextStageResult = { read: 0, indexed: 0, unchanged: 0, segments: 0 };
  let updates: RowUpdate[] = [];

  const read = (w: TextWork): Promise<Uint8Array | undefined> => (w.size > MAX_TEXT_FILE_BYTES ? Promise.resolve(undefined) : fs.readFile(w.abs).catch(() => undefined));
  const ahead: Promise<Uint8Array | undefined>[] = [];
  /** When each read in `ahead` began: an edit after it, in the same timestamp tick, must not go unseen. */
  const began: number[] = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < READ_AHEAD && next < work.length) {
      began.push(Date.now());
      ahead.push(read(work[next++]!));
    }
  };

  let lastYield = performance.now();
  for (let i = 0; i < work.length; i++) {
    if (options.stopped?.()) break;
    fill();
    const w = work[i]!;
    const bytes = await ahead.shift()!;
    const stat = { size: w.size, mtimeMs: w.mtimeMs, ctimeMs: w.ctimeMs, ino: w.ino, takenAt: began.shift()! };
    if (bytes) result.read++;
    const hash = bytes ? hashBytes(bytes) : '';
    if (w.statChanged && hash !== '' && hash === w.hash) {
      updates.push({ id: w.id, ...stat, hash, version: w.version, doc: 'keep' });
      result.unchanged++;
    } else {
      const version = w.statChanged ? w.version + 1 : w.version;
      let doc: number | null = null;
      if (bytes && !isBinary(bytes)) {
        doc = builder.add(extractor.extract(bytes), bytes.length);
        result.indexed++;
      }
      updates.push({ id: w.id, ...stat, hash, version, doc });
    }
    if (builder.sourceBytes >= flushBytes || builder.size >= flushPostings || updates.length >= flushRows) {
      if (await flush(db, builder, updates, options.renew)) result.segments++;
      updates = [];
    }
    if (i % 500 === 0) options.onProgress?.(i);
    if (performance.now() - lastYield > 20) {
      await yieldToLoop();
      lastYield = performance.now();
    }
  }
  // Reads still in flight when stopped early: let them settle unobserved.
  for (const p of ahead) p.catch(() => undefined);
  if (await flush(db, builder, updates, options.renew)) result.segments++;
  builder.release();
  options.onProgress?.(work.length);
  return result;
}

/** Writes the documents collected so far as one segment and their catalogue rows, in one transaction. */
async function flush(db: Database, builder: SegmentBuilder, updates: RowUpdate[], renew?: () => void): Promise<boolean> {
  if (!updates.length) return false;
  // Encoded before the transaction (ids relative to the segment's first): the write lock is held for the writes only.
  const docs = builder.docs;
  const seg = docs > 0 ? builder.finish() : undefined;
  const bytes = seg ? seg.buckets.reduce((n, b) => n + b.data.length, 0) : 0;
  return db.writeTransaction(() => {
    renew?.();
    const base = Number(db.value('SELECT next_doc FROM text_state WHERE id = 1'));
    let wrote = false;
    if (seg) {
      db.run('INSERT INTO text_segments (bits, docs, min_doc, max_doc, postings, bytes, words) VALUES (?, ?, ?, ?, ?, ?, 1)', [seg.bits, docs, base, base + docs - 1, seg.postings, bytes]);
      const id = db.lastInsertRowid();
      for (const b of seg.buckets) db.run('INSERT INTO text_buckets (id, data) VALUES (?, ?)', [bucketRowId(id, b.bucket), b.data]);
      db.run('UPDATE text_state SET next_doc = ? WHERE id = 1', [base + docs]);
      wrote = true;
    }
    for (const u of updates) {
      if (u.doc === 'keep') {
        db.run('UPDATE code_files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, taken_at = ?, hash = ?, text_of = version WHERE id = ?', [u.size, u.mtimeMs, u.ctimeMs, u.ino, u.takenAt, u.hash, u.id]);
      } else {
        db.run('UPDATE code_files SET size = ?, mtime_ms = ?, ctime_ms = ?, ino = ?, taken_at = ?, hash = ?, version = ?, text_of = ?, text_doc = ? WHERE id = ?', [u.size, u.mtimeMs, u.ctimeMs, u.ino, u.takenAt, u.hash, u.version, u.version, u.doc === null ? null : base + u.doc, u.id]);
      }
    }
    return wrote;
  });
}
