// The text index's reader: narrows a search to the files whose trigrams can hold a match. Always a
// superset of the files that match now: files the index has not taken in their current version yet
// (new, changed, or the part not built yet) and files said to be touched since are candidates for
// every query. Decoded lists are cached per query only; the id → file table is kept until the
// catalogue changes (a counter every writer bumps, so other processes' writes are seen too).
import type { RuntimeFs } from '../runtime/types.ts';
import type { Database } from '../storage/database.ts';
import { intersect, union } from './postings.ts';
import { type Plan, planQuery } from './query-plan.ts';
import { bucketRowId } from './schema.ts';
import { bucketOf, postingsIn } from './segment.ts';
import type { TextCandidates, TextIndexReader, TextIndexStatus, TextQuery } from './types.ts';

export interface TextIndexSource {
  root: string;
  fs: RuntimeFs;
  /** Opens the database (starting a build when due); undefined when there is none. */
  open(): Promise<Database | undefined>;
  /** The database if already open (status is synchronous). */
  current(): Database | undefined;
  state(): TextIndexStatus['state'];
  error(): string | undefined;
  /** Files changed on disk: the owner takes their new versions soon. */
  onTouched?(paths: string[]): void;
}

/** The catalogue as the reader needs it, read again when the catalogue changes. */
interface Live {
  gen: number;
  /** Catalogue paths, sorted. */
  paths: string[];
  /** Document id → index in `paths`, or -1 for a dead id. */
  docIndex: Int32Array;
  /** Indices of files not indexed in their current version. */
  pending: number[];
  isPending: Uint8Array;
  sizes: Float64Array;
  mtimes: Float64Array;
  indexed: number;
  catalogued: boolean;
  segments: { id: number; bits: number }[];
  bytes: number;
}

interface FileRow {
  [column: string]: string | number | null;
  path: string;
  size: number;
  mtime_ms: number;
  version: number;
  text_of: number;
  text_doc: number | null;
}

/** Dirty paths beyond this are not checked against the disk one by one (they stay candidates). */
const MAX_DIRTY_CHECKS = 2000;

export interface TextIndexHandle extends TextIndexReader {
  /** The plan's matching document ids (tests, benchmarks). */
  plan(query: TextQuery): Plan | undefined;
}

export function createTextIndexReader(source: TextIndexSource): TextIndexHandle {
  let live: Live | undefined;
  /** Paths touched since they were indexed → when. */
  const dirty = new Map<string, number>();

  function load(db: Database): Live {
    const gen = Number(db.value('SELECT gen FROM text_state WHERE id = 1') ?? 0);
    if (live && live.gen === gen) return live;
    const rows = db.all<FileRow>('SELECT path, size, mtime_ms, version, text_of, text_doc FROM code_files');
    rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    let maxDoc = 0;
    for (const r of rows) if (r.text_doc !== null && r.text_doc > maxDoc) maxDoc = r.text_doc;
    const docIndex = new Int32Array(maxDoc + 1).fill(-1);
    const pending: number[] = [];
    const isPending = new Uint8Array(rows.length);
    const sizes = new Float64Array(rows.length);
    const mtimes = new Float64Array(rows.length);
    let indexed = 0;
    rows.forEach((r, i) => {
      sizes[i] = r.size;
      mtimes[i] = r.mtime_ms;
      if (r.text_of !== r.version) {
        pending.push(i);
        isPending[i] = 1;
      } else {
        indexed++;
        if (r.text_doc !== null) docIndex[r.text_doc] = i;
      }
    });
    const segments = db.all<{ id: number; bits: number }>('SELECT id, bits FROM text_segments WHERE bits >= 0 ORDER BY min_doc');
    const bytes = Number(db.value('SELECT coalesce(sum(bytes), 0) FROM text_segments WHERE bits >= 0') ?? 0);
    const catalogued = db.value("SELECT value FROM code_meta WHERE key = 'catalogued'") === '1';
    live = { gen, paths: rows.map((r) => r.path), docIndex, pending, isPending, sizes, mtimes, indexed, catalogued, segments, bytes };
    return live;
  }

  function evaluate(db: Database, state: Live, plan: Plan): Uint32Array | 'all' {
    const blobs = new Map<number, Uint8Array | undefined>();
    const lists = new Map<number, Uint32Array>();
    const bucket = (seg: number, b: number) => {
      const id = bucketRowId(seg, b);
      if (!blobs.has(id)) blobs.set(id, db.value('SELECT data FROM text_buckets WHERE id = ?', [id]) as Uint8Array | undefined);
      return blobs.get(id);
    };
    const gramList = (gram: number): Uint32Array => {
      let list = lists.get(gram);
      if (list) return list;
      list = new Uint32Array(0);
      for (const s of state.segments) {
        const data = bucket(s.id, bucketOf(gram, s.bits));
        if (data) list = union(list, postingsIn(data, gram));
      }
      lists.set(gram, list);
      return list;
    };
    const run = (p: Plan): Uint32Array | 'all' => {
      switch (p.op) {
        case 'all':
          return 'all';
        case 'gram':
          return gramList(p.gram);
        case 'and': {
          // Trigrams first, smallest list first; an empty result ends it.
          const parts = p.subs.filter((s) => s.op === 'gram').map((s) => gramList((s as { gram: number }).gram));
          parts.sort((a, b) => a.length - b.length);
          let acc: Uint32Array | 'all' = 'all';
          for (const l of parts) {
            acc = acc === 'all' ? l : intersect(acc, l);
            if (acc.length === 0) return acc;
          }
          for (const s of p.subs) {
            if (s.op === 'gram') continue;
            const r = run(s);
            if (r === 'all') continue;
            acc = acc === 'all' ? r : intersect(acc, r);
            if (acc.length === 0) return acc;
          }
          return acc;
        }
        case 'or': {
          let acc: Uint32Array = new Uint32Array(0);
          for (const s of p.subs) {
            const r = run(s);
            if (r === 'all') return 'all';
            acc = union(acc, r);
          }
          return acc;
        }
      }
    };
    return run(plan);
  }

  /** Forgets touched files the index has taken since (their row's stat is the file's stat now). */
  async function settleDirty(state: Live): Promise<void> {
    if (!dirty.size || dirty.size > MAX_DIRTY_CHECKS) return;
    for (const p of [...dirty.keys()]) {
      const i = indexOfPath(state.paths, p);
      const st = await source.fs.stat(`${source.root}/${p}`);
      if (i < 0) {
        if (!st) dirty.delete(p);
        continue;
      }
      if (st?.isFile && st.size === state.sizes[i] && st.mtimeMs === state.mtimes[i] && !state.isPending[i]) dirty.delete(p);
    }
  }

  return {
    plan: (query) => planQuery(query),

    async candidates(query: TextQuery, scope: string, signal?: AbortSignal): Promise<TextCandidates | undefined> {
      const db = await source.open();
      if (!db || signal?.aborted) return undefined;
      const plan = planQuery(query);
      if (!plan) return undefined;
      const state = load(db);
      if (!state.catalogued) return undefined;
      const docs = evaluate(db, state, plan);
      if (docs === 'all') return undefined;
      await settleDirty(state);
      const prefix = scope.replace(/^\/+|\/+$/g, '');
      const [from, to] = scopeRange(state.paths, prefix);
      const picked = new Uint8Array(state.paths.length);
      for (const d of docs) {
        const i = d < state.docIndex.length ? state.docIndex[d]! : -1;
        if (i >= from && i < to) picked[i] = 1;
      }
      for (const i of state.pending) if (i >= from && i < to) picked[i] = 1;
      const files: string[] = [];
      for (let i = from; i < to; i++) if (picked[i]) files.push(state.paths[i]!);
      const inScope = to - from;
      const known = new Set(files);
      for (const p of dirty.keys()) {
        if (known.has(p) || !(prefix === '' || p === prefix || p.startsWith(`${prefix}/`))) continue;
        files.push(p);
        known.add(p);
      }
      files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return { files, ruledOut: Math.max(0, inScope - files.length) };
    },

    touched(paths: Iterable<string>): void {
      const now = Date.now();
      const list: string[] = [];
      for (const p of paths) {
        const rel = p.replace(/^\.?\/+/, '');
        dirty.set(rel, now);
        list.push(rel);
      }
      if (list.length) source.onTouched?.(list);
    },

    status(): TextIndexStatus {
      const state = source.state();
      const db = source.current();
      let view: Live | undefined;
      try {
        view = db ? load(db) : live;
      } catch {
        view = live;
      }
      const error = source.error();
      return { state, indexed: view?.indexed ?? 0, total: view?.paths.length ?? 0, bytes: view?.bytes ?? 0, ...(error ? { error } : {}) };
    },
  };
}

/** Index of `p` in sorted `paths`, or -1. */
function indexOfPath(paths: readonly string[], p: string): number {
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (paths[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return paths[lo] === p ? lo : -1;
}

/** The index range of sorted `paths` that lie under the folder `prefix` ('' for all). */
function scopeRange(paths: readonly string[], prefix: string): [number, number] {
  if (prefix === '') return [0, paths.length];
  const exact = indexOfPath(paths, prefix);
  if (exact >= 0) return [exact, exact + 1];
  const lower = `${prefix}/`;
  // '0' is the character after '/': the first path past the folder.
  const upper = `${prefix}0`;
  const at = (key: string) => {
    let lo = 0;
    let hi = paths.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (paths[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [at(lower), at(upper)];
}
