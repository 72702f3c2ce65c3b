// read's reply for a window of lines: whole lines while they fit the budget (header and marker
// counted), a first line too long for it cut inside, and a marker naming the reads that get the rest
// (`file:line:from-to` for the rest of a line, `file:start-end` for the lines after).
import type { LineRange } from '../../retrieval/block.ts';
import type { LineWindow } from '../../retrieval/line-window.ts';

/** Characters of a line asked for (1-based, inclusive; `to` absent: to the line's end). */
export interface Columns {
  from: number;
  to?: number;
}

interface Cut {
  line: number;
  /** Last column shown, last column asked, the line's length. */
  shownTo: number;
  askedTo: number;
  length: number;
  /** Characters shown of the line: the size of the next part offered. */
  shown: number;
}

/** What is left after the part shown, and the reads that get it. */
function restMarker(rel: string, cut: Cut | undefined, nextLine: number, end: number): string {
  const parts: string[] = [];
  if (cut) {
    const rest = cut.askedTo - cut.shownTo;
    const next = `${rel}:${cut.line}:${cut.shownTo + 1}-${Math.min(cut.askedTo, cut.shownTo + Math.max(1, cut.shown))}`;
    parts.push(`… ${rest} more chars of line ${cut.line} (${cut.length} chars long)${cut.askedTo < cut.length ? ' in the range asked' : ''}: read ${next}`);
  }
  if (nextLine <= end) parts.push(`${cut ? 'then' : '… continues to'} line ${end}: read ${rel}:${nextLine}-${end}`);
  return parts.length ? `\n(${parts.join('; ')})` : '';
}

/**
 * The lines of `range` as a reply of at most `maxChars` characters, header and marker included: whole
 * lines while they fit; a first line too long for the reply is cut inside, with a marker naming the
 * column range that comes next.
 */
export function render(rel: string, win: LineWindow, range: LineRange, maxChars: number, columns?: Columns): { text: string; shown: LineRange; more: boolean; cut?: Cut } {
  const first = win.lines[0];
  // Room for the header and the marker at their longest, whatever numbers they end up holding.
  const big = Number('9'.repeat(String(Math.max(range.end, first?.length ?? 0, 1)).length));
  const headReserve = `${rel}:${big}:${big}-${big}\n`.length;
  const tailReserve = restMarker(rel, { line: big, shownTo: big, askedTo: big * 2, length: big, shown: big }, big, big).length;
  const room = Math.max(0, maxChars - headReserve - tailReserve);
  const out: string[] = [];
  let used = 0;
  let last = range.start - 1;
  let cut: Cut | undefined;
  for (const l of win.lines) {
    if (l.line > range.end) break;
    const askedTo = columns && l.line === range.start && columns.to !== undefined ? Math.min(columns.to, l.length) : l.length;
    const whole = l.from - 1 + l.text.length >= askedTo;
    const size = l.text.length + (out.length ? 1 : 0);
    if (whole && used + size <= room) {
      out.push(l.text);
      used += size;
      last = l.line;
      continue;
    }
    if (out.length) break;
    // The first line does not fit: its first part, and where the rest is.
    const shown = l.text.slice(0, room);
    out.push(shown);
    cut = { line: l.line, shownTo: l.from - 1 + shown.length, askedTo, length: l.length, shown: shown.length };
    last = l.line;
    break;
  }
  const inLine = cut ?? (columns && first ? { line: first.line, shownTo: first.from - 1 + (out[0]?.length ?? 0) } : undefined);
  const from = first?.from ?? 1;
  const head = inLine ? `${rel}:${inLine.line}:${from}-${inLine.shownTo}` : `${rel}:${range.start}-${last}`;
  // All of a column range asked for was shown, and the line goes on: say where the rest of it is.
  const beyond = !cut && inLine && first && inLine.shownTo < first.length ? { line: first.line, shownTo: inLine.shownTo, askedTo: first.length, length: first.length, shown: out[0]?.length ?? 0 } : undefined;
  const text = `${head}\n${out.join('\n')}${restMarker(rel, cut ?? beyond, last + 1, range.end)}`;
  return { text, shown: { start: range.start, end: last }, more: cut !== undefined || last < range.end, ...(cut ? { cut } : {}) };
}

/** The structured form of a line cut inside: the columns shown and the line's length. */
export function cutFields(cut: Cut | undefined): Record<string, unknown> {
  return cut ? { cut: { line: cut.line, shownTo: cut.shownTo, length: cut.length } } : {};
}
