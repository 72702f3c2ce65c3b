// The ripgrep engine: the system `rg` with --no-config (no RIPGREP_CONFIG_PATH, no ~/.ripgreprc),
// JSON output parsed as it streams, stopped once one match past the limit shows the answer is cut.
import { AppError, ErrorCode } from '../../errors.ts';
import type { Executor } from '../../exec/executor.ts';
import type { Admission } from './admission.ts';
import { holdsLines } from './rg-verify.ts';
import { readBuffer } from './scan-files.ts';
import { unsupportedConstructError } from '../../text/linear-regex.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, type GrepResult, keepMatches, MAX_SEARCH_FILE_BYTES, matchLine } from './types.ts';

interface RgMessage {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string; bytes?: string }; line_number?: number; submatches?: { start?: number }[]; binary_offset?: number | null };
}

export interface RgOptions {
  rgPath: string;
  exec: Executor;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Arguments for a walk of the admission's target: its rules as ripgrep flags (admission.ts). */
export function rgArgs(admission: Admission, query: GrepQuery): string[] {
  const args = [
    '--no-config',
    '--json',
    ...(query.sorted === false ? [] : ['--sort', 'path']),
    // The same ignore rules as the built-in engine: .gitignore files (repo or not), nothing else.
    '--no-require-git',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--max-filesize',
    String(MAX_SEARCH_FILE_BYTES),
  ];
  if (query.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  if (query.literal) args.push('--fixed-strings');
  if (query.wordBoundary) args.push('--word-regexp');
  if (query.context > 0) args.push('--context', String(query.context));
  args.push(...admission.rgWalkArgs());
  args.push('--regexp', query.pattern, '--', admission.target.relative || '.');
  return args;
}

/**
 * Arguments for searching named files (already admitted: ripgrep applies neither ignore rules nor
 * globs to paths it is given), in order, without the walk's flags.
 */
export function rgListArgs(query: GrepQuery, files: readonly string[]): string[] {
  const args = ['--no-config', '--json', ...(query.sorted === false ? [] : ['--sort', 'path']), '--max-filesize', String(MAX_SEARCH_FILE_BYTES)];
  if (query.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  if (query.literal) args.push('--fixed-strings');
  if (query.wordBoundary) args.push('--word-regexp');
  if (query.context > 0) args.push('--context', String(query.context));
  args.push('--regexp', query.pattern, '--', ...files);
  return args;
}

/** Argument bytes per ripgrep run: well under ARG_MAX (2 MiB here, environment included). */
const LIST_CHUNK_BYTES = 256 * 1024;

/** The files in runs whose paths fit one command line each. */
export function chunkFiles(files: readonly string[], maxBytes = LIST_CHUNK_BYTES): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const size = f.length * 3 + 1;
    if (chunk.length && bytes + size > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(f);
    bytes += size;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/**
 * `list`: search only these (relative to the workdir, admitted by the admission), in runs that fit a
 * command line. Every file rg names passes the admission's `shown` before it is kept.
 */
export async function grepRg(admission: Admission, query: GrepQuery, options: RgOptions, list?: readonly string[]): Promise<GrepResult> {
  const target = admission.target;
  const byFile = new Map<string, GrepLine[]>();
  const binary = new Set<string>();
  let matchCount = 0;
  let pending = '';
  const decoder = new TextDecoder();
  // Each file rg names is judged once, at first sight, as the built-in engine judges the files it
  // opens (identity, content: a secret's lines never count towards the limit), and its lines are
  // checked against the bytes opened when rg's message for the file's end comes: one read per file,
  // one file's bytes held at a time (rg writes each file's messages together).
  const admitted = new Map<string, boolean>();
  const verified = new Set<string>();
  let opened: { file: string; bytes: Uint8Array } | undefined;
  // Only the last file opened is held: each is read into the bytes of the one before.
  const into = readBuffer();
  const admits = (file: string): boolean => {
    let ok = admitted.get(file);
    if (ok === undefined) {
      const bytes = admission.shown(file) ? admission.openedText(file, into) : undefined;
      ok = bytes !== undefined;
      opened = bytes ? { file, bytes } : undefined;
      admitted.set(file, ok);
    }
    return ok;
  };
  /** At a file's end: its lines must be the text opened, else the file is dropped (it changed, or was swapped). */
  const settle = (file: string): void => {
    const lines = byFile.get(file);
    if (lines && opened?.file === file && !holdsLines(opened.bytes, lines)) {
      byFile.delete(file);
      matchCount -= lines.filter((l) => l.match).length;
    }
    if (opened?.file === file) verified.add(file);
    opened = undefined;
  };

  function take(line: string): boolean {
    if (!line) return false;
    let msg: RgMessage;
    try {
      msg = JSON.parse(line) as RgMessage;
    } catch {
      return false;
    }
    if (msg.type === 'end') {
      // A file given by name is searched even when binary; ripgrep says where it saw the NUL.
      const file = (msg.data?.path?.text ?? '').replace(/^\.\//, '');
      if (msg.data?.binary_offset != null) binary.add(file);
      settle(file);
      return false;
    }
    if (msg.type !== 'match' && msg.type !== 'context') return false;
    const file = (msg.data?.path?.text ?? '').replace(/^\.\//, '');
    const text = msg.data?.lines?.text;
    if (!file || msg.data?.line_number === undefined || !admits(file)) return false;
    if (text === undefined || text.includes('\0')) {
      binary.add(file);
      return false;
    }
    const lines = byFile.get(file) ?? [];
    byFile.set(file, lines);
    const lineText = text.replace(/\n$/, '');
    if (msg.type === 'match') {
      // ripgrep's own match offsets (UTF-8 bytes): no second regex engine re-runs the pattern.
      const start = msg.data.submatches?.[0]?.start;
      lines.push(matchLine(msg.data.line_number, lineText, start === undefined ? undefined : utf8OffsetToIndex(lineText, start)));
      matchCount++;
    } else {
      lines.push({ line: msg.data.line_number, text: clipLine(lineText), match: false });
    }
    return matchCount > query.limit;
  }

  const runs = list ? chunkFiles(list).map((chunk) => rgListArgs(query, chunk)) : [rgArgs(admission, query)];
  for (const args of runs) {
    if (matchCount > query.limit) break;
    pending = '';
    const result = await options.exec.run({
      command: options.rgPath,
      args,
      cwd: target.workdir,
      env: options.env,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      maxOutputBytes: 64 * 1024,
      leavesNothing: true,
      onStdout(chunk) {
        pending += decoder.decode(chunk, { stream: true });
        let nl = pending.indexOf('\n');
        let enough = false;
        while (nl >= 0 && !enough) {
          enough = take(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
        }
        return enough;
      },
    });
    if (!result.stoppedEarly) take(pending);
    if (result.timedOut) throw new AppError(ErrorCode.Timeout, `rg did not finish within ${options.timeoutMs} ms`, { hint: 'narrow the path or the glob' });
    // rg exits 1 when nothing matched and 2 on errors (a bad regex among them).
    // Over a list, exit 2 may only mean that a listed file vanished meanwhile.
    if (!result.stoppedEarly && !result.cancelled && result.exitCode === 2 && matchCount === 0 && (!list || !/No such file/.test(result.stderr))) {
      // Look-around and backreferences: the built-in engine's words, so both engines answer alike.
      const unsupported = query.literal ? undefined : unsupportedConstructError(query.pattern);
      if (unsupported) throw unsupported;
      const reason = result.stderr.trim().split('\n').slice(0, 6).join('\n');
      throw new AppError(ErrorCode.InvalidArgument, `rg refused the search: ${reason}`, {
        hint: 'fix the pattern (Rust regex syntax), or pass literal: true',
      });
    }
    if (result.cancelled) break;
  }

  // The file rg was stopped in (no end message) is checked by opening it again.
  const unsettled = new Set(admission.verified([...byFile].filter(([file]) => !verified.has(file)).map(([path, lines]) => ({ path, lines }))).map((f) => f.path));
  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;
  for (const [file, lines] of byFile) {
    if (binary.has(file) || (!verified.has(file) && !unsettled.has(file))) continue;
    if (matches >= query.limit) {
      truncated = true;
      break;
    }
    const { lines: keptLines, kept } = keepMatches(lines, query.limit - matches, query.context);
    matches += kept;
    files.push({ path: file, lines: keptLines });
    if (kept < lines.filter((l) => l.match).length) {
      truncated = true;
      break;
    }
  }
  return { engine: 'rg', matches, truncated, files };
}

/** The string index of a UTF-8 byte offset into `text` (ripgrep reports offsets in bytes). */
export function utf8OffsetToIndex(text: string, offset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < offset) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code > 0xffff ? 2 : 1;
  }
  return i;
}

/**
 * Matching lines per file for the whole search (no line content), or for the named files only:
 * exact totals without building a line.
 */
export async function countRg(admission: Admission, query: GrepQuery, options: RgOptions, files?: readonly string[]): Promise<Map<string, number>> {
  const target = admission.target;
  const counting = { ...query, context: 0, sorted: false };
  const runs = files ? chunkFiles(files).map((chunk) => rgListArgs(counting, chunk)) : [rgArgs(admission, counting)];
  const counts = new Map<string, number>();
  for (const base of runs) {
    const args = base.filter((a) => a !== '--json');
    args.splice(args.indexOf('--regexp'), 0, '--count', '--with-filename');
    const result = await options.exec.run({ command: options.rgPath, args, cwd: target.workdir, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal, maxOutputBytes: 16 * 1024 * 1024, leavesNothing: true });
    if (result.timedOut) throw new AppError(ErrorCode.Timeout, `rg did not finish within ${options.timeoutMs} ms`, { hint: 'narrow the path or the glob' });
    if (result.exitCode === 2 && !result.stdout && (!files || !/No such file/.test(result.stderr))) {
      const unsupported = query.literal ? undefined : unsupportedConstructError(query.pattern);
      if (unsupported) throw unsupported;
      throw new AppError(ErrorCode.InvalidArgument, `rg refused the search: ${result.stderr.trim().split('\n').slice(0, 6).join('\n')}`, { hint: 'fix the pattern (Rust regex syntax), or pass literal: true' });
    }
    readCounts(result.stdout, counts, admission);
    if (result.cancelled) break;
  }
  return counts;
}

/** The files among `files` that hold any of `needles` (literal, case as given): ripgrep reads them, on every core. */
export async function filesHolding(admission: Admission, needles: readonly string[], files: readonly string[], options: RgOptions): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunkFiles(files)) {
    const args = ['--no-config', '--files-with-matches', '--case-sensitive', '--fixed-strings', '--max-filesize', String(MAX_SEARCH_FILE_BYTES), ...needles.flatMap((n) => ['--regexp', n]), '--', ...chunk];
    const result = await options.exec.run({ command: options.rgPath, args, cwd: admission.target.workdir, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal, maxOutputBytes: 16 * 1024 * 1024, leavesNothing: true });
    if (result.timedOut) throw new AppError(ErrorCode.Timeout, `rg did not finish within ${options.timeoutMs} ms`, { hint: 'narrow the path or the glob' });
    for (const line of result.stdout.split('\n')) if (line) found.add(line.replace(/^\.\//, ''));
    if (result.cancelled) break;
  }
  return found;
}

function readCounts(stdout: string, counts: Map<string, number>, admission: Admission): void {
  for (const line of stdout.split('\n')) {
    const cut = line.lastIndexOf(':');
    if (cut <= 0) continue;
    const file = line.slice(0, cut).replace(/^\.\//, '');
    const n = Number(line.slice(cut + 1));
    if (Number.isFinite(n) && n > 0 && admission.shown(file)) counts.set(file, n);
  }
}
