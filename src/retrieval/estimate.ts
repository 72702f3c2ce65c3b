// A refusal proved from part of the candidates. When the text index names many files for a query the
// gate will refuse, reading all of them only to print exact counts costs what a full scan does (3,784
// files for spin_lock_irqsave on the Linux tree). The candidates are read in a fixed pseudo-random
// order instead, and reading stops once the files read hold more matching files and more hits than
// the gate allows — both limits broken is a refusal (compound) whatever the unread files hold — or
// once the share of the files read that matched puts both beyond doubt (beyondDoubt). The
// unread files are then estimated from what was read (the index says which folders they are in), so
// the distribution and the suggestions still say where the hits are; the reply says they are estimates.

/** What the unread candidates of one folder are expected to hold: hits, and how many of them match. */
export interface Expected {
  hits: number;
  files: number;
}

export interface Estimate {
  /** Candidates read (matching or not). */
  read: number;
  /** Candidates named by the index. */
  of: number;
  /**
   * What the unread candidates are expected to hold, folder by folder, each folder's under
   * unreadIn(folder): a name inside it that no file has, so that whatever counts files by their
   * folders counts these too — one entry a folder, not one a file (a refusal's gate went through
   * ~5,000 of them several times; the estimate is a folder's anyway).
   */
  expected: ReadonlyMap<string, Expected>;
}

/** The name no file has (a NUL) that stands for a folder's unread candidates. */
const UNREAD = '\u0000unread';

/** The key of the unread candidates of `folder` ('' for the top folder) in Estimate.expected. */
export function unreadIn(folder: string): string {
  return folder ? `${folder}/${UNREAD}` : UNREAD;
}

/** Hits and matching files over the scope: the files counted, plus what the unread ones are expected to hold. */
export function scopeTotals(counts: ReadonlyMap<string, number>, expected?: Estimate['expected']): { hits: number; files: number } {
  let hits = 0;
  for (const n of counts.values()) hits += n;
  let files = counts.size;
  for (const e of expected?.values() ?? []) {
    hits += e.hits;
    files += e.files;
  }
  return { hits, files };
}

/** FNV-1a: a fixed spread of paths, so the same query reads the same sample every time. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** hashOrder's packing: a hash times this, plus the file's index (a 32-bit hash leaves 21 bits below 2⁵³). */
const SLOTS = 2 ** 21;

/**
 * The files by their hashes (ties by name). Each hash and index packed in one number, sorted by the
 * engine's numeric sort with no comparator to call: a new server's first refusal orders ~5,000
 * candidates, and the callback sort took ~10 ms of it.
 */
function hashOrder(files: readonly string[]): string[] {
  const n = files.length;
  if (n >= SLOTS) return files.map((file) => ({ file, h: hash(file) })).sort((a, b) => a.h - b.h || byName(a.file, b.file)).map((x) => x.file);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = hash(files[i]!) * SLOTS + i;
  keys.sort();
  const hashAt = (i: number) => Math.floor(keys[i]! / SLOTS);
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = files[keys[i]! % SLOTS]!;
  // Equal hashes (rare) come in the input's order: put them in name order, so the order is the list's, whatever order it came in.
  for (let start = 0, end = 1; start < n; start = end, end = start + 1) {
    while (end < n && hashAt(end) === hashAt(start)) end++;
    if (end - start > 1) out.splice(start, end - start, ...out.slice(start, end).sort(byName));
  }
  return out;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Candidates of at least this size (generated tables, register headers, bundled sources) are sampled
 * at a lower rate. On the Linux tree they are 4% of `retry.*count`'s 5,212 candidates and 59% of
 * their 590 MB (26 register headers of 4–16 MB, none matching): a uniform sample of 512 read 68 MB
 * (median of 100 simulated orders), this one ~39 MB, with the estimates as close.
 */
export const BIG_FILE_BYTES = 256 << 10;
/** The lowest rate big files are sampled at, against the others'. */
const MIN_BIG_RATE = 1 / 16;

/** Which candidates sampleOrder takes as big (BIG_FILE_BYTES or more; an unknown size is small): estimateUnread's strata. */
export function bigFiles(sizeOf: (file: string) => number | undefined): (file: string) => boolean {
  return (file) => (sizeOf(file) ?? 0) >= BIG_FILE_BYTES;
}

/**
 * The order candidates are read in. Without sizes any prefix of it is a uniform sample of the whole
 * list. With them, two samples interleaved: of the candidates under BIG_FILE_BYTES (and those of
 * unknown size), any prefix is a uniform sample; of the big ones too, taken at a lower rate — the
 * square root of the ratio of their mean sizes (each sampled by what its reading costs, as a
 * stratified sample's optimal allocation does when a file's cost is its size), at least MIN_BIG_RATE.
 * The big ones left when the others run out come last. estimateUnread estimates each stratum on its own.
 */
export function sampleOrder(files: readonly string[], sizeOf?: (file: string) => number | undefined): string[] {
  if (!sizeOf) return hashOrder(files);
  const isBig = bigFiles(sizeOf);
  const small: string[] = [];
  const big: string[] = [];
  let smallBytes = 0;
  let bigBytes = 0;
  for (const file of files) {
    const size = sizeOf(file) ?? 0;
    if (isBig(file)) {
      big.push(file);
      bigBytes += size;
    } else {
      small.push(file);
      smallBytes += size;
    }
  }
  if (!big.length || !small.length) return hashOrder(files);
  const rate = Math.min(1, Math.max(MIN_BIG_RATE, Math.sqrt(smallBytes / small.length / (bigBytes / big.length))));
  const smallOrder = hashOrder(small);
  const bigOrder = hashOrder(big);
  const order: string[] = [];
  let b = 0;
  for (let i = 0; i < smallOrder.length; i++) {
    order.push(smallOrder[i]!);
    // After i + 1 of the small ones, the big ones read keep up with `rate` times their share.
    while (b < bigOrder.length && b + 1 <= ((i + 1) / smallOrder.length) * bigOrder.length * rate) order.push(bigOrder[b++]!);
  }
  for (; b < bigOrder.length; b++) order.push(bigOrder[b]!);
  return order;
}

/**
 * Where to look whether a sample proves the refusal: after every `batch` files from `min` on, while at
 * least a third of the candidates stays unread and no more than `max` are read (past that, reading
 * them all costs little more).
 */
export function sampleSteps(candidates: number, sizes: { batch: number; min: number; max: number }): number[] {
  const steps: number[] = [];
  const last = Math.min(sizes.max, Math.floor((candidates * 2) / 3));
  for (let k = sizes.min; k <= last; k += sizes.batch) steps.push(k);
  return steps;
}

/** How many files read a folder's own rate is worth against its parent's (see estimateUnread). */
const PRIOR_FILES = 8;

function parentOf(file: string): string {
  const cut = file.lastIndexOf('/');
  return cut < 0 ? '' : file.slice(0, cut);
}

/**
 * What the unread candidates of each folder are expected to hold (Estimate.expected: one entry a
 * folder, under unreadIn): the rate (hits per file read, and the share that
 * matched) of the folder, drawn toward its parent folder's rate as if PRIOR_FILES more files had been
 * read there, and so on up to the rate of the whole sample. A folder from which many files were read
 * speaks for itself (one whose files never match is estimated near zero, not at the average); one
 * barely sampled takes its parent's rate. Simulated on the Linux tree (five common terms, 150 samples
 * of 128 files each): the totals come within 10–15% (one in a thousand files matching: ~50%), and
 * the folder distribution is as close as with one rate for all. `big`: the sample was sampleOrder's
 * with sizes, and this tells its big files (bigFiles).
 */
export function estimateUnread(read: readonly string[], counts: ReadonlyMap<string, number>, unread: readonly string[], big?: (file: string) => boolean): Map<string, Expected> {
  if (!big) return byFolders(read, counts, unread);
  // Strata (sampleOrder): each one's unread files from its own files read while there are enough of them.
  const expected = new Map<string, Expected>();
  for (const inStratum of [(f: string) => !big(f), big]) {
    const left = unread.filter(inStratum);
    if (!left.length) continue;
    const own = read.filter(inStratum);
    for (const [key, e] of byFolders(own.length >= MIN_STRATUM_READ ? own : read, counts, left)) {
      const sum = expected.get(key);
      expected.set(key, sum ? { hits: sum.hits + e.hits, files: sum.files + e.files } : e);
    }
  }
  return expected;
}

/**
 * The chance that one of beyondDoubt's bounds is over the truth: one in 2,000 (each bound exact for
 * draws with replacement, and so safe for a sample without). Per look: a sample is looked at after
 * each of its rounds (a few, the steps jump), so a query whose truth lies just under the gate's limits
 * may be refused wrongly a few times in 2,000 samples — and since the order is fixed, every time it is
 * asked. Far under the limits, far less often than that.
 */
const DOUBT = 0.0005;
/** A stratum's share of matching files is bounded from this many files read in it on. */
const MIN_BOUND_READ = 64;

/** log(n!) by sums, cached (n ≤ a sample's size). */
const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[n]!;
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
function atLeast(k: number, n: number, p: number): number {
  let below = 0;
  for (let i = 0; i < k; i++) below += Math.exp(logFactorial(n) - logFactorial(i) - logFactorial(n - i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  return Math.max(0, 1 - below);
}

/**
 * The exact (Clopper–Pearson) one-sided lower bound of a share: the least p under which `k` or more
 * of `n` draws matching has a chance of DOUBT or more. A normal approximation (Wilson's) claims too
 * much from a handful of matches (4 of 128 said ≥ 0.7%; 0.5% gave that one time in 200).
 */
function lowerShare(k: number, n: number): number {
  if (k === 0 || n === 0) return 0;
  if (k === n) return DOUBT ** (1 / n);
  let lo = 0;
  let hi = k / n;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (atLeast(k, n, mid) < DOUBT) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Matching files and hits the candidates hold at the least, beyond reasonable doubt, from the first
 * `read` of sampleOrder's `order`: in each stratum (one without `big`), the share of its files read
 * that matched, bounded below (lowerShare: wrong once in 2,000 a look) and taken over all its files; each unread
 * matching file holds one hit at least. A refusal a sample cannot prove yet may be certain already:
 * `retry.*count` on the Linux tree matches 453 of its 5,212 candidates with 1,297 hits — proving 120
 * hits read ~700 files, this bound clears the limits after the first 128.
 */
export function beyondDoubt(order: readonly string[], read: number, counts: ReadonlyMap<string, number>, big?: (file: string) => boolean): { files: number; hits: number } {
  const strata = [
    { of: 0, read: 0, matched: 0 },
    { of: 0, read: 0, matched: 0 },
  ];
  let hits = 0;
  for (let i = 0; i < order.length; i++) {
    const stratum = strata[big?.(order[i]!) ? 1 : 0]!;
    stratum.of++;
    if (i >= read) continue;
    stratum.read++;
    const n = counts.get(order[i]!) ?? 0;
    if (n > 0) stratum.matched++;
    hits += n;
  }
  let files = 0;
  for (const s of strata) {
    const bound = s.read >= MIN_BOUND_READ ? lowerShare(s.matched, s.read) * s.of : 0;
    const least = Math.max(s.matched, Math.floor(bound));
    files += least;
    hits += least - s.matched;
  }
  return { files, hits };
}

/** A stratum's own files read speak for it from this many on; below, every file read does. */
const MIN_STRATUM_READ = 2 * PRIOR_FILES;

function byFolders(read: readonly string[], counts: ReadonlyMap<string, number>, unread: readonly string[]): Map<string, Expected> {
  const folders = new Map<string, { files: number; matched: number; hits: number }>();
  for (const file of read) {
    const hits = counts.get(file) ?? 0;
    for (let dir = parentOf(file); ; dir = parentOf(dir)) {
      const f = folders.get(dir) ?? { files: 0, matched: 0, hits: 0 };
      f.files++;
      if (hits > 0) f.matched++;
      f.hits += hits;
      folders.set(dir, f);
      if (dir === '') break;
    }
  }
  /** Per folder: hits per file, and the share of files that match. */
  const rates = new Map<string, { hits: number; p: number }>();
  const rateOf = (dir: string): { hits: number; p: number } => {
    const known = rates.get(dir);
    if (known) return known;
    const f = folders.get(dir) ?? { files: 0, matched: 0, hits: 0 };
    let rate: { hits: number; p: number };
    if (dir === '') rate = f.files ? { hits: f.hits / f.files, p: f.matched / f.files } : { hits: 0, p: 0 };
    else {
      const up = rateOf(parentOf(dir));
      const weight = f.files + PRIOR_FILES;
      rate = { hits: (f.hits + PRIOR_FILES * up.hits) / weight, p: (f.matched + PRIOR_FILES * up.p) / weight };
    }
    rates.set(dir, rate);
    return rate;
  };
  const unreadPer = new Map<string, number>();
  for (const file of unread) {
    const dir = parentOf(file);
    unreadPer.set(dir, (unreadPer.get(dir) ?? 0) + 1);
  }
  const expected = new Map<string, Expected>();
  for (const [dir, n] of unreadPer) {
    const rate = rateOf(dir);
    if (rate.hits > 0) expected.set(unreadIn(dir), { hits: rate.hits * n, files: rate.p * n });
  }
  return expected;
}
