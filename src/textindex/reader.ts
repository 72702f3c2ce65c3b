// The text index's reader: narrows a search to the files whose trigrams can hold a match. Always a
// superset of the files that match now: files the index has not taken in their current version yet
// (new, changed, or the part not built yet) and files said to be touched since are candidates for
// every query. Decoded lists are cached per query only; the id → file table is kept until the
// catalogue changes (a counter every writer bumps, so other processes' writes are seen too).
import type { RuntimeFs } from '../runtime/types.ts';
import type { Database } from '../storage/database.ts';
import { provesUnchanged, TAKEN_COLUMNS, type TakenStat } from './file-identity.ts';
import { intersect, union } from './postings.ts';
import { type Plan, planQuery } from './query-plan.ts';
import { fileHash } from './stage.ts';
import { bucketRowId } from './schema.ts';
import { type BucketEntry, bucketOf, readBucketHeader } from './bucket.ts';
import { decodeList } from './postings.ts';
import type { TextCandidates, TextIndexReader, TextIndexStatus, TextQuery } from './types.ts';
import { createCatalogueReader } from './catalogue-read.ts';
import type { CatalogueSnapshot } from './catalogue-snapshot.ts';
import type { PathList } from './path-list.ts';

export interface TextIndexSource {
  root: string;
  fs: RuntimeFs;
  /** Opens the database (starting a build when due); undefined when there is none. */
  open(): Promise<Database | undefined>;
  /**
   * Whether the index on disk may answer: false until a new process has checked it against the disk
   * (a warm start's sweep), which may take changes in meanwhile. Always when not given.
   */
  confirmed?(): Promise<boolean>;
  /**
   * Whether the catalogue's files are there by the rules a walk of the root applies (not hidden, not
   * in a skipped folder, not gitignored), with no .gitignore changed since they were listed: then a
   * search may take that verdict for them (TextCandidates.catalogued). False when not given.
   */
  rulesCurrent?(): boolean;
  /** The database if already open (status is synchronous). */
  current(): Database | undefined;
  state(): TextIndexStatus['state'];
  error(): string | undefined;
  /** Files changed on disk: the owner takes their new versions soon. */
  onTouched?(paths: string[]): void;
  /**
   * The catalogue kept in a file for the next process (catalogue-snapshot.ts), written at a quiet
   * moment after this one read the table.
   */
  snapshot?: { file: CatalogueSnapshot; whenQuiet(): Promise<void> };
}

export { TEXT_EPOCH } from './catalogue-read.ts';

/** The catalogue as the reader needs it, read again when the catalogue changes. */
interface Live {
  gen: number;
  /** Catalogue paths, in table order. */
  paths: PathList;
  /** Their sizes when catalogued. */
  sizes: Uint32Array;
  /** Document id → index in `paths`, or -1 for a dead id. */
  docIndex: Int32Array;
  /** Indices of files not indexed in their current version. */
  pending: number[];
  isPending: Uint8Array;
  indexed: number;
  catalogued: boolean;
  segments: { id: number; bits: number; min_doc: number }[];
  /** Every segment holding a live document holds word keys (a word's list is whole). */
  words: boolean;
  bytes: number;
}

/** Dirty paths beyond this are not checked against the disk one by one (they stay candidates). */
const MAX_DIRTY_CHECKS = 2000;
/**
 * An AND stops decoding further trigrams once this few documents are left: the rest would cost more
 * to decode (common trigrams have the longest lists) than verifying a few extra files.
 */
const ENOUGH = 64;
/** Decoded posting lists kept between queries. */
const DECODED_CACHE_BYTES = 32 * 1024 * 1024;
/** When more of the scope than this is not indexed yet (the first build), the caller's scan is faster. */
const MAX_PENDING_SHARE = 0.5;

export interface TextIndexHandle extends TextIndexReader {
  state(): TextIndexStatus['state'];
  /**
   * Reads the catalogue as queries need it (paths, document ids; ~0.05–0.1 s for the Linux tree on
   * a loaded machine, most of it the database's first reads) ahead of the first query: a server's
   * warm start, before its client asks.
   */
  preload(db: Database): void;
  /** The plan's matching document ids (tests, benchmarks). */
  plan(query: TextQuery): Plan | undefined;
  /**
   * Touched paths the index will never take (ignored, hidden, secret, not a regular file), as judged
   * at `judgedAt` (ms since the epoch): they stop being candidates, unless touched again since.
   */
  forget(paths: Iterable<string>, judgedAt: number): void;
}

export function createTextIndexReader(source: TextIndexSource): TextIndexHandle {
  let live: Live | undefined;
  let counted: { gen: number; indexed: number; total: number; bytes: number } | undefined;
  /** Decoded posting lists of recent queries (the common trigrams recur), until the index changes. */
  const decoded = new Map<number, Uint32Array>();
  let decodedGen = -1;
  let decodedBytes = 0;
  /** Paths touched since they were indexed → when. */
  const dirty = new Map<string, number>();

  const catalogue = createCatalogueReader(source.snapshot);

  function load(db: Database): Live {
    const gen = Number(db.value('SELECT gen FROM text_state WHERE id = 1') ?? 0);
    if (live && live.gen === gen) return live;
    const rows = catalogue.rows(db, gen, live === undefined);
    const n = rows.paths.length;
    let maxDoc = 0;
    for (const d of rows.docs) if (d > maxDoc) maxDoc = d;
    const docIndex = new Int32Array(maxDoc + 1).fill(-1);
    const pending: number[] = [];
    const isPending = new Uint8Array(n);
    let indexed = 0;
    for (let i = 0; i < n; i++) {
      if (!rows.taken[i]) {
        pending.push(i);
        isPending[i] = 1;
      } else {
        indexed++;
        const d = rows.docs[i]!;
        if (d >= 0) docIndex[d] = i;
      }
    }
    const segments = db.all<{ id: number; bits: number; min_doc: number; max_doc: number; words: number }>('SELECT id, bits, min_doc, max_doc, words FROM text_segments WHERE bits >= 0 ORDER BY min_doc');
    const holdsLive = (s: { min_doc: number; max_doc: number }) => {
      for (let d = s.min_doc; d <= Math.min(s.max_doc, maxDoc); d++) if (docIndex[d]! >= 0) return true;
      return false;
    };
    const words = segments.every((s) => s.words === 1 || !holdsLive(s));
    const bytes = Number(db.value('SELECT coalesce(sum(bytes), 0) FROM text_segments WHERE bits >= 0') ?? 0);
    const catalogued = db.value("SELECT value FROM code_meta WHERE key = 'catalogued'") === '1';
    live = { gen, paths: rows.paths, sizes: rows.sizes, docIndex, pending, isPending, indexed, catalogued, segments, words, bytes };
    return live;
  }

  function evaluate(db: Database, state: Live, plan: Plan): Uint32Array | 'all' {
    const headers = new Map<number, { data: Uint8Array; entries: Map<number, BucketEntry> } | undefined>();
    if (decodedGen !== state.gen) {
      decoded.clear();
      decodedBytes = 0;
      decodedGen = state.gen;
    }
    const bucket = (seg: number, b: number) => {
      const id = bucketRowId(seg, b);
      if (!headers.has(id)) {
        const data = db.value('SELECT data FROM text_buckets WHERE id = ?', [id]) as Uint8Array | undefined;
        headers.set(id, data ? { data, entries: new Map(readBucketHeader(data).entries.map((e) => [e.gram, e])) } : undefined);
      }
      return headers.get(id);
    };
    /** Where a trigram's list lies in each segment, and how many ids it has in all. */
    const locate = (gram: number) => {
      const parts: { data: Uint8Array; entry: BucketEntry; base: number }[] = [];
      const known = decoded.get(gram);
      if (known) return { gram, parts, count: known.length };
      let count = 0;
      for (const s of state.segments) {
        const b = bucket(s.id, bucketOf(gram, s.bits));
        const entry = b?.entries.get(gram);
        if (b && entry) {
          parts.push({ data: b.data, entry, base: s.min_doc });
          count += entry.count;
        }
      }
      return { gram, parts, count };
    };
    const cached = (gram: number): Uint32Array | undefined => {
      const list = decoded.get(gram);
      if (list) {
        decoded.delete(gram);
        decoded.set(gram, list);
      }
      return list;
    };
    const decode = (where: ReturnType<typeof locate>): Uint32Array => {
      let list = cached(where.gram);
      if (list) return list;
      list = new Uint32Array(where.count);
      let n = 0;
      for (const p of where.parts) n = decodeList(p.data, p.entry.offset, p.entry.bytes, p.entry.count, list, n, p.base);
      // Segments come oldest first with ascending ids; compaction may leave them interleaved.
      for (let i = 1; i < n; i++) {
        if (list[i]! <= list[i - 1]!) {
          list.sort();
          break;
        }
      }
      decoded.set(where.gram, list);
      decodedBytes += list.byteLength;
      while (decodedBytes > DECODED_CACHE_BYTES && decoded.size > 1) {
        const [oldest, old] = decoded.entries().next().value as [number, Uint32Array];
        decoded.delete(oldest);
        decodedBytes -= old.byteLength;
      }
      return list;
    };
    const run = (p: Plan): Uint32Array | 'all' => {
      switch (p.op) {
        case 'all':
          return 'all';
        case 'gram':
          return decode(locate(p.gram));
        case 'word':
          return state.words ? decode(locate(p.key)) : run(p.otherwise);
        case 'and': {
          // Trigrams first, shortest list first; stop when little is left or nothing.
          const grams = p.subs.filter((s) => s.op === 'gram').map((s) => locate((s as { gram: number }).gram));
          grams.sort((a, b) => a.count - b.count);
          let acc: Uint32Array | 'all' = 'all';
          for (const g of grams) {
            if (acc !== 'all' && acc.length <= ENOUGH) break;
            acc = acc === 'all' ? decode(g) : intersect(acc, decode(g));
            if (acc.length === 0) return acc;
          }
          for (const s of p.subs) {
            if (s.op === 'gram') continue;
            if (acc !== 'all' && acc.length <= ENOUGH) break;
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

  /**
   * Forgets touched files the index has taken since (their row's stat proves the file is that
   * version) — judged on the rows of the catalogue state the query read (`state.gen`): a row taken
   * after it is not in that state's candidates, so its file stays a candidate of this query.
   */
  async function settleDirty(db: Database, state: Live): Promise<void> {
    if (!dirty.size || dirty.size > MAX_DIRTY_CHECKS) return;
    for (const p of [...dirty.keys()]) {
      const st = await source.fs.stat(`${source.root}/${p}`);
      const seen = db.readTransaction(() => ({
        gen: Number(db.value('SELECT gen FROM text_state WHERE id = 1') ?? 0),
        row: db.get<TakenStat & { hash: string; taken: number }>(`SELECT ${TAKEN_COLUMNS}, hash, text_of = version AS taken FROM code_files WHERE path = ?`, [p]),
      }));
      if (seen.gen !== state.gen) return;
      const { row } = seen;
      if (!row) {
        if (!st) dirty.delete(p);
        continue;
      }
      if (!row.taken || !st?.isFile || row.size !== st.size) continue;
      // The stat cannot tell a file written in the tick it was read in: its content hash can.
      if (provesUnchanged(row, st) || (row.hash !== '' && (await fileHash(source.fs, `${source.root}/${p}`)) === row.hash)) dirty.delete(p);
    }
  }

  /** The catalogue's files under the folder `prefix` ('' for all): the last scope asked is kept. */
  let lastScope: { state: Live; prefix: string; within: Uint8Array | undefined; size: number } | undefined;
  function scopeOf(state: Live, prefix: string): { within: Uint8Array | undefined; size: number } {
    if (prefix === '') return { within: undefined, size: state.paths.length };
    if (lastScope?.state === state && lastScope.prefix === prefix) return lastScope;
    const within = new Uint8Array(state.paths.length);
    const size = state.paths.markUnder(prefix, within);
    lastScope = { state, prefix, within, size };
    return lastScope;
  }

  return {
    plan: (query) => planQuery(query),

    async candidates(query: TextQuery, scope: string, signal?: AbortSignal): Promise<TextCandidates | undefined> {
      const db = await source.open();
      if (!db || signal?.aborted) return undefined;
      const plan = planQuery(query);
      if (!plan) return undefined;
      const read = () =>
        db.readTransaction(() => {
          const state = load(db);
          return state.catalogued ? { state, docs: evaluate(db, state, plan) } : undefined;
        });
      // Read while a warm start's sweep runs (its stats in a process of their own); read again when
      // the sweep took changes (every writer bumps the counter).
      let found = read();
      if (source.confirmed && !(await source.confirmed())) return undefined;
      if (found && Number(db.value('SELECT gen FROM text_state WHERE id = 1') ?? 0) !== found.state.gen) found = read();
      if (!found || found.docs === 'all') return undefined;
      const { state, docs } = found;
      await settleDirty(db, state);
      const prefix = scope.replace(/^\/+|\/+$/g, '');
      const { within, size: inScope } = scopeOf(state, prefix);
      const picked = new Uint8Array(state.paths.length);
      const indexes: number[] = [];
      const pick = (i: number) => {
        picked[i] = 1;
        indexes.push(i);
      };
      for (const d of docs) {
        const i = d < state.docIndex.length ? state.docIndex[d]! : -1;
        if (i >= 0 && (!within || within[i]) && !picked[i]) pick(i);
      }
      let pendingInScope = 0;
      for (const i of state.pending) {
        if (within && !within[i]) continue;
        pendingInScope++;
        if (!picked[i]) pick(i);
      }
      if (pendingInScope > inScope * MAX_PENDING_SHARE) return undefined;
      const files = state.paths.atAll(indexes);
      const sizes = new Map<string, number>();
      for (let k = 0; k < indexes.length; k++) sizes.set(files[k]!, state.sizes[indexes[k]!]!);
      const extra = new Set<string>();
      for (const p of dirty.keys()) {
        if (sizes.has(p) || !(prefix === '' || p === prefix || p.startsWith(`${prefix}/`))) continue;
        files.push(p);
        extra.add(p);
      }
      files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      // Touched files the catalogue does not hold were judged by no one yet.
      const catalogued = source.rulesCurrent?.() ? (p: string) => !extra.has(p) : undefined;
      return { files, ruledOut: Math.max(0, inScope - files.length), sizeOf: (p) => sizes.get(p), ...(catalogued ? { catalogued } : {}) };
    },

    forget(paths: Iterable<string>, judgedAt: number): void {
      for (const p of paths) if ((dirty.get(p) ?? Number.POSITIVE_INFINITY) <= judgedAt) dirty.delete(p);
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

    state: () => source.state(),

    preload(db: Database): void {
      db.readTransaction(() => load(db));
    },

    status(): TextIndexStatus {
      const state = source.state();
      const db = source.current();
      const error = source.error();
      try {
        if (db) {
          const gen = Number(db.value('SELECT gen FROM text_state WHERE id = 1') ?? 0);
          if (live?.gen === gen) counted = { gen, indexed: live.indexed, total: live.paths.length, bytes: live.bytes };
          else if (counted?.gen !== gen) {
            const row = db.get<{ total: number; indexed: number | null }>('SELECT count(*) AS total, sum(text_of = version) AS indexed FROM code_files');
            const bytes = Number(db.value('SELECT coalesce(sum(bytes), 0) FROM text_segments WHERE bits >= 0') ?? 0);
            counted = { gen, indexed: Number(row?.indexed ?? 0), total: Number(row?.total ?? 0), bytes };
          }
        }
      } catch {
        // a busy or closed database: the last counts stand
      }
      return { state, indexed: counted?.indexed ?? 0, total: counted?.total ?? 0, bytes: counted?.bytes ?? 0, ...(error ? { error } : {}) };
    },
  };
}
