// Compaction: merges segments into one, bucket by bucket (bounded memory), dropping the ids of files
// that changed or went away since. The merged segment's buckets are written in several transactions
// under a segment id nobody reads yet; one last transaction makes it live and drops the merged ones,
// so readers see either the old segments or the new one. Policy (tiered): a build leaves many
// segments of similar size, which merge into one; edits add small segments, which merge among
// themselves once there are several, and into the big one once they hold an eighth of the postings.
import type { Database } from '../storage/database.ts';
import { ByteWriter } from './postings.ts';
import { bucketRowId } from './schema.ts';
import { bitsFor, bucketOf, encodeBucket, MAX_BUCKET_BITS, mergeBuckets } from './segment.ts';

interface SegmentRow {
  [column: string]: number;
  id: number;
  bits: number;
  docs: number;
  min_doc: number;
  max_doc: number;
  postings: number;
  bytes: number;
}

export interface CompactOptions {
  renew?: () => void;
  stopped?: () => boolean;
  /** Lets the event loop run between batches. */
  pause?: () => Promise<void>;
}

const SMALL_SEGMENTS = 8;
/** Buckets written per transaction. */
const BUCKETS_PER_WRITE = 512;
/** Target buckets whose sources are read together. */
const WINDOW = 1024;

/** The segments a compaction should merge now (oldest first), or none. */
export function pickSegments(segments: readonly SegmentRow[]): SegmentRow[] {
  if (segments.length < 2) return [];
  const total = segments.reduce((n, s) => n + s.postings, 0);
  const big = segments.filter((s) => s.postings * 8 >= total);
  if (big.length !== 1) return [...segments];
  const last = segments.indexOf(big[0]!);
  const small = segments.slice(last + 1);
  return small.length >= SMALL_SEGMENTS || segments.length - 1 >= 2 * SMALL_SEGMENTS ? segments.filter((s) => s !== big[0]) : [];
}

/** Merges what the policy picks; the number of segments merged (0: nothing to do). */
export async function compact(db: Database, options: CompactOptions = {}): Promise<number> {
  // Leftovers of a compaction that stopped midway: its reserved segment and buckets.
  await db.writeTransaction(() => {
    db.run('DELETE FROM text_buckets WHERE (id >> 16) IN (SELECT id FROM text_segments WHERE bits < 0)');
    db.run('DELETE FROM text_segments WHERE bits < 0');
  });
  const segments = db.all<SegmentRow>('SELECT id, bits, docs, min_doc, max_doc, postings, bytes FROM text_segments ORDER BY min_doc');
  const picked = pickSegments(segments);
  if (picked.length < 2) return 0;
  const live = liveDocs(db);
  const postings = picked.reduce((n, s) => n + s.postings, 0);
  // Enough buckets for the trigrams the merged segment may hold (bounded by the widest input).
  const bits = Math.min(MAX_BUCKET_BITS, Math.max(bitsFor(postings / 64), ...picked.map((s) => s.bits)));
  // The merged segment's id, reserved (bits -1: readers skip it) until it is complete.
  const target = await db.writeTransaction(() => {
    db.run('INSERT INTO text_segments (bits, docs, min_doc, max_doc, postings, bytes) VALUES (-1, 0, 0, 0, 0, 0)');
    return db.lastInsertRowid();
  });
  const head = new ByteWriter(1 << 12);
  const body = new ByteWriter(1 << 16);
  let written: { id: number; data: Uint8Array }[] = [];
  let bytes = 0;
  let total = 0;
  const flush = async () => {
    const batch = written;
    written = [];
    await db.writeTransaction(() => {
      options.renew?.();
      for (const w of batch) db.run('INSERT INTO text_buckets (id, data) VALUES (?, ?)', [w.id, w.data]);
    });
  };
  let window = new Map<number, Uint8Array>();
  for (let b = 0; b < 2 ** bits; b++) {
    if (options.stopped?.()) return 0;
    if (b % WINDOW === 0) window = readWindow(db, picked, bits, b, Math.min(2 ** bits, b + WINDOW));
    const blobs: Uint8Array[] = [];
    for (const s of picked) {
      for (const k of sourceBuckets(s.bits, bits, b)) {
        const data = window.get(bucketRowId(s.id, k));
        if (data) blobs.push(data);
      }
    }
    if (!blobs.length) continue;
    const merged = mergeBuckets(blobs, (id) => live.has(id));
    // A wider source bucket also holds trigrams of the target's neighbours: keep this bucket's own.
    const grams: number[] = [];
    const lists: { ids: Uint32Array; start: number; end: number }[] = [];
    merged.grams.forEach((g, i) => {
      if (bucketOf(g, bits) !== b) return;
      grams.push(g);
      const ids = merged.lists[i]!;
      lists.push({ ids, start: 0, end: ids.length });
      total += ids.length;
    });
    if (!grams.length) continue;
    const data = encodeBucket(grams, lists, head, body);
    bytes += data.length;
    written.push({ id: bucketRowId(target, b), data });
    if (written.length >= BUCKETS_PER_WRITE) {
      await flush();
      await options.pause?.();
    }
  }
  await flush();
  const ids = picked.map((s) => s.id);
  await db.writeTransaction(() => {
    options.renew?.();
    const marks = ids.map(() => '?').join(', ');
    db.run('UPDATE text_segments SET bits = ?, docs = ?, min_doc = ?, max_doc = ?, postings = ?, bytes = ? WHERE id = ?', [
      bits,
      picked.reduce((n, s) => n + s.docs, 0),
      Math.min(...picked.map((s) => s.min_doc)),
      Math.max(...picked.map((s) => s.max_doc)),
      total,
      bytes,
      target,
    ]);
    for (const id of ids) db.run('DELETE FROM text_buckets WHERE id >= ? AND id < ?', [bucketRowId(id, 0), bucketRowId(id + 1, 0)]);
    db.run(`DELETE FROM text_segments WHERE id IN (${marks})`, ids);
    db.run('UPDATE text_state SET gen = gen + 1 WHERE id = 1');
  });
  return picked.length;
}

/** The buckets of a segment with `own` bits that hold trigrams of target bucket `b` (of `bits`). */
function sourceBuckets(own: number, bits: number, b: number): number[] {
  if (own <= bits) return [b >>> (bits - own)];
  const from = b * 2 ** (own - bits);
  return Array.from({ length: 2 ** (own - bits) }, (_, k) => from + k);
}

/** The source buckets for target buckets [from, to), read a few queries at a time. */
function readWindow(db: Database, picked: readonly SegmentRow[], bits: number, from: number, to: number): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  for (const s of picked) {
    const lo = sourceBuckets(s.bits, bits, from)[0]!;
    const last = sourceBuckets(s.bits, bits, to - 1);
    const hi = last[last.length - 1]!;
    const rows = db.all<{ id: number; data: Uint8Array }>('SELECT id, data FROM text_buckets WHERE id BETWEEN ? AND ?', [bucketRowId(s.id, lo), bucketRowId(s.id, hi)]);
    for (const r of rows) out.set(r.id, r.data);
  }
  return out;
}

/** Document ids the catalogue still points at. */
function liveDocs(db: Database): Set<number> {
  const rows = db.all<{ d: number }>('SELECT text_doc AS d FROM code_files WHERE text_doc IS NOT NULL');
  return new Set(rows.map((r) => r.d));
}
