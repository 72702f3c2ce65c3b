// read: the source of a symbol (`handle`, `OrderHandler.handle`), a range (`src/a.ts:40-80`) or a file,
// expanded to whole blocks and bounded by a token budget — never all of a big file.
// The work behind the tool declared in read.ts (loaded on its first call, not at start).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../../errors.ts';
import { expandBlock, type LineRange, outline } from '../../retrieval/block.ts';
import { readLines } from '../../retrieval/fileio.ts';
import { judgeStreamed } from '../../security/secret-read.ts';
import { type JudgedFile, type LineWindow, readLineWindow, type WindowRequest, windowOfLines } from '../../retrieval/line-window.ts';
import { leafSymbol, ownerSymbol } from '../../retrieval/query.ts';
import { rankHits } from '../../retrieval/ranking.ts';
import { resolveSafe, type SafePath } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { compileRegex, escapeRegex } from '../../text/linear-regex.ts';
import type { ToolCallContext, ToolReply } from '../registry.ts';
import type { Definition } from '../../retrieval/graph.ts';
import { localLabel } from '../../code/graph.ts';
import { findSymbol, indexedPath, reportIndexProgress, tokenBudget } from './common.ts';
import { otherDefinitionsText } from './other-definitions.ts';
import { type Columns, cutFields, render } from './read-render.ts';
import type { ReadArgs as Args } from './read.ts';


/**
 * Files up to this size are read whole (blocks expanded, outlined); bigger ones are streamed a chunk
 * at a time and only the window asked for is kept: a 200 MB log neither stalls other calls nor
 * takes gigabytes.
 */
export const WHOLE_FILE_MAX_BYTES = 2 * 1024 * 1024;

/** A file's lines in memory (small files), or its size only (big ones: read as windows). */
interface Source {
  lines?: string[];
  size: number;
  /** A big file, read in chunks: the file judged, which every open of a chunk must find. */
  judged?: JudgedFile;
}

interface Located {
  file: SafePath;
  source: Source;
  range?: LineRange;
  columns?: Columns;
  /** The definition read, when the code index found it. */
  definition?: Definition;
  /** The name's other definitions (then its local declarations), best first. */
  others?: Definition[];
  /** The definitions came from part of the files naming the name (Definitions.partial). */
  partial?: boolean;
}

/** Lines shown around a local declaration whose enclosing definition is too big to read whole. */
const LOCAL_WINDOW = 30;

function tryFile(ctx: ToolCallContext, target: string): { file: SafePath; range?: LineRange; columns?: Columns } | undefined {
  // file:start-end, or file:line:from-to for characters of one (long) line.
  const m = /^(.*?):(\d+)(?:-(\d+)|:(\d+)(?:-(\d+))?)?$/.exec(target);
  const candidates: [string, LineRange | undefined, Columns | undefined][] = [];
  if (m) {
    const columns = m[4] ? { from: Number(m[4]), ...(m[5] ? { to: Number(m[5]) } : {}) } : undefined;
    if (columns && (columns.from < 1 || (columns.to !== undefined && columns.to < columns.from))) {
      throw new AppError(ErrorCode.InvalidArgument, `bad column range in '${target}': columns count from 1 and the end is not before the start`, { hint: 'e.g. big.min.js:1:1-4000' });
    }
    candidates.push([m[1]!, { start: Number(m[2]), end: Number(m[3] ?? m[2]) }, columns]);
  }
  candidates.push([target, undefined, undefined]);
  for (const [p, range, columns] of candidates) {
    try {
      const file = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, p);
      if (!ctx.app.runtime.fs.statSync(file.real)?.isFile) continue;
      const secret = judgeSecret(ctx.app.workdirs, file);
      if (secret) throw secretRefusal(file.relative, secret, 'read');
      return range ? { file, range, ...(columns ? { columns } : {}) } : { file };
    } catch (error) {
      // A path that escapes the workdirs, or a secret file, is an answer, not a reason to try the symbol route.
      if (error instanceof AppError && (error.code === ErrorCode.OutsideWorkdir || error.code === ErrorCode.SecretRefused)) throw error;
    }
  }
  return undefined;
}

/** True when `line` sits inside a class/struct/impl/… named `owner` (or a Go method on it). */
function belongsTo(lines: string[], line: number, owner: string, file: string): boolean {
  const o = escapeRegex(owner);
  // The owner comes from the query: both run on the linear-time engine, over lines of any length.
  if (compileRegex(`\\(\\s*\\w+\\s+\\*?${o}\\s*\\)`).test(lines[line - 1] ?? '')) return true;
  const header = compileRegex(`\\b(?:class|struct|interface|trait|impl(?:<[^>]*>)?(?:\\s+\\w+\\s+for)?|object|module|enum|record|type)\\s+${o}\\b`);
  for (let i = line - 1; i >= 1; i--) {
    if (header.test(lines[i - 1] ?? '')) {
      const block = expandBlock(lines, i, file);
      return block.end >= line;
    }
  }
  return false;
}

/** A local declaration is read within the definition holding it: all of it when it fits, else the lines around the declaration. */
function localRange(d: Definition, budgetTokens: number): LineRange {
  const inside = d.local?.in;
  // A rough fit: 40 characters a line, 4 to a token.
  if (inside && (inside.end - inside.start + 1) * 10 <= budgetTokens) return { start: inside.start, end: inside.end };
  const start = Math.max(inside?.start ?? 1, d.line - 5);
  return { start, end: Math.max(d.line, Math.min(inside?.end ?? d.line + LOCAL_WINDOW, start + LOCAL_WINDOW)) };
}

async function locateSymbol(ctx: ToolCallContext, target: string, budget: number): Promise<Located> {
  const symbol = leafSymbol(target);
  const owner = ownerSymbol(target);
  const root = ctx.app.workdirs.dirs[0]!;
  // The code index knows each definition's whole range, doc comment and overloads included.
  const indexed = await ctx.app.graph.definitions(symbol, owner, { locals: true });
  const best = indexed?.[0];
  if (best) {
    const file = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, path.join(ctx.app.code.root, best.file));
    // Locals are listed only when the name has no definition of its own besides the one read.
    const others = indexed.slice(1).filter((d) => !d.local || !!best.local);
    return { file, source: await openSource(ctx, file), range: best.local ? localRange(best, budget) : { start: best.start, end: best.end }, definition: best, others, ...(indexed.partial ? { partial: true } : {}) };
  }
  const dispatched = await findSymbol(ctx, symbol);
  const defs = dispatched.hits.filter((h) => h.kind === 'definition');
  const mtimes = new Map(defs.map((h) => [h.file, 0]));
  const ranked = rankHits({ hits: defs, terms: [symbol.toLowerCase()], symbol, mtimes }, ctx.app.config);
  for (const hit of ranked.slice(0, 30)) {
    const file = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, path.join(root, hit.file));
    const source = await openSource(ctx, file);
    // The owner is checked on files read whole; a file too big for that is no place to look for it.
    if (owner && !(source.lines && belongsTo(source.lines, hit.line, owner, hit.file))) continue;
    return { file, source, range: { start: hit.line, end: hit.line } };
  }
  throw new AppError(ErrorCode.NotFound, `no definition of ${target} found`, {
    hint: owner ? `check the names, or read ${symbol} alone` : 'locate it first (locate with kind "any"), or read a file:start-end range',
  });
}

/** One line listing a definition's overload signatures with their lines, bounded. */
function overloadsLine(def: Definition): string {
  if (!def.overloads.length) return '';
  const parts: string[] = [];
  let used = 0;
  for (const o of def.overloads) {
    const entry = `${o.line} ${o.signature.replace(/^(export\s+)?(declare\s+)?(function\s+)?/, '')}`;
    if (used + entry.length > 600 && parts.length) {
      parts.push(`… ${def.overloads.length - parts.length} more`);
      break;
    }
    parts.push(entry);
    used += entry.length + 3;
  }
  return `\n(${def.overloads.length} overload signature${def.overloads.length === 1 ? '' : 's'} of ${def.name}: ${parts.join(' | ')})`;
}

/** A compact outline: every top-level definition as `line kind name`, with "N more" past the budget. */
function compactOutline(defs: Definition[], budgetChars: number): { text: string; shown: number } {
  const entries = defs.map((d) => `${d.line} ${d.kind} ${d.container ? `${d.container}.` : ''}${d.name}${d.overloads.length ? ` (+${d.overloads.length} overloads)` : ''}`);
  const rows: string[] = [];
  let row = '';
  let used = 0;
  let shown = 0;
  for (const e of entries) {
    if (used + e.length + 3 > budgetChars) break;
    if (row && row.length + e.length + 3 > 110) {
      rows.push(row);
      row = '';
    }
    row = row ? `${row} · ${e}` : e;
    used += e.length + 3;
    shown++;
  }
  if (row) rows.push(row);
  if (shown < entries.length) rows.push(`… ${entries.length - shown} more definitions (read a range to see them)`);
  return { text: rows.join('\n'), shown };
}

/** The definitions holding the asked lines, as one range; undefined when the index has none there. */
async function definitionRange(ctx: ToolCallContext, file: SafePath, asked: LineRange): Promise<LineRange | undefined> {
  const rel = indexedPath(ctx, file);
  if (!rel) return undefined;
  const a = await ctx.app.graph.definitionAt(rel, asked.start);
  const b = asked.end === asked.start ? a : await ctx.app.graph.definitionAt(rel, asked.end);
  if (!a && !b) return undefined;
  const starts = [a, b].filter((d): d is Definition => !!d);
  return { start: Math.min(asked.start, ...starts.map((d) => d.start)), end: Math.max(asked.end, ...starts.map((d) => d.end)) };
}

/** The lines of an indexed file (for the doc comment of another definition); none when it cannot be read. */
async function readIndexed(ctx: ToolCallContext, file: string): Promise<string[]> {
  try {
    const safe = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, path.join(ctx.app.code.root, file));
    return await readLines(ctx.app.runtime.fs, ctx.app.workdirs, safe.real);
  } catch {
    return [];
  }
}

/** A small file's lines, or a big file's size (its lines are streamed as windows); secret files are refused. */
async function openSource(ctx: ToolCallContext, file: SafePath): Promise<Source> {
  const fs = ctx.app.runtime.fs;
  const size = fs.statSync(file.real)?.size ?? 0;
  if (size <= WHOLE_FILE_MAX_BYTES) return { lines: await readLines(fs, ctx.app.workdirs, file.real, file.relative), size };
  const judged = await judgeStreamed(fs, ctx.app.workdirs, file.real, 'read', file.relative);
  return { size, judged };
}

function windowOf(ctx: ToolCallContext, file: SafePath, source: Source, req: WindowRequest): Promise<LineWindow> {
  return source.lines ? Promise.resolve(windowOfLines(source.lines, req)) : readLineWindow(ctx.app.runtime.fs.files, file.real, req, undefined, source.judged);
}

export async function runRead(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  await reportIndexProgress(ctx);
  const budget = tokenBudget(ctx, args.max_tokens);
  const cpt = ctx.app.config.estimation.charsPerToken;
  const expand = args.expand ?? true;
  const asFile = tryFile(ctx, args.target.trim());
  let located: Located;
  if (asFile) located = { file: asFile.file, source: await openSource(ctx, asFile.file), range: asFile.range, ...(asFile.columns ? { columns: asFile.columns } : {}) };
  else located = await locateSymbol(ctx, args.target.trim(), budget);
  const { file, source } = located;
  const { lines } = source;
  const maxChars = Math.floor(budget * cpt);

  if (!located.range) {
    if (lines) {
      const whole = `${file.relative}:1-${lines.length}\n${lines.join('\n')}`;
      if (whole.length <= maxChars) return { text: whole, structured: { file: file.relative, start: 1, end: lines.length, total: lines.length, complete: true } };
    }
    // Half the budget for the outline, the rest for the file's first part: never more than asked.
    const outlineBudget = Math.floor(maxChars / 2);
    const rel = indexedPath(ctx, file);
    const defs = rel ? await ctx.app.graph.outline(rel) : undefined;
    let items: { line: number; text: string }[];
    let outlineText: string;
    if (defs?.length) {
      items = defs.map((d) => ({ line: d.line, text: d.signature }));
      outlineText = compactOutline(defs, outlineBudget).text;
    } else if (!lines) {
      items = [];
      outlineText = `(none: a file of ${source.size} bytes is not outlined; read ranges of it)`;
    } else {
      items = outline(lines);
      const shownItems: string[] = [];
      let used = 0;
      for (const o of items) {
        const entry = `${o.line}: ${o.text}`;
        if (used + entry.length + 1 > outlineBudget) break;
        shownItems.push(entry);
        used += entry.length + 1;
      }
      if (shownItems.length < items.length) shownItems.push(`… ${items.length - shownItems.length} more definitions (read a range to see them)`);
      outlineText = shownItems.length ? shownItems.join('\n') : '(no definitions found)';
    }
    const win = await windowOf(ctx, file, source, { start: 1, end: Number.MAX_SAFE_INTEGER, fromColumn: 1, maxChars });
    const total = win.total;
    const headLine = `${file.relative}: ${total} lines, too large to read whole (budget ${budget} tokens)\noutline:\n${outlineText}\n\n`;
    const first = render(file.relative, win, { start: 1, end: total }, maxChars - headLine.length);
    const text = `${headLine}${first.text}`;
    // The agent asked for the whole file and got its outline and first part: that is the saving.
    return {
      text,
      structured: { file: file.relative, start: first.shown.start, end: first.shown.end, total, complete: false, outline: items, ...cutFields(first.cut) },
      saving: { rawBytes: source.size, basis: 'block instead of file' },
    };
  }

  const def = located.definition;
  // What is listed under the code (overloads, other definitions) goes along when it leaves most of
  // the budget to the code; a local's label goes first.
  const below = def ? overloadsLine(def) + (await otherDefinitionsText(leafSymbol(args.target.trim()), def, located.others ?? [], (f) => readIndexed(ctx, f), located.partial)) : '';
  const head = def?.local ? `(${localLabel(def)}: ${def.name} declared at line ${def.line})\n` : '';
  const extra = below.length + head.length <= maxChars / 3 ? below : '';
  const asked = { start: Math.max(1, located.range.start), end: Math.max(located.range.start, located.range.end) };
  let range = asked;
  if (lines) {
    if (asked.start > lines.length) throw new AppError(ErrorCode.InvalidArgument, `${file.relative} has ${lines.length} lines; line ${asked.start} does not exist`);
    range = { start: asked.start, end: Math.min(lines.length, asked.end) };
    if (expand && !def && !located.columns) {
      const whole = await definitionRange(ctx, file, range);
      if (whole) range = { start: whole.start, end: Math.min(lines.length, whole.end) };
      else {
        const a = expandBlock(lines, range.start, file.relative);
        const b = expandBlock(lines, range.end, file.relative);
        range = { start: Math.min(a.start, range.start), end: Math.max(a.end, b.end, range.end) };
      }
    }
  } else if (expand && !def && !located.columns) {
    // A big file is not held to find its blocks: the code index's definitions are the expansion.
    const whole = await definitionRange(ctx, file, asked);
    if (whole) range = whole;
  }
  const columns = located.columns;
  const win = await windowOf(ctx, file, source, { start: range.start, end: range.end, fromColumn: columns?.from ?? 1, ...(columns?.to ? { toColumn: columns.to } : {}), maxChars });
  const total = win.total;
  if (range.start > total) throw new AppError(ErrorCode.InvalidArgument, `${file.relative} has ${total} lines; line ${range.start} does not exist`);
  range = { start: range.start, end: Math.min(total, range.end) };
  const firstLine = win.lines[0];
  if (columns && firstLine && columns.from > Math.max(1, firstLine.length)) {
    throw new AppError(ErrorCode.InvalidArgument, `line ${range.start} of ${file.relative} has ${firstLine.length} characters; column ${columns.from} does not exist`, {
      hint: `read ${file.relative}:${range.start}:1-${Math.min(firstLine.length, maxChars)}`,
    });
  }
  const shownHead = head.length <= maxChars / 3 ? head : '';
  const shown = render(file.relative, win, range, maxChars - extra.length - shownHead.length, columns);
  return {
    text: shownHead + shown.text + extra,
    structured: {
      file: file.relative,
      start: shown.shown.start,
      end: shown.shown.end,
      total,
      complete: !shown.more,
      ...cutFields(shown.cut),
      ...(def
        ? {
            definition: {
              name: def.name,
              kind: def.kind,
              container: def.container ?? null,
              line: def.line,
              overloads: def.overloads,
              ...(def.local ? { local: localLabel(def) } : {}),
              ...(def.declarations?.length ? { declarations: def.declarations } : {}),
            },
            others: (located.others ?? []).map((d) => ({ file: d.file, line: d.line, kind: d.kind, ...(d.local ? { local: localLabel(d) } : {}) })),
            ...(located.partial ? { othersLowerBound: true } : {}),
          }
        : {}),
    },
  };
}
