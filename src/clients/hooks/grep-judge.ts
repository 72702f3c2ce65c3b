// Whether a literal search call does what a shell grep/rg would do (issue 20, item 7): the hook runs
// the command itself and ctxgate's own engine for the call (both bounded), and says "delivers" only
// when every line the command prints is a row of the reply, the reply is not refused or cut, and it is
// no bigger in bytes. Every other outcome says why, so the hook can let the command run.
import * as path from 'node:path';
import { loadConfig } from '../../config/load.ts';
import type { Config } from '../../config/schema.ts';
import { messageOf } from '../../errors.ts';
import { createExecutor, type ExecResult } from '../../exec/executor.ts';
import type { Runtime } from '../../runtime/types.ts';
import { resolveSafe, type SafePath } from '../../security/resolve-safe.ts';
import { countMatches, type GrepDeps, grep } from '../../workspace/grep/index.ts';
import type { GrepQuery } from '../../workspace/grep/types.ts';

/** Both runs together end within this; past it the hook does not judge (the command runs). */
export const JUDGE_TIMEOUT_MS = 1500;
/** More printed bytes than any search reply may hold (24,000 tokens at 3.5 characters) and then some. */
const PRINT_CAP_BYTES = 256 * 1024;

export interface ReplyRow {
  file: string;
  line: number;
  text: string;
  /** Where the match starts in `text` (a long row shows the part around it). */
  matchIndex: number;
}

/**
 * The text search sends for these rows (tools/gate/search-reply.ts, handed in by the caller: this
 * room does not import the tools).
 */
export type SearchReplyText = (input: { items: ReplyRow[]; budget: number; charsPerToken: number }) => { text: string; cut: number };

export interface JudgeDeps {
  runtime: Runtime;
  searchReply: SearchReplyText;
  timeoutMs?: number;
}

export interface JudgeRequest {
  /** The program and its arguments as the agent wrote them. */
  program: string;
  args: readonly string[];
  /** Where the command runs (absolute). */
  dir: string;
  /** The session's folder: the project root search answers for. */
  root: string;
  /** The literal search would be asked for, and its scope relative to the root ('' for all). */
  literal: string;
  scope: string;
  /** The command prints `path:LINE:text` (else `path:text`). */
  lineNumbers: boolean;
}

export interface Narrower {
  scope: string;
  files: number;
  hits: number;
}

export type Verdict =
  | { kind: 'delivers'; lines: number; files: number; commandBytes: number; replyBytes: number }
  | { kind: 'prints-nothing' }
  | { kind: 'fails'; message: string }
  /** A printed line no row of the reply shows (a file search leaves out, a line it clips, a message). */
  | { kind: 'not-delivered'; line: string }
  | { kind: 'bigger'; lines: number; commandBytes: number; replyBytes: number }
  /** More than one reply holds: search would refuse, or cut at its token budget. */
  | { kind: 'too-broad'; files: number; hits: number; commandBytes?: number; cut: boolean; limits: { files: number; hits: number }; narrower: Narrower[] }
  | { kind: 'unjudged'; why: string };

type SearchSide = { over: true; counts: Map<string, number>; hits: number } | { over: false; rows: ReplyRow[] };

export async function judgeGrep(deps: JudgeDeps, req: JudgeRequest): Promise<Verdict> {
  const { runtime } = deps;
  const timeoutMs = deps.timeoutMs ?? JUDGE_TIMEOUT_MS;
  const program = runtime.which(req.program);
  if (!program) return { kind: 'unjudged', why: `${req.program} is not on PATH` };
  let config: Config;
  let target: SafePath;
  let grepDeps: GrepDeps;
  try {
    config = loadConfig(runtime, undefined, req.root).config;
    const workdirs = { dirs: [runtime.fs.realpathSync(req.root)] };
    target = resolveSafe(runtime.fs, workdirs, req.scope || '.');
    grepDeps = { runtime, exec: createExecutor(runtime), workdirs };
  } catch (error) {
    return { kind: 'unjudged', why: messageOf(error) };
  }
  const signal = AbortSignal.timeout(timeoutMs);
  const limits = { files: config.gates.maxFiles, hits: config.gates.maxHits };
  const query: GrepQuery = { pattern: req.literal, literal: true, ignoreCase: false, context: 0, limit: limits.hits + 1, excludeDirs: config.scan.excludeDirs };
  const [printed, found] = await Promise.all([
    // stdin from /dev/null, as in the agent's shell: on a pipe, rg without a path would search the pipe.
    grepDeps.exec
      .run({ command: 'sh', args: ['-c', 'exec "$0" "$@" < /dev/null', program, ...req.args], cwd: req.dir, env: runtime.env.toObject(), timeoutMs, signal, maxOutputBytes: PRINT_CAP_BYTES })
      .catch((error: unknown) => new Error(messageOf(error))),
    searchSide(grepDeps, target, query, limits, signal).catch((error: unknown) => new Error(messageOf(error))),
  ]);
  if (printed instanceof Error) return { kind: 'unjudged', why: `the command did not run: ${printed.message}` };
  if (printed.timedOut || printed.cancelled) return { kind: 'unjudged', why: `the command ran past ${timeoutMs} ms` };
  if (printed.stdoutBytes === 0) return (printed.exitCode ?? 2) > 1 ? { kind: 'fails', message: firstLine(printed.stderr) } : { kind: 'prints-nothing' };
  if (found instanceof Error) return { kind: 'unjudged', why: `search's engine failed: ${found.message}` };
  if (found === undefined || signal.aborted) return { kind: 'unjudged', why: `search's engine ran past ${timeoutMs} ms` };
  if (found.over) {
    const files = found.counts.size;
    return { kind: 'too-broad', files, hits: found.hits, commandBytes: printed.stdoutBytes, cut: false, limits, narrower: narrower(found.counts, req.scope, limits) };
  }
  const missing = undelivered(printed, found.rows, req);
  if (missing !== undefined) return { kind: 'not-delivered', line: missing };
  const budget = Math.min(config.gates.maxTokens, config.limits.absoluteMaxTokens);
  const reply = deps.searchReply({ items: found.rows, budget, charsPerToken: config.estimation.charsPerToken });
  const files = new Set(found.rows.map((r) => r.file)).size;
  if (reply.cut) return { kind: 'too-broad', files, hits: found.rows.length, commandBytes: printed.stdoutBytes, cut: true, limits, narrower: [] };
  const replyBytes = new TextEncoder().encode(reply.text).length;
  const lines = found.rows.length;
  if (replyBytes > printed.stdoutBytes) return { kind: 'bigger', lines, commandBytes: printed.stdoutBytes, replyBytes };
  return { kind: 'delivers', lines, files, commandBytes: printed.stdoutBytes, replyBytes };
}

/** What a failed command said: ripgrep's `error: …` line when there is one (its first line is a heading), else the first. */
function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.find((l) => /^error:/.test(l)) ?? lines[0] ?? '').trim().slice(0, 200);
}

/**
 * The lines search would answer with: exact counts per file first (cheap), and the lines themselves
 * only when they fit the gate. Undefined when the time ran out.
 */
async function searchSide(deps: GrepDeps, target: SafePath, query: GrepQuery, limits: { files: number; hits: number }, signal: AbortSignal): Promise<SearchSide | undefined> {
  const counts = await countMatches(deps, target, { ...query, sorted: false }, { signal });
  if (signal.aborted) return undefined;
  let hits = 0;
  for (const n of counts.values()) hits += n;
  if (counts.size > limits.files || hits > limits.hits) return { over: true, counts, hits };
  if (hits === 0) return { over: false, rows: [] };
  const files = [...counts.keys()].sort().map((relRoot) => {
    const abs = path.join(target.workdir, relRoot);
    return { abs, relRoot, size: deps.runtime.fs.statSync(abs)?.size ?? 0 };
  });
  const result = await grep(deps, target, { ...query, sorted: true }, { signal, files });
  if (signal.aborted) return undefined;
  const rows: ReplyRow[] = [];
  for (const f of result.files) for (const l of f.lines) if (l.match) rows.push({ file: f.path, line: l.line, text: l.text, matchIndex: l.at ?? l.text.indexOf(query.pattern) });
  return { over: false, rows };
}

/**
 * The first printed line that is not one of `rows` (each row answers one printed line), or undefined
 * when every printed line is. A printed line is `path:LINE:text` (or `path:text`) with the path as
 * the command names it; a path holding `:` is tried at each colon.
 */
function undelivered(printed: ExecResult, rows: readonly ReplyRow[], req: JudgeRequest): string | undefined {
  if (printed.truncated) return `(more than ${PRINT_CAP_BYTES / 1024} KB printed)`;
  const root = path.resolve(req.root);
  const byFile = new Map<string, ReplyRow[]>();
  for (const r of rows) {
    const list = byFile.get(r.file);
    if (list) list.push(r);
    else byFile.set(r.file, [r]);
  }
  const used = new Set<ReplyRow>();
  const out = printed.stdout.split('\n');
  if (out[out.length - 1] === '') out.pop();
  for (const line of out) {
    let matched = false;
    for (let at = line.indexOf(':'); at > 0 && !matched; at = line.indexOf(':', at + 1)) {
      const file = path.relative(root, path.resolve(req.dir, line.slice(0, at))).split(path.sep).join('/');
      const candidates = byFile.get(file);
      if (!candidates) continue;
      let rest = line.slice(at + 1);
      let number: number | undefined;
      if (req.lineNumbers) {
        const m = /^(\d+):/.exec(rest);
        if (!m) continue;
        number = Number(m[1]);
        rest = rest.slice(m[0].length);
      }
      // Rows are the engine's lines: a trailing CR dropped, past 300 characters clipped (so those differ).
      const text = rest.endsWith('\r') ? rest.slice(0, -1) : rest;
      const row = candidates.find((r) => !used.has(r) && (number === undefined || r.line === number) && r.text === text);
      if (row) {
        used.add(row);
        matched = true;
      }
    }
    if (!matched) return line.slice(0, 200);
  }
  return undefined;
}

/** Folders one level below the scope whose hits would pass the gate on their own, most hits first. */
function narrower(counts: ReadonlyMap<string, number>, scope: string, limits: { files: number; hits: number }): Narrower[] {
  const depth = scope ? scope.split('/').length + 1 : 1;
  const byDir = new Map<string, Narrower>();
  for (const [file, n] of counts) {
    const parts = file.split('/');
    if (parts.length <= depth) continue; // a file right in the scope: no folder narrows to it
    const dir = parts.slice(0, depth).join('/');
    const entry = byDir.get(dir) ?? { scope: dir, files: 0, hits: 0 };
    entry.files++;
    entry.hits += n;
    byDir.set(dir, entry);
  }
  return [...byDir.values()]
    .filter((d) => d.files <= limits.files && d.hits <= limits.hits)
    .sort((a, b) => b.hits - a.hits || (a.scope < b.scope ? -1 : 1))
    .slice(0, 2);
}
