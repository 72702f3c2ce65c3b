// The ripgrep engine: the system `rg` with --no-config (no RIPGREP_CONFIG_PATH, no ~/.ripgreprc),
// JSON output parsed as it streams, stopped once one match past the limit shows the answer is cut.
import { AppError, ErrorCode } from '../../errors.ts';
import type { Executor } from '../../exec/executor.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { isSecretPath, SECRET_EXCLUDE_GLOBS } from '../../security/secret-files.ts';
import { unsupportedConstructError } from '../../text/linear-regex.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, type GrepResult, keepMatches, MAX_SEARCH_FILE_BYTES, matchLine } from './types.ts';

interface RgMessage {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string; bytes?: string }; line_number?: number; submatches?: { start?: number }[] };
}

export interface RgOptions {
  rgPath: string;
  exec: Executor;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function rgArgs(target: SafePath, query: GrepQuery): string[] {
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
  for (const d of query.excludeDirs ?? []) args.push('--glob', `!**/${d}/**`, '--glob', `!${d}/**`);
  for (const p of query.excludePaths ?? []) args.push('--glob', `!/${p.replace(/^\/+|\/+$/g, '')}/**`);
  if (query.context > 0) args.push('--context', String(query.context));
  if (query.glob) args.push('--glob', query.glob);
  // Given after the caller's glob, so they win even when the caller asks for such a file.
  for (const g of SECRET_EXCLUDE_GLOBS) args.push('--glob', g);
  args.push('--regexp', query.pattern, '--', target.relative || '.');
  return args;
}

export async function grepRg(target: SafePath, query: GrepQuery, options: RgOptions): Promise<GrepResult> {
  const byFile = new Map<string, GrepLine[]>();
  const binary = new Set<string>();
  let matchCount = 0;
  let pending = '';
  const decoder = new TextDecoder();

  function take(line: string): boolean {
    if (!line) return false;
    let msg: RgMessage;
    try {
      msg = JSON.parse(line) as RgMessage;
    } catch {
      return false;
    }
    if (msg.type !== 'match' && msg.type !== 'context') return false;
    const file = (msg.data?.path?.text ?? '').replace(/^\.\//, '');
    const text = msg.data?.lines?.text;
    if (!file || msg.data?.line_number === undefined) return false;
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

  const result = await options.exec.run({
    command: options.rgPath,
    args: rgArgs(target, query),
    cwd: target.workdir,
    env: options.env,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    maxOutputBytes: 64 * 1024,
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
  if (!result.stoppedEarly && !result.cancelled && result.exitCode === 2 && matchCount === 0) {
    // Look-around and backreferences: the built-in engine's words, so both engines answer alike.
    const unsupported = query.literal ? undefined : unsupportedConstructError(query.pattern);
    if (unsupported) throw unsupported;
    const reason = result.stderr.trim().split('\n').slice(0, 6).join('\n');
    throw new AppError(ErrorCode.InvalidArgument, `rg refused the search: ${reason}`, {
      hint: 'fix the pattern (Rust regex syntax), or pass literal: true',
    });
  }

  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;
  for (const [file, lines] of byFile) {
    if (binary.has(file) || isSecretPath(file)) continue;
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

/** Matches per file for the whole search (no line content): exact totals when a scan was capped. */
export async function countRg(target: SafePath, query: GrepQuery, options: RgOptions): Promise<Map<string, number>> {
  const args = rgArgs(target, { ...query, context: 0, sorted: false }).filter((a) => a !== '--json');
  const at = args.indexOf('--regexp');
  args.splice(at, 0, '--count-matches', '--with-filename');
  const result = await options.exec.run({ command: options.rgPath, args, cwd: target.workdir, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal, maxOutputBytes: 16 * 1024 * 1024 });
  const counts = new Map<string, number>();
  for (const line of result.stdout.split('\n')) {
    const cut = line.lastIndexOf(':');
    if (cut <= 0) continue;
    const file = line.slice(0, cut).replace(/^\.\//, '');
    const n = Number(line.slice(cut + 1));
    if (Number.isFinite(n) && n > 0 && !isSecretPath(file)) counts.set(file, n);
  }
  return counts;
}
