// The pure-TypeScript search engine: the same answers as ripgrep for the flags ctx_fs offers
// (gitignore-aware walk, hidden files skipped, binaries and huge files skipped, sorted by path).
import picomatch from 'picomatch';
import { AppError, ErrorCode, messageOf } from '../../errors.ts';
import type { RuntimeFs } from '../../runtime/types.ts';
import type { SafePath } from '../../security/resolve-safe.ts';
import { isSecretPath } from '../../security/secret-files.ts';
import { walk } from '../walk.ts';
import { clipLine, type GrepFile, type GrepLine, type GrepQuery, type GrepResult, keepMatches, MAX_SEARCH_FILE_BYTES } from './types.ts';

export function compilePattern(query: GrepQuery): RegExp {
  const escaped = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : query.pattern;
  const source = query.wordBoundary ? `(?<![\\p{L}\\p{N}_])(?:${escaped})(?![\\p{L}\\p{N}_])` : escaped;
  const flags = query.ignoreCase ? 'i' : '';
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new AppError(ErrorCode.InvalidArgument, `pattern is not a valid regular expression: ${messageOf(error)}`, {
        hint: 'fix the pattern, or pass literal: true to search for the text as written',
      });
    }
  }
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
  const matcher = body.includes('/') ? picomatch(body.replace(/^\//, ''), { dot: true }) : picomatch(body, { dot: true, basename: true });
  if (negate) return (rel, ignored) => !ignored && !matcher(rel);
  return (rel) => matcher(rel);
}

function searchText(text: string, relPath: string, regex: RegExp, context: number): GrepFile | undefined {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const hits: number[] = [];
  for (let i = 0; i < lines.length; i++) if (regex.test(lines[i]!)) hits.push(i);
  if (!hits.length) return undefined;
  const wanted = new Set<number>();
  for (const h of hits) for (let i = Math.max(0, h - context); i <= Math.min(lines.length - 1, h + context); i++) wanted.add(i);
  const hitSet = new Set(hits);
  const out: GrepLine[] = [...wanted].sort((a, b) => a - b).map((i) => ({ line: i + 1, text: clipLine(lines[i]!), match: hitSet.has(i) }));
  return { path: relPath, lines: out };
}

export async function grepBuiltin(fs: RuntimeFs, target: SafePath, query: GrepQuery, signal?: AbortSignal): Promise<GrepResult> {
  const regex = compilePattern(query);
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
    const found = searchText(new TextDecoder().decode(bytes), c.relRoot, regex, query.context);
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
