// read: the source of a symbol (`handle`, `OrderHandler.handle`), a range (`src/a.ts:40-80`) or a file,
// expanded to whole blocks and bounded by a token budget — never all of a big file.
import * as path from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../errors.ts';
import { expandBlock, type LineRange, outline } from '../../retrieval/block.ts';
import { readLines } from '../../retrieval/fileio.ts';
import { leafSymbol, ownerSymbol } from '../../retrieval/query.ts';
import { rankHits } from '../../retrieval/ranking.ts';
import { resolveSafe, type SafePath } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { compileRegex, escapeRegex } from '../../text/linear-regex.ts';
import { defineTool, READ_ONLY, type ToolCallContext, type ToolReply } from '../registry.ts';
import type { Definition } from '../../retrieval/graph.ts';
import { localLabel } from '../../code/graph.ts';
import { findSymbol, indexedPath, reportIndexProgress, tokenBudget } from './common.ts';
import { otherDefinitionsText } from './other-definitions.ts';

const input = z.strictObject({
  target: z.string().min(1).max(1000).describe('symbol, Class.method, file or file:start-end'),
  expand: z.boolean().optional(),
  max_tokens: z.number().int().min(50).optional(),
});

interface Located {
  file: SafePath;
  lines: string[];
  range?: LineRange;
  /** The definition read, when the code index found it. */
  definition?: Definition;
  /** The name's other definitions (then its local declarations), best first. */
  others?: Definition[];
}

/** Lines shown around a local declaration whose enclosing definition is too big to read whole. */
const LOCAL_WINDOW = 30;

function tryFile(ctx: ToolCallContext, target: string): { file: SafePath; range?: LineRange } | undefined {
  const m = /^(.*?):(\d+)(?:-(\d+))?$/.exec(target);
  const candidates: [string, LineRange | undefined][] = [];
  if (m) candidates.push([m[1]!, { start: Number(m[2]), end: Number(m[3] ?? m[2]) }]);
  candidates.push([target, undefined]);
  for (const [p, range] of candidates) {
    try {
      const file = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, p);
      if (!ctx.app.runtime.fs.statSync(file.real)?.isFile) continue;
      const secret = judgeSecret(ctx.app.workdirs, file);
      if (secret) throw secretRefusal(file.relative, secret, 'read');
      return range ? { file, range } : { file };
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
    const lines = await readLines(ctx.app.runtime.fs, ctx.app.workdirs, file.real);
    // Locals are listed only when the name has no definition of its own besides the one read.
    const others = indexed.slice(1).filter((d) => !d.local || !!best.local);
    return { file, lines, range: best.local ? localRange(best, budget) : { start: best.start, end: best.end }, definition: best, others };
  }
  const dispatched = await findSymbol(ctx, symbol);
  const defs = dispatched.hits.filter((h) => h.kind === 'definition');
  const mtimes = new Map(defs.map((h) => [h.file, 0]));
  const ranked = rankHits({ hits: defs, terms: [symbol.toLowerCase()], symbol, mtimes }, ctx.app.config);
  for (const hit of ranked.slice(0, 30)) {
    const file = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, path.join(root, hit.file));
    const lines = await readLines(ctx.app.runtime.fs, ctx.app.workdirs, file.real);
    if (owner && !belongsTo(lines, hit.line, owner, hit.file)) continue;
    return { file, lines, range: { start: hit.line, end: hit.line } };
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

function render(file: SafePath, lines: string[], range: LineRange, budgetTokens: number, cpt: number): { text: string; shown: LineRange; more: boolean } {
  const budget = budgetTokens * cpt;
  const out: string[] = [];
  let used = 0;
  let last = range.start - 1;
  for (let n = range.start; n <= range.end; n++) {
    const l = lines[n - 1] ?? '';
    if (used + l.length + 1 > budget && out.length) break;
    out.push(l);
    used += l.length + 1;
    last = n;
  }
  const more = last < range.end;
  const head = `${file.relative}:${range.start}-${last}`;
  const tail = more ? `\n(… continues to line ${range.end}: read ${file.relative}:${last + 1}-${range.end})` : '';
  return { text: `${head}\n${out.join('\n')}${tail}`, shown: { start: range.start, end: last }, more };
}

export const read = defineTool({
  name: 'read',
  title: 'Read code',
  description: 'Code of a target, expanded to its enclosing function/class (expand:false: exact range) within max_tokens; a big file: outline and first part.',
  input,
  annotations: READ_ONLY,
  async run(args, ctx): Promise<ToolReply> {
    await reportIndexProgress(ctx);
    const budget = tokenBudget(ctx, args.max_tokens);
    const cpt = ctx.app.config.estimation.charsPerToken;
    const expand = args.expand ?? true;
    const asFile = tryFile(ctx, args.target.trim());
    let located: Located;
    if (asFile) located = { file: asFile.file, lines: await readLines(ctx.app.runtime.fs, ctx.app.workdirs, asFile.file.real), range: asFile.range };
    else located = await locateSymbol(ctx, args.target.trim(), budget);
    const { file, lines } = located;
    const total = lines.length;

    if (!located.range) {
      const whole = lines.join('\n');
      if (whole.length <= budget * cpt) {
        const text = `${file.relative}:1-${total}\n${whole}`;
        return { text, structured: { file: file.relative, start: 1, end: total, total, complete: true } };
      }
      // Half the budget for the outline, the rest for the file's first part: never more than asked.
      const outlineBudget = Math.floor((budget * cpt) / 2);
      const rel = indexedPath(ctx, file);
      const defs = rel ? await ctx.app.graph.outline(rel) : undefined;
      let items: { line: number; text: string }[];
      let outlineText: string;
      if (defs?.length) {
        items = defs.map((d) => ({ line: d.line, text: d.signature }));
        outlineText = compactOutline(defs, outlineBudget).text;
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
        outlineText = shownItems.join('\n');
      }
      const first = render(file, lines, { start: 1, end: total }, Math.max(20, Math.floor(budget - (outlineText.length + 120) / cpt)), cpt);
      const text = `${file.relative}: ${total} lines, too large to read whole (budget ${budget} tokens)\noutline:\n${outlineText}\n\n${first.text}`;
      // The agent asked for the whole file and got its outline and first part: that is the saving.
      const fileBytes = new TextEncoder().encode(`${lines.join('\n')}\n`).length;
      return { text, structured: { file: file.relative, start: first.shown.start, end: first.shown.end, total, complete: false, outline: items }, saving: { rawBytes: fileBytes, basis: 'block instead of file' } };
    }

    const asked = { start: Math.max(1, located.range.start), end: Math.min(total, Math.max(located.range.start, located.range.end)) };
    if (asked.start > total) throw new AppError(ErrorCode.InvalidArgument, `${file.relative} has ${total} lines; line ${asked.start} does not exist`);
    let range = asked;
    if (located.definition) range = asked;
    else if (expand) {
      const whole = await definitionRange(ctx, file, asked);
      if (whole) range = { start: whole.start, end: Math.min(total, whole.end) };
      else {
        const a = expandBlock(lines, asked.start, file.relative);
        const b = expandBlock(lines, asked.end, file.relative);
        range = { start: Math.min(a.start, asked.start), end: Math.max(a.end, b.end, asked.end) };
      }
    }
    const def = located.definition;
    // What is listed under the code takes its share of the budget first.
    const below = def ? overloadsLine(def) + (await otherDefinitionsText(leafSymbol(args.target.trim()), def, located.others ?? [], (f) => readIndexed(ctx, f))) : '';
    const head = def?.local ? `(${localLabel(def)}: ${def.name} declared at line ${def.line})\n` : '';
    const shown = render(file, lines, range, Math.max(50, budget - Math.ceil((below.length + head.length) / cpt)), cpt);
    const text = head + shown.text + below;
    return {
      text,
      structured: {
        file: file.relative,
        start: shown.shown.start,
        end: shown.shown.end,
        total,
        complete: !shown.more,
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
            }
          : {}),
      },
    };
  },
});
