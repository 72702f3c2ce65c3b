// The FileIO adapter: scans the project (ripgrep when present, the built-in engine otherwise) with
// .gitignore rules, scan.excludeDirs, and binary and huge files skipped; reads files as lines.
import * as path from 'node:path';
import { languageOf } from '../code/languages.ts';
import type { SafePath, Workdirs } from '../security/resolve-safe.ts';
import { readJudged } from '../security/secret-read.ts';
import type { TextCandidates } from '../textindex/types.ts';
import { type Admission, createAdmission } from '../workspace/grep/admission.ts';
import { admittedPaths, regularFiles } from '../workspace/grep/filelist.ts';
import { countMatches, grep, scanList } from '../workspace/grep/index.ts';
import type { GrepFile, GrepQuery, GrepResult, SkippedFile } from '../workspace/grep/types.ts';
import { beyondDoubt, bigFiles, type Estimate, estimateUnread, sampleOrder, sampleSteps, scopeTotals } from './estimate.ts';
import { kindOfLine } from './kinds.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import type { Hit, RetrievalDeps } from './types.ts';

/** Most hits one scan collects; beyond it the counts are lower bounds. */
export const SCAN_CAP = 5000;
/**
 * More index candidates than this are not worth reading one by one when ripgrep can scan the scope
 * (a trigram common to most files, an index still building): in process they are read at about
 * 1,000 files per 30–40 ms here, ripgrep walks the Linux tree's 78,579 in ~500 ms on two cores.
 */
const CANDIDATES_MAX = 15_000;
/**
 * Up to this many named files for a regex (index candidates, a probe's files), the built-in engine
 * reads them; past it ripgrep does, when installed. On the Linux tree, side by side: retry.*count's
 * 5,170 candidates (452 match) 353–384 ms on ripgrep vs 481–671 in process; spin_lock_irqsave's
 * 3,784 (3,718 match) 423–473 vs 214–301.
 */
const LIST_BUILTIN_MAX_FILES = 1500;
/**
 * A refusal is proved from a sample of at least `min` candidates, read `batch` at a time (at most
 * `max`; past that the rest is read too). The sample's size is what the proof needs, and the
 * estimates of the unread files are as good as the sample is big: on the Linux tree kmalloc_array
 * (1,080 candidates, 683 match) is proved after 128 files read, retry.*count (5,170, one in eleven
 * matches) after about 500; the estimated totals come within about a tenth of the true ones.
 */
const SAMPLE = { batch: 64, min: 128, max: 2048 };
/** Of a sample, the first this many files give their lines (scores, tokens per hit); the rest are only counted. */
const SAMPLE_LINE_FILES = 48;

export interface ScanRequest {
  pattern: string;
  literal: boolean;
  wordBoundary: boolean;
  ignoreCase: boolean;
  scope: SafePath;
  exclude: readonly string[];
  /** For symbol queries: classify lines against this name. */
  symbol?: string;
  /**
   * The caller takes which lines define `symbol` from the code index in the files it parses: the
   * line heuristics look for definitions only in the others (the caller asks them again if the index
   * cannot answer: kindsByLine).
   */
  definitionsByIndex?: boolean;
  /**
   * The gate will refuse past these (matching files and hits both): the index's candidates may then
   * be read only until the files read prove it, the rest estimated. Absent: every match is counted.
   */
  refuseAt?: { files: number; hits: number };
  /** Only files this admits are wanted (the rest are answered elsewhere): the others need not be read. */
  onlyFiles?: (relRoot: string) => boolean;
  /**
   * Only these files can match (relative to the workdir; from an earlier scan of the same scope for
   * a text every match of this pattern holds): they are read instead of the scope being walked.
   */
  within?: readonly string[];
  /**
   * Every file naming the pattern (a literal) as a whole word, in this case, relative to the workdir:
   * a definition lookup's scan before the first build (Definitions.naming). They are admitted and
   * read instead of the scope being walked; only for a whole-word, case-sensitive literal.
   */
  naming?: readonly string[];
  signal?: AbortSignal;
}

export interface ScanResult {
  hits: Hit[];
  /** More matches exist than SCAN_CAP. */
  capped: boolean;
  /** When capped: matches per file over the whole scope, so totals and distribution stay true. */
  counts?: Map<string, number>;
  /** A refusal proved from a sample: `counts` holds the files read, this the files not read. */
  estimate?: Estimate;
  /** The counts prove the refusal (refuseAt): the hits are the lines of a sample of the files only. */
  sampled?: boolean;
  /** Files the built-in engine could not search in time: their matches are missing. */
  skipped?: SkippedFile[];
}

export async function scan(deps: RetrievalDeps, req: ScanRequest): Promise<ScanResult> {
  const query = {
    pattern: req.pattern,
    literal: req.literal,
    ignoreCase: req.ignoreCase,
    context: 0,
    limit: SCAN_CAP,
    wordBoundary: req.wordBoundary,
    excludeDirs: deps.config.scan.excludeDirs,
    excludePaths: req.exclude,
    // Unsorted ripgrep counts with every core; the lines are then read in path order.
    sorted: false,
  };
  const admits = req.onlyFiles;
  const skipped = new Map<string, SkippedFile>();
  const onSkipped = (f: SkippedFile) => void skipped.set(f.path, f);
  const withSkipped = (r: ScanResult): ScanResult => (skipped.size ? { ...r, skipped: [...skipped.values()] } : r);
  // Which files this request may see, decided once: every list and engine below reads it. Made
  // while the index is asked (a new process walks the folders for secret identities meanwhile).
  const admitting = createAdmission({ fs: deps.runtime.fs, workdirs: deps.workdirs }, req.scope, query);
  admitting.catch(() => undefined);
  // A list from a scan of the same text (whole word, this case) stands in for the index's candidates.
  const named = req.naming && req.literal && req.wordBoundary && !req.ignoreCase ? req.naming : undefined;
  const indexed = req.within || named ? undefined : await indexCandidates(deps, req);
  const admission = await admitting;
  const candidates = admits && indexed ? indexed.files.filter(admits) : indexed?.files;
  const catalogued = indexed?.catalogued;
  if (candidates && req.refuseAt) {
    const proved = await sampledRefusal(deps, req, query, admission, { files: candidates, catalogued, sizeOf: indexed?.sizeOf }, req.refuseAt, onSkipped);
    if (proved) return withSkipped(proved);
  }
  const listed = req.within ? req.within.filter(admits ?? (() => true)) : named ? admittedPaths(admission, named.filter(admits ?? (() => true))) : candidates && admitCandidates(deps, admission, candidates, catalogued);
  deps.logger.log('fileio_scan', { scope: req.scope.relative || '.', patternType: req.literal ? 'string' : 'regex', ...(listed ? { files: listed.length } : {}) });
  let counts: Map<string, number>;
  let result: GrepResult;
  let sampled = false;
  // Named files are read in process (no process to start). Many of them for a regex — whose trigrams
  // narrow less, so most candidates do not match — ripgrep counts on every core, and only the files
  // it counts are read again (for NUL bytes and lines). For a literal nearly every candidate matches,
  // and that second read would cost more than ripgrep saves.
  const rgList = listed !== undefined && !req.literal && listed.length > LIST_BUILTIN_MAX_FILES && deps.runtime.which('rg') !== undefined;
  if (listed && !rgList) {
    // Each read once, counted on its bytes, lines built for the first files only.
    ({ counts, result } = await scanList(deps, req.scope, { ...query, sorted: true }, listed, req.signal, admission));
    for (const f of result.skipped ?? []) onSkipped(f);
  } else {
    // Counts first (cheap: no line is built), then lines only from the files that hold the first
    // SCAN_CAP + 1 matches: a refusal on a common term costs about what an answer on a rare one does.
    // ripgrep follows a symlink it is named: the list keeps regular files only.
    const named = rgList ? { engine: 'rg' as const, files: regularFiles(deps.runtime.fs, req.scope.workdir, listed!) } : {};
    counts = await countMatches(deps, req.scope, query, { signal: req.signal, onSkipped, admission, ...named });
    if (admits) for (const file of counts.keys()) if (!admits(file)) counts.delete(file);
    let total = 0;
    for (const n of counts.values()) total += n;
    // A refusal the counts prove needs the lines of a sample only (scores, tokens per hit).
    sampled = req.refuseAt !== undefined && counts.size > req.refuseAt.files && total > req.refuseAt.hits;
    const lineFiles = sampled ? sampleOrder([...counts.keys()]).slice(0, SAMPLE_LINE_FILES).sort() : firstFiles(counts, SCAN_CAP);
    const wanted = lineFiles.map((file) => {
      const abs = path.join(req.scope.workdir, file);
      return { abs, relRoot: file, size: deps.runtime.fs.statSync(abs)?.size ?? 0 };
    });
    if (!wanted.length) return withSkipped({ hits: [], capped: false });
    // A sample's few files are read here, in this thread: starting ripgrep or a grep worker for them
    // cost more than reading them (a fresh server's first search: ~30 and ~100 ms).
    const inThread = sampled ? { engine: 'builtin' as const } : {};
    result = await grep(sampled ? { ...deps, grepPool: undefined } : deps, req.scope, { ...query, sorted: true }, { signal: req.signal, files: wanted, onSkipped, admission, ...inThread });
  }
  const hits = hitsOf(req, admits ? result.files.filter((f) => admits(f.path)) : result.files);
  if (sampled) return withSkipped({ hits, capped: true, counts, sampled });
  if (!result.truncated) return withSkipped({ hits, capped: false });
  return withSkipped({ hits, capped: true, counts });
}

/** The files, in path order, that hold the first `cap` + 1 matches. */
function firstFiles(counts: ReadonlyMap<string, number>, cap: number): string[] {
  let total = 0;
  const out: string[] = [];
  for (const file of [...counts.keys()].sort()) {
    if (total > cap) break;
    total += counts.get(file)!;
    out.push(file);
  }
  return out;
}

/** The engine's match lines as hits, each classified. */
function hitsOf(req: ScanRequest, files: readonly GrepFile[]): Hit[] {
  const needle = req.symbol ?? (req.literal ? req.pattern : undefined);
  // A pattern that only leads to the symbol (the definition probe) matches elsewhere on the line.
  const engineFindsNeedle = req.literal || req.symbol === undefined;
  const hits: Hit[] = [];
  for (const f of files) {
    for (const l of f.lines) {
      if (!l.match) continue;
      // Where the engine found the match; no regex runs again here (issue 11: a second, backtracking
      // engine over ripgrep's hits froze the server).
      const matchIndex = (engineFindsNeedle ? l.at : undefined) ?? (needle ? findIndex(l.text, needle, req.ignoreCase) : -1);
      const byLine = !req.definitionsByIndex || languageOf(f.path) === undefined;
      hits.push({ file: f.path, line: l.line, text: l.text, matchIndex, kind: kindOfLine(f.path, l.text, matchIndex, req.symbol, byLine), source: 'fileio' });
    }
  }
  return hits;
}

/**
 * The candidates read in sample order, a batch at a time, until the files read hold more matching files
 * and more hits than `refuseAt` allows: then the scan stops there, the unread candidates estimated
 * from the ones read. Undefined when no sample proves it (the caller reads them all).
 */
async function sampledRefusal(
  deps: RetrievalDeps,
  req: ScanRequest,
  query: GrepQuery,
  admission: Admission,
  { files: candidates, catalogued, sizeOf }: Pick<TextCandidates, 'files' | 'catalogued' | 'sizeOf'>,
  refuseAt: { files: number; hits: number },
  onSkipped: (f: SkippedFile) => void,
): Promise<ScanResult | undefined> {
  // Too few candidates for a first sample step (a rare name's few dozen files): nothing to judge.
  if (!sampleSteps(candidates.length, SAMPLE).length) return undefined;
  // Excluded, hidden, secret, gitignored or outside the glob: never read, never estimated (an index
  // may name ignored files: touched since it judged them, listed before a .gitignore changed, or
  // catalogued with scan.respectGitignore off). The file system (symlinked folders) is judged per batch.
  const eligible = admittedPaths(admission, candidates, { statFolders: false, catalogued });
  const rounds = sampleSteps(eligible.length, SAMPLE);
  if (!rounds.length) return undefined;
  // Big files at a lower rate (their bytes were most of a sample's cost), each size estimated on its own.
  const order = sampleOrder(eligible, sizeOf);
  const big = sizeOf && bigFiles(sizeOf);
  const counts = new Map<string, number>();
  const files: GrepFile[] = [];
  let read = 0;
  let hits = 0;
  for (let step = 0; step < rounds.length; step = nextSampleStep(rounds, step, read, counts.size, hits, refuseAt, eligible.length)) {
    const upto = rounds[step]!;
    const batch = order.slice(read, upto);
    const admitted = admittedPaths(admission, batch, { catalogued });
    // Lines (for scores and tokens per hit) from the first files of the sample only; the rest are counted.
    const withLines = admitted.slice(0, Math.max(0, SAMPLE_LINE_FILES - read));
    const counted = admitted.slice(withLines.length);
    const parts = await Promise.all([
      withLines.length ? scanList(deps, req.scope, { ...query, sorted: true }, withLines, req.signal, admission) : undefined,
      counted.length ? scanList(deps, req.scope, { ...query, sorted: true, limit: 0 }, counted, req.signal, admission) : undefined,
    ]);
    for (const part of parts) {
      if (!part) continue;
      for (const f of part.result.skipped ?? []) onSkipped(f);
      for (const [file, n] of part.counts) {
        counts.set(file, n);
        hits += n;
      }
      files.push(...part.result.files);
    }
    read = upto;
    if (req.signal?.aborted) return undefined;
    // Proved (the files read break both limits), or beyond doubt from the share that matched — and
    // then estimated over both limits too, so that the gate, judging the estimate, refuses.
    const proved = counts.size > refuseAt.files && hits > refuseAt.hits;
    const least = proved ? undefined : beyondDoubt(order, read, counts, big);
    if (proved || (least && least.files > refuseAt.files && least.hits > refuseAt.hits)) {
      const estimate = { read, of: eligible.length, expected: estimateUnread(order.slice(0, read), counts, order.slice(read), big) };
      const totals = scopeTotals(counts, estimate.expected);
      if (proved || (Math.round(totals.files) > refuseAt.files && Math.round(totals.hits) > refuseAt.hits)) {
        deps.logger.log('fileio_sampled', { scope: req.scope.relative || '.', candidates: eligible.length, read, ...(sizeOf && { bytes: order.slice(0, read).reduce((n, f) => n + (sizeOf(f) ?? 0), 0) }), files: counts.size, hits, ...(least && { beyondDoubt: least }) });
        files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        return { hits: hitsOf(req, files), capped: true, counts, estimate, sampled: true };
      }
    }
  }
  return undefined;
}

/**
 * The sample step after `at`: the first at which the rates read so far (matching files and hits per
 * file read) would prove the refusal, with a quarter more for chance, and at most four times what has
 * been read; the next one while nothing has matched. A sparse pattern (a regex whose trigrams narrow
 * little) is proved in two or three rounds instead of one per batch — each round a pass through the
 * readers — at the cost of reading a few more files than the least that would have done. When the
 * rates over all `of` candidates are half as much again as both limits, the refusal will most likely
 * be beyond doubt (beyondDoubt) long before it is proved: at most twice what has been read then.
 */
export function nextSampleStep(rounds: readonly number[], at: number, read: number, files: number, hits: number, refuseAt: { files: number; hits: number }, of = 0): number {
  if (files === 0 || hits === 0) return at + 1;
  const likely = (files / read) * of > refuseAt.files * 1.5 && (hits / read) * of > refuseAt.hits * 1.5;
  const need = Math.min(read * (likely ? 2 : 4), read * Math.max((refuseAt.files + 1) / files, (refuseAt.hits + 1) / hits) * 1.25);
  let step = at + 1;
  while (step < rounds.length - 1 && rounds[step]! < need) step++;
  return step;
}

/**
 * The files the text index says may match, admitted by the walk's rules; undefined when there is no
 * index, it cannot narrow this query (not built yet, no required trigram), or the scope is not under
 * the root it indexes: then the whole scope is scanned.
 */
async function indexCandidates(deps: RetrievalDeps, req: ScanRequest): Promise<TextCandidates | undefined> {
  const index = deps.textIndex;
  if (!index || req.scope.workdir !== deps.workdirs.dirs[0] || req.scope.path !== req.scope.real) return undefined;
  if (!deps.runtime.fs.statSync(req.scope.real)?.isDirectory) return undefined;
  let found: TextCandidates | undefined;
  try {
    found = await index.candidates({ pattern: req.pattern, literal: req.literal, ignoreCase: req.ignoreCase, word: req.wordBoundary }, req.scope.relative, req.signal);
  } catch (error) {
    deps.logger.log('text_index_error', { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
  if (!found) {
    const s = index.status();
    deps.logger.log('text_index_scan', { state: s.state, indexed: s.indexed, total: s.total });
    return undefined;
  }
  deps.logger.log('text_candidates', { candidates: found.files.length, ruledOut: found.ruledOut, catalogued: found.catalogued !== undefined });
  return found;
}

/** The candidates a full scan would search (the walk's rules); undefined when ripgrep scanning the scope is cheaper. */
function admitCandidates(deps: RetrievalDeps, admission: Admission, candidates: readonly string[], catalogued: ((relRoot: string) => boolean) | undefined): string[] | undefined {
  if (candidates.length > CANDIDATES_MAX && deps.runtime.which('rg')) return undefined;
  const listed = admittedPaths(admission, candidates, { catalogued });
  deps.logger.log('text_admitted', { candidates: candidates.length, admitted: listed.length });
  return listed;
}

/** Hits scanned with definitionsByIndex, classified by the line heuristics alone (the index could not answer). */
export function kindsByLine(hits: readonly Hit[], symbol: string): Hit[] {
  return hits.map((h) => (languageOf(h.file) === undefined ? h : { ...h, kind: kindOfLine(h.file, h.text, h.matchIndex, symbol) }));
}

function findIndex(text: string, needle: string, ignoreCase: boolean): number {
  return ignoreCase ? text.toLowerCase().indexOf(needle.toLowerCase()) : text.indexOf(needle);
}

/**
 * A file's lines, for block expansion and reads; a secret-like file is refused, whatever led to it
 * and whatever it was swapped for meanwhile (the opened file is judged: readJudged).
 */
export async function readLines(fs: RuntimeFs, workdirs: Workdirs, abs: string, shown?: string): Promise<string[]> {
  const { bytes } = await readJudged(fs, workdirs, abs, 'read', shown === undefined ? {} : { shown });
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

