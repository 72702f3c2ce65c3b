// expandBlock: the whole enclosing unit of a line — a function, a class, a markdown section — so that
// `read` never returns a cut in the middle. Brace languages by brace matching (strings and comments
// skipped), Python/YAML by indentation, markdown by headings.
import { extension, indentOf } from './query.ts';

export interface LineRange {
  start: number;
  end: number;
}

const INDENT_LANGS = new Set(['py', 'pyi', 'yml', 'yaml', 'nim', 'coffee']);
const MARKDOWN = new Set(['md', 'markdown', 'mdx', 'rst']);

function markdownSection(lines: string[], at: number): LineRange {
  let start = at;
  let level = 7;
  for (let i = at; i >= 1; i--) {
    const m = /^(#{1,6})\s/.exec(lines[i - 1] ?? '');
    if (m) {
      start = i;
      level = m[1]!.length;
      break;
    }
  }
  if (level === 7) start = 1;
  let end = lines.length;
  for (let i = start + 1; i <= lines.length; i++) {
    const m = /^(#{1,6})\s/.exec(lines[i - 1] ?? '');
    if (m && m[1]!.length <= level) {
      end = i - 1;
      break;
    }
  }
  return { start, end: Math.max(start, end) };
}

const PY_HEADER = /^\s*(?:async\s+def|def|class)\s/;

function indentBlock(lines: string[], at: number): LineRange {
  let start = at;
  const here = lines[at - 1] ?? '';
  if (!PY_HEADER.test(here)) {
    // Walk up to the nearest def/class that encloses the line.
    const target = here.trim() ? indentOf(here) : Number.POSITIVE_INFINITY;
    let found = false;
    for (let i = at - 1; i >= 1; i--) {
      const l = lines[i - 1] ?? '';
      if (!l.trim()) continue;
      if (indentOf(l) < target && PY_HEADER.test(l)) {
        start = i;
        found = true;
        break;
      }
    }
    if (!found) {
      // YAML and other indented data: the nearest less-indented key.
      for (let i = at - 1; i >= 1; i--) {
        const l = lines[i - 1] ?? '';
        if (l.trim() && indentOf(l) < target) {
          start = i;
          break;
        }
      }
    }
  }
  const base = indentOf(lines[start - 1] ?? '');
  let end = start;
  for (let i = start + 1; i <= lines.length; i++) {
    const l = lines[i - 1] ?? '';
    if (!l.trim()) continue;
    if (indentOf(l) <= base) break;
    end = i;
  }
  // Decorators belong to what they decorate.
  while (start > 1 && /^\s*@/.test(lines[start - 2] ?? '')) start--;
  return { start, end };
}

/** Blocks opened by `{` and closed by `}`: [startLine, endLine], skipping strings and comments. */
function braceBlocks(lines: string[]): LineRange[] {
  const blocks: LineRange[] = [];
  const stack: number[] = [];
  let inBlockComment = false;
  for (let n = 1; n <= lines.length; n++) {
    const line = lines[n - 1]!;
    let quote: string | undefined;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      const next = line[i + 1];
      if (inBlockComment) {
        if (c === '*' && next === '/') {
          inBlockComment = false;
          i++;
        }
        continue;
      }
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '/' && next === '/') break;
      if (c === '/' && next === '*') {
        inBlockComment = true;
        i++;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') quote = c;
      else if (c === '{') stack.push(n);
      else if (c === '}') {
        const open = stack.pop();
        if (open !== undefined) blocks.push({ start: open, end: n });
      }
    }
    // Strings do not span lines in most code (template literals aside): reset at line end.
    if (quote !== '`') quote = undefined;
  }
  return blocks;
}

const HEADER_HINT = /\b(class|interface|struct|enum|trait|impl|fn|func|function|def|module|namespace|object|record)\b|\)\s*(?::[^{]*)?\{?\s*$|=>\s*\{?\s*$/;

/** Pulls in a signature split over lines above `{`, and doc comments or attributes above that. */
function extendHeader(lines: string[], start: number): number {
  let s = start;
  for (let k = 0; k < 6 && s > 1; k++) {
    const prev = (lines[s - 2] ?? '').trim();
    if (!prev || /[;{}]$/.test(prev) || /^(\/\/|\/\*|\*|#|@)/.test(prev)) break;
    if (/^[)\w,:<>&*[\]\s.=|'"?-]+$/.test(prev) || /\($/.test(prev) || /,$/.test(prev)) s--;
    else break;
  }
  while (s > 1) {
    const prev = (lines[s - 2] ?? '').trim();
    if (/^(\/\/\/?|\/\*\*?|\*|\*\/|@\w|#\[)/.test(prev)) s--;
    else break;
  }
  return s;
}

export function expandBlock(lines: string[], line: number, file: string): LineRange {
  const at = Math.min(Math.max(1, line), Math.max(1, lines.length));
  const ext = extension(file);
  if (MARKDOWN.has(ext)) return markdownSection(lines, at);
  if (INDENT_LANGS.has(ext)) return indentBlock(lines, at);
  // Braces that open and close on one line (object literals, inline bodies) are not enclosing units.
  const all = braceBlocks(lines).filter((b) => b.end > b.start);
  // A header whose body opens on a following line (K&R C, Allman style, multi-line signatures).
  const below = all
    .filter((b) => b.start > at && b.start <= at + 3 && !lines.slice(at - 1, b.start - 1).some((l) => /[;}]\s*$/.test(l)))
    .sort((a, b) => a.start - b.start)[0];
  const blocks = all.filter((b) => b.start <= at && at <= b.end);
  if (below && !blocks.some((b) => b.start === at)) return { start: extendHeader(lines, at), end: below.end };
  if (!blocks.length) return { start: at, end: at };
  // A block opened on this very line (the definition) wins; else the innermost with a header.
  const own = blocks.filter((b) => b.start === at).sort((a, b) => b.end - a.end)[0];
  const inner = [...blocks].sort((a, b) => a.end - a.start - (b.end - b.start));
  const chosen = own ?? inner.find((b) => HEADER_HINT.test(lines[b.start - 1] ?? '')) ?? inner[0]!;
  return { start: extendHeader(lines, chosen.start), end: chosen.end };
}

/** Definitions of a file in order: an outline for files too large to read whole. */
export function outline(lines: string[]): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const header = /^\s{0,4}(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:abstract\s+)?(?:class|interface|type|struct|enum|trait|impl|fn|func|function|def|module|namespace|const\s+\w+\s*=\s*(?:async\s*)?\(|#{1,3}\s)/;
  lines.forEach((l, i) => {
    if (header.test(l) && out.length < 200) out.push({ line: i + 1, text: l.trim().slice(0, 120) });
  });
  return out;
}
