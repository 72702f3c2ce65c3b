// Compaction: merges segments into one, bucket by bucket (bounded memory), dropping the ids of files
// that changed or went away since. The merged segment's buckets are written in several transactions
// under a segment id nobody reads yet; one last transaction makes it live and drops the merged ones,
// so readers see either the old segments or the new one. Policy (tiered): a build leaves many
// segments of similar size, which merge into one; edits add small segments, which merge among
// themselves once there are several, and into the big one once they hold an eighth of the postings.
import type { Database } from '../storage/database.ts';
import { bucketRowId } from './schema.ts';
import { bucketOf, MAX_BUCKET_BITS } from './bucket.ts';
import { BucketMerger } from './segment.ts';

interface SegmentRow {
  [column: string]: number;
  id: number;
  bits: number;
  docs: number;
  min_doc: number;
  max_doc: number;
  postings: number;
  bytes: number;
  /** 1 when the segment holds word keys (see trigrams.ts). */
  words: number;
}

export interface CompactOptions {
  renew?: () => void;
  stopped?: () => boolean;
  /** Lets the event loop (or the work the caller puts first) run: every PAUSE_MS of merging. */
  pause?: () => Promise<void>;
}

/** Merging time between pauses (ms): a build's parse loop, which compaction runs beside, waits no longer. */
const PAUSE_MS = 10;

const SMALL_SEGMENTS = 8;
/** Segments merged at once (a merge reads one bucket of each at a time). */
const MAX_MERGE = 1000;
/** Buckets written per transaction. */
const BUCKETS_PER_WRITE = 512;
/** Target buckets whose sources are read together. */
const WINDOW = 1024;

/** The segments a compaction should merge now (oldest first), or none. */
export function pickSegments(segments: readonly SegmentRow[]): SegmentRow[] {
  if (segments.length < 2) return [];
  const total = segments.reduce((n, s) => n + s.postings, 0);
  const big = segments.filter((s) => s.postings * 8 >= total);
  if (big.length !== 1) return segments.slice(0, MAX_MERGE);
  const last = segments.indexOf(big[0]!);
  const small = segments.slice(last + 1);
  return small.length >= SMALL_SEGMENTS ? small.slice(0, MAX_MERGE) : [];
}

/** Merges what the policy picks; the number of segments merged (0: nothing to do). */
export async function compact(db: Database, options: CompactOptions = {}): Promise<number> {
  // Leftovers of a compaction that stopped midway: its reserved segment and buckets.
  await db.writeTransaction(() => {
    db.run('DELETE FROM text_buckets WHERE (id >> 18) IN (SELECT id FROM text_segments WHERE bits < 0)');
    db.run('DELETE FROM text_segments WHERE bits < 0');
  });
  const segments = db.all<SegmentRow>('SELECT id, bits, docs, min_doc, max_doc, postings, bytes, words FROM text_segments ORDER BY min_doc');
  const picked = pickSegments(segments);
  if (picked.length < 2) return 0;
  const live = liveDocs(db);
  // The merged segment holds more trigrams than any input: a few times the widest one's buckets.
  const bits = Math.min(MAX_BUCKET_BITS, Math.max(...picked.map((s) => s.bits)) + Math.min(2, Math.floor(Math.log2(picked.length))));
  // The merged segment's id, reserved (bits -1: readers skip it) until it is complete.
  const target = await db.writeTransaction(() => {
    db.run('INSERT INTO text_segments (bits, docs, min_doc, max_doc, postings, bytes) VALUES (-1, 0, 0, 0, 0, 0)');
    return db.lastInsertRowid();
  });
  const merger = new BucketMerger();
  const base = Math.min(...picked.map((s) => s.min_doc));
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
  let paused = performance.now();
  for (let b = 0; b < 2 ** bits; b++) {
    if (options.stopped?.()) return 0;
    if (options.pause && performance.now() - paused >= PAUSE_MS) {
      await options.pause();
      paused = performance.now();
    }
    if (b % WINDOW === 0) window = readWindow(db, picked, bits, b, Math.min(2 ** bits, b + WINDOW));
    const blobs: Uint8Array[] = [];
    const bases: number[] = [];
    for (const s of picked) {
      for (const k of sourceBuckets(s.bits, bits, b)) {
        const data = window.get(bucketRowId(s.id, k));
        if (data) {
          blobs.push(data);
          bases.push(s.min_doc);
        }
      }
    }
    if (!blobs.length) continue;
    const merged = merger.merge(blobs, bases, base, (g) => bucketOf(g, bits) === b, live);
    if (!merged) continue;
    total += merged.postings;
    const data = merged.data;
    bytes += data.length;
    written.push({ id: bucketRowId(target, b), data });
    if (written.length >= BUCKETS_PER_WRITE) await flush();
  }
  await flush();
  const ids = picked.map((s) => s.id);
  await db.writeTransaction(() => {
    options.renew?.();
    const marks = ids.map(() => '?').join(', ');
    // Word keys only when every merged segment with a live document had them (a word's list must be
    // whole); a segment whose documents are all dead adds nothing.
    const hasLive = (seg: SegmentRow) => {
      for (let d = seg.min_doc; d <= Math.min(seg.max_doc, live.length - 1); d++) if (live[d]) return true;
      return false;
    };
    db.run('UPDATE text_segments SET bits = ?, docs = ?, min_doc = ?, max_doc = ?, postings = ?, bytes = ?, words = ? WHERE id = ?', [
      bits,
      picked.reduce((n, s) => n + s.docs, 0),
      base,
      Math.max(...picked.map((s) => s.max_doc)),
      total,
      bytes,
      picked.every((s) => s.words || !hasLive(s)) ? 1 : 0,
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

/** Document ids the catalogue still points at, as a byte per id. */
function liveDocs(db: Database): Uint8Array {
  const max = Number(db.value('SELECT coalesce(max(max_doc), 0) FROM text_segments') ?? 0);
  const alive = new Uint8Array(max + 1);
  const list = String(db.value('SELECT group_concat(text_doc) FROM code_files WHERE text_doc IS NOT NULL') ?? '');
  for (const d of list ? list.split(',') : []) {
    const id = Number(d);
    if (id <= max) alive[id] = 1;
  }
  return alive;
}
