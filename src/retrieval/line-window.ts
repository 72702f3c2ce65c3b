// A window of a file's lines, at most a given number of characters of them, read without holding the
// file: a big file (a 200 MB log, a 50 MB line) is read in fixed chunks, the event loop let go between
// chunks, and only the characters asked for are kept. Lines before the window and after it are only
// counted, byte by byte; characters are counted (decoded) only on the lines the window touches.
import { AppError, ErrorCode } from '../errors.ts';
import type { SyncFiles } from '../runtime/types.ts';

/** Bytes read at a time: memory held is this buffer plus what the window keeps. */
export const CHUNK_BYTES = 1024 * 1024;

export interface WindowRequest {
  /** First line (1-based) and last line wanted. */
  start: number;
  end: number;
  /** On the first line, the first character wanted (1-based); 1 for the whole line. */
  fromColumn: number;
  /** On a one-line window, the last character wanted; absent: to the line's end. */
  toColumn?: number;
  /** Characters kept at most, over all lines; the lines past that are counted, not kept. */
  maxChars: number;
}

export interface WindowLine {
  line: number;
  /** The kept characters: all of the asked part of the line, or its first part when the budget ran out. */
  text: string;
  /** 1-based column of text[0]. */
  from: number;
  /** The whole line's length in characters (its line break not counted). */
  length: number;
}

export interface LineWindow {
  lines: WindowLine[];
  /** Lines in the file (a final line break ends the last line, it does not start another). */
  total: number;
}

const NEWLINE = 10;

/** Lets other calls and I/O run between chunks (setImmediate where the runtime has it: no 1 ms timer floor). */
function yieldToLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** The file a reader judged before opening it: the descriptor it reads must be that file, there. */
export interface JudgedFile {
  dev: number;
  ino: number;
  real: string;
}

/**
 * Reads the window of `abs` through `files` (positional reads), `chunkBytes` at a time; opened without
 * following a final symlink, and refused when the descriptor is not the file judged (`judged`: a file
 * swapped for another or for a link since).
 */
export async function readLineWindow(files: Pick<SyncFiles, 'openRead' | 'read' | 'close'>, abs: string, req: WindowRequest, chunkBytes = CHUNK_BYTES, judged?: JudgedFile): Promise<LineWindow> {
  let fd: number;
  try {
    const opened = files.openRead(abs);
    fd = opened.fd;
    if (judged && (opened.stat.dev !== judged.dev || opened.stat.ino !== judged.ino || (opened.location !== undefined && opened.location !== judged.real))) {
      files.close(fd);
      throw new AppError(ErrorCode.Unavailable, `'${abs}' changed while it was being opened (it was replaced, or a link was made to it), so it was not read`, { hint: 'try again once the file stays put' });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(ErrorCode.Unavailable, `'${abs}' could not be opened as a regular file (${(error as { code?: string }).code ?? 'error'})`, { hint: 'try again once the file stays put' });
  }
  try {
    return await scan(files, fd, req, chunkBytes);
  } finally {
    files.close(fd);
  }
}

async function scan(files: Pick<SyncFiles, 'read'>, fd: number, req: WindowRequest, chunkBytes: number): Promise<LineWindow> {
  const buffer = new Uint8Array(chunkBytes);
  const lines: WindowLine[] = [];
  let decoder = new TextDecoder();
  let line = 1;
  /** Characters of the current line seen so far (only counted on lines the window touches). */
  let column = 0;
  let kept = '';
  /** Column (0-based, exclusive) where the kept text of the current line ends. */
  let keptEnd = 0;
  let keptChars = 0;
  let lastChar = '';
  /** Bytes on the current line so far: whether the file's last line is empty. */
  let lineBytes = 0;
  let position = 0;
  // The first line always enters (its length tells what is left of it); later ones while there is room.
  const wanted = (n: number) => n >= req.start && n <= req.end && (n === req.start || keptChars < req.maxChars);
  let inWindow = wanted(line);

  const take = (text: string) => {
    if (!text) return;
    const first = line === req.start ? req.fromColumn - 1 : 0;
    const last = line === req.start && req.start === req.end && req.toColumn !== undefined ? req.toColumn : Number.POSITIVE_INFINITY;
    const lo = Math.max(column, first, keptEnd);
    const hi = Math.min(column + text.length, last, lo + (req.maxChars - keptChars));
    if (hi > lo) {
      kept += text.slice(lo - column, hi - column);
      keptChars += hi - lo;
      keptEnd = hi;
    }
    column += text.length;
    lastChar = text[text.length - 1]!;
  };
  const endLine = (lineBreak: boolean) => {
    if (inWindow) {
      let length = column;
      // A CRLF line break: the CR is not part of the line.
      if (lineBreak && lastChar === '\r') {
        length--;
        if (keptEnd > length) {
          kept = kept.slice(0, -1);
          keptChars--;
        }
      }
      lines.push({ line, text: kept, from: line === req.start ? req.fromColumn : 1, length });
    }
    line++;
    column = 0;
    kept = '';
    keptEnd = 0;
    lastChar = '';
    lineBytes = 0;
    decoder = new TextDecoder();
    inWindow = wanted(line);
  };

  for (;;) {
    const n = files.read(fd, buffer, position);
    if (n <= 0) break;
    position += n;
    const bytes = buffer.subarray(0, n);
    let i = 0;
    while (i < n) {
      const nl = bytes.indexOf(NEWLINE, i);
      const stop = nl < 0 ? n : nl;
      if (inWindow) take(decoder.decode(bytes.subarray(i, stop), { stream: nl < 0 }));
      lineBytes += stop - i;
      if (nl < 0) break;
      endLine(true);
      i = nl + 1;
    }
    await yieldToLoop();
  }
  if (inWindow) take(decoder.decode());
  // The last line has no line break: it is a line when it holds anything.
  if (lineBytes > 0) endLine(false);
  return { lines, total: line - 1 };
}

/** The same window over lines already in memory (a small file read whole). */
export function windowOfLines(all: readonly string[], req: WindowRequest): LineWindow {
  const lines: WindowLine[] = [];
  let keptChars = 0;
  for (let n = req.start; n <= Math.min(req.end, all.length); n++) {
    if (keptChars >= req.maxChars && lines.length) break;
    const whole = all[n - 1]!;
    const from = n === req.start ? req.fromColumn : 1;
    const to = n === req.start && req.start === req.end && req.toColumn !== undefined ? req.toColumn : whole.length;
    const text = whole.slice(from - 1, Math.min(to, from - 1 + req.maxChars - keptChars));
    keptChars += text.length;
    lines.push({ line: n, text, from, length: whole.length });
  }
  return { lines, total: all.length };
}
