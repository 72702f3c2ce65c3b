// What the literal-search benchmark (scripts/bench-literal.ts) reads out of text: a `search` reply as
// a client sees it (file header lines, then `  LINE: text` rows), `rg -n` output, and the ctxgate call
// a PreToolUse hook's deny reason names. Lenient on purpose: the reply format is being reworked
// (issue 20), and a row may carry a definition label or a block range.

export interface ReplyRow {
  file: string;
  line: number;
  /** Last line of a block range (`12-40: …`), when the row stands for a block. */
  end?: number;
}

export interface ParsedReply {
  firstLine: string;
  refused: boolean;
  rows: ReplyRow[];
}

// `  12: text`, `  12-40: text`, `  12 (in foo): text`.
const ROW = /^\s+(\d+)(?:[-–](\d+))?(?:\s[^:]*)?:(?:\s|$)/;
// `path:12: text` or `path:12:text`, as grep prints it.
const GREP_ROW = /^([^\s:][^:]*):(\d+):/;

/** The rows of a `search` reply, each attributed to the file header above it. */
export function parseSearchReply(text: string): ParsedReply {
  const lines = text.split('\n');
  const firstLine = lines[0] ?? '';
  const rows: ReplyRow[] = [];
  let file: string | undefined;
  for (const line of lines.slice(1)) {
    const row = ROW.exec(line);
    if (row) {
      if (file !== undefined) rows.push({ file, line: Number(row[1]), ...(row[2] ? { end: Number(row[2]) } : {}) });
      continue;
    }
    if (line === '' || /^\s/.test(line) || line.startsWith('(')) continue;
    const grep = GREP_ROW.exec(line);
    if (grep) {
      rows.push({ file: grep[1]!, line: Number(grep[2]) });
      continue;
    }
    // A file header: the path, perhaps followed by a label or a colon.
    file = line.split(/\s/)[0]!.replace(/:$/, '');
  }
  return { firstLine, refused: firstLine.startsWith('refused'), rows };
}

export interface RgLine {
  file: string;
  line: number;
}

/** `rg -n` output searched from a folder (`path:LINE:text` per line) as file and line pairs. */
export function parseRgLines(output: string): RgLine[] {
  const out: RgLine[] = [];
  for (const line of output.split('\n')) {
    const m = GREP_ROW.exec(line);
    if (m) out.push({ file: m[1]!.replace(/^\.\//, ''), line: Number(m[2]) });
  }
  return out;
}

/** Where each expected line stands among the reply's rows: its row index, or -1 when no row of its own. */
export function rowIndexes(rows: readonly ReplyRow[], expected: readonly RgLine[]): number[] {
  const at = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = `${r.file}\0${r.line}`;
    if (!at.has(key)) at.set(key, i);
  });
  return expected.map((e) => at.get(`${e.file}\0${e.line}`) ?? -1);
}

/** Whether every expected line lies inside some row's span (its own row, or a block range holding it). */
export function coveredByRanges(rows: readonly ReplyRow[], expected: readonly RgLine[]): boolean {
  return expected.every((e) => rows.some((r) => r.file === e.file && r.line <= e.line && e.line <= (r.end ?? r.line)));
}

export interface SuggestedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** The JSON object that starts at `text[from]` (a `{`), or undefined when it does not close or parse. */
function jsonObjectAt(text: string, from: number): Record<string, unknown> | undefined {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        const value = JSON.parse(text.slice(from, i + 1)) as unknown;
        return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const CALL = /(?:mcp__[\w-]+__|\b)(search|locate|read|explore)\s*\{/g;

/**
 * The ctxgate calls a hook message names (`mcp__ctxgate__search {"pattern":…}` or `search {…}`), in
 * the order written.
 */
export function suggestedCalls(text: string): SuggestedCall[] {
  const out: SuggestedCall[] = [];
  for (const m of text.matchAll(CALL)) {
    const args = jsonObjectAt(text, m.index + m[0].length - 1);
    if (args) out.push({ tool: m[1]!, args });
  }
  return out;
}
