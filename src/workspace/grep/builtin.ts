// The pure-TypeScript search engine: the same answers as ripgrep for the flags ctx_fs offers
// (gitignore-aware walk, hidden files skipped, binaries and huge files skipped, sorted by path).
import type { RuntimeFs } from '../../runtime/types.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { isSecretPath } from '../../security/secret-files.ts';
import { compileGlob } from '../../text/glob.ts';
import { compileRegex, type LinearRegex } from '../../text/linear-regex.ts';
import { walk } from '../walk.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, type GrepResult, keepMatches, MAX_SEARCH_FILE_BYTES, matchLine } from './types.ts';

// ripgrep's --word-regexp: no letter, digit or underscore (any script) right before or after.
const WORD_CHARS = '\\p{L}\\p{N}_';
/** The engine gives the event loop a turn after matching this much text, so other calls run. */
const YIELD_EVERY_CHARS = 1 << 20;
/** Longest line whose match position is worked out: locating is slower than testing. */
const LOCATE_MAX_CHARS = 20_000;

export function compilePattern(query: GrepQuery): LinearRegex {
  return compileRegex(query.pattern, { literal: query.literal, ignoreCase: query.ignoreCase, wordChars: query.wordBoundary ? WORD_CHARS : undefined });
}

/**
 * A glob filter as ripgrep applies it: no slash → file name at any depth; leading ! → exclude. A
 * positive glob that matches a file overrides .gitignore for that file (hidden files stay hidden,
 * ignored folders stay unentered), exactly as `rg --glob` does.
 */
export function globFilter(glob: string | undefined): (rel: string, ignored: boolean) => boolean {
  if (!glob) return (_rel, ignored) => !ignored;
  const negate = glob.startsWith('!');
  const body = negate ? glob.slice(1) : glob;
  const matches = compileGlob(body.replace(/^\//, ''));
  const matcher = body.includes('/') ? matches : (rel: string) => matches(rel.slice(rel.lastIndexOf('/') + 1));
  if (negate) return (rel, ignored) => !ignored && !matcher(rel);
  return (rel) => matcher(rel);
}

interface Pacer {
  /** Counts text about to be matched; true when the event loop is due a turn. */
  due(chars: number): boolean;
  /** Gives the event loop a turn; false when the search was cancelled meanwhile. */
  turn(): Promise<boolean>;
}

function createPacer(signal: AbortSignal | undefined): Pacer {
  let left = YIELD_EVERY_CHARS;
  return {
    due(chars) {
      left -= chars;
      return left <= 0;
    },
    async turn() {
      left = YIELD_EVERY_CHARS;
      await new Promise((resolve) => setTimeout(resolve, 0));
      return !signal?.aborted;
    },
  };
}

async function searchText(text: string, relPath: string, regex: LinearRegex, context: number, pacer: Pacer): Promise<GrepFile | undefined> {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hits = new Map<number, number | undefined>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (pacer.due(line.length + 1) && !(await pacer.turn())) return undefined;
    if (regex.test(line)) hits.set(i, line.length <= LOCATE_MAX_CHARS ? regex.indexIn(line) : undefined);
  }
  if (!hits.size) return undefined;
  const wanted = new Set<number>();
  for (const h of hits.keys()) for (let i = Math.max(0, h - context); i <= Math.min(lines.length - 1, h + context); i++) wanted.add(i);
  const out: GrepLine[] = [...wanted]
    .sort((a, b) => a - b)
    .map((i) => (hits.has(i) ? matchLine(i + 1, lines[i]!, hits.get(i)) : { line: i + 1, text: clipLine(lines[i]!), match: false }));
  return { path: relPath, lines: out };
}

export async function grepBuiltin(fs: RuntimeFs, target: SafePath, query: GrepQuery, signal?: AbortSignal): Promise<GrepResult> {
  const regex = compilePattern(query);
  const pacer = createPacer(signal);
  const passesGlob = globFilter(query.glob);
  const files: GrepFile[] = [];
  let matches = 0;
  let truncated = false;

  const candidates: { abs: string; relRoot: string; relBase: string; ignored: boolean }[] = [];
  if ((await fs.stat(target.real))?.isDirectory) {
    const excludeDirs = new Set(query.excludeDirs ?? []);
    const excluded = (query.excludePaths ?? []).map((p) => p.replace(/^\/+|\/+$/g, ''));
    const walking = walk(fs, { root: target.workdir, base: target.real, includeHidden: false, respectGitignore: true, keepIgnoredFiles: true, listOnlyDirs: new Set(), excludeDirs, signal });
    for await (const e of walking) {
      if (excluded.some((p) => e.relRoot === p || e.relRoot.startsWith(`${p}/`))) continue;
      if (e.type === 'file') candidates.push({ abs: e.path, relRoot: e.relRoot, relBase: e.rel, ignored: e.ignored === true });
    }
  } else {
    const name = target.relative.split('/').pop() ?? target.relative;
    candidates.push({ abs: target.real, relRoot: target.relative, relBase: name, ignored: false });
  }
  candidates.sort((a, b) => (a.relRoot < b.relRoot ? -1 : a.relRoot > b.relRoot ? 1 : 0));

  for (const c of candidates) {
    if (signal?.aborted) break;
    if (isSecretPath(c.relRoot) || !passesGlob(c.relBase, c.ignored)) continue;
    const st = await fs.stat(c.abs);
    if (!st || st.size > MAX_SEARCH_FILE_BYTES) continue;
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(c.abs);
    } catch {
      continue;
    }
    if (bytes.includes(0)) continue; // binary
    const found = await searchText(new TextDecoder().decode(bytes), c.relRoot, regex, query.context, pacer);
    if (signal?.aborted) break;
    if (!found) continue;
    // One match past the limit is enough to know the answer was cut.
    if (matches >= query.limit) {
      truncated = true;
      break;
    }
    const { lines, kept } = keepMatches(found.lines, query.limit - matches, query.context);
    matches += kept;
    files.push({ path: found.path, lines });
    if (kept < found.lines.filter((l) => l.match).length) {
      truncated = true;
      break;
    }
  }
  return { engine: 'builtin', matches, truncated, files };
}
