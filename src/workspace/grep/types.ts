// The search shape both engines answer with, so the tool cannot tell them apart but by name.
export interface GrepQuery {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  /** Lines of context before and after each match (0–5). */
  context: number;
  /** Most matches returned. */
  limit: number;
  /** A filename glob (`*.ts`, `src/**\/*.go`, `!*.min.js`). */
  glob?: string;
  /** Match whole words only. */
  wordBoundary?: boolean;
  /** Folder names skipped wherever they are (node_modules, dist, …). */
  excludeDirs?: readonly string[];
  /** Folders skipped, relative to the workdir (src/legacy). */
  excludePaths?: readonly string[];
  /** Results in path order (default). Unsorted lets ripgrep search with all cores. */
  sorted?: boolean;
}

export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
  /** On a match line: where the first match starts in `text` (a string index), when it lies there. */
  at?: number;
}

export interface GrepFile {
  /** Relative to the workdir, `/`-separated. */
  path: string;
  lines: GrepLine[];
}

/** A file the search did not finish: its match ran over the time limit (or its worker failed). */
export interface SkippedFile {
  path: string;
  reason: 'timeout' | 'failed';
}

export interface GrepResult {
  engine: 'rg' | 'builtin';
  matches: number;
  truncated: boolean;
  files: GrepFile[];
  /** Files not searched (the built-in engine's workers): the answer may lack their matches. */
  skipped?: SkippedFile[];
}

export const MAX_LINE_CHARS = 300;
/** Files larger than this are not searched by either engine. */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;

/**
 * A match line as both engines report it. A long line is clipped: to its start, or — when the match
 * lies past that — to a window around the match, so the row shows what matched (issue 20); `at` is
 * kept only when it falls inside the text kept.
 */
export function matchLine(line: number, text: string, at: number | undefined): GrepLine {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  const known = at !== undefined && at >= 0 && at < t.length;
  if (t.length <= MAX_LINE_CHARS || !known || at < MAX_LINE_CHARS - WINDOW_LEAD) {
    const clipped = clipLine(t);
    return known && at < Math.min(clipped.length, MAX_LINE_CHARS) ? { line, text: clipped, match: true, at } : { line, text: clipped, match: true };
  }
  let start = at - WINDOW_LEAD;
  // Never cut a surrogate pair in two.
  if (start > 0 && /[\udc00-\udfff]/.test(t[start]!)) start--;
  const end = start + MAX_LINE_CHARS;
  return { line, text: `…${t.slice(start, end)}${end < t.length ? '…' : ''}`, match: true, at: at - start + 1 };
}

/** How much of a long line is shown before a match far into it. */
const WINDOW_LEAD = 100;

export function clipLine(text: string): string {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return t.length > MAX_LINE_CHARS ? `${t.slice(0, MAX_LINE_CHARS)}…` : t;
}

/**
 * Keeps the first `limit` matches of a file's lines (matches and context, in line order) and the
 * context that belongs to them; returns how many matches were kept.
 */
export function keepMatches(lines: GrepLine[], limit: number, context: number): { lines: GrepLine[]; kept: number } {
  const out: GrepLine[] = [];
  let kept = 0;
  let lastMatch = -1;
  for (const l of lines) {
    if (l.match) {
      if (kept === limit) break;
      kept++;
      lastMatch = l.line;
      out.push(l);
    } else if (kept < limit || l.line - lastMatch <= context) {
      out.push(l);
    }
  }
  // Context that precedes a match we did not keep is not context of anything we kept.
  while (out.length && !out[out.length - 1]!.match && out[out.length - 1]!.line - lastMatch > context) out.pop();
  return { lines: out, kept };
}
