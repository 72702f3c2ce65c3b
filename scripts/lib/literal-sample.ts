// The held-out exact strings of the literal-search benchmark (scripts/bench-literal.ts), taken from the
// sources themselves and never from ctxgate: error and log messages, comment phrases, identifiers, and
// code fragments holding regex metacharacters. Deterministic for a seed.

export const SORTS = ['message', 'comment', 'identifier', 'metachar'] as const;
export type Sort = (typeof SORTS)[number];

export type Language = 'ts' | 'py' | 'go' | 'c';

export function languageOf(file: string): Language | undefined {
  if (/\.(ts|tsx|js|mjs)$/.test(file)) return 'ts';
  if (file.endsWith('.py')) return 'py';
  if (file.endsWith('.go')) return 'go';
  if (/\.[ch]$/.test(file)) return 'c';
  return undefined;
}

// A call whose first argument is a message: throw/raise/panic/errors.New/fmt.Errorf/new Error/loggers.
const MESSAGE_CALLS: Record<Language, RegExp> = {
  ts: /(?:new\s+\w*Error|throw\s+\w*|console\.\w+|\blog\w*|\bdie\w*|\bfail\w*|\bwarn\w*)\s*\(\s*(["'`])((?:(?!\1)[^\\\n])+)\1/g,
  py: /(?:raise\s+[\w.]+|\blog(?:ger|ging)?\.\w+|warnings\.warn|\bfail\w*|\berror)\s*\(\s*[rbfuRBFU]{0,2}(["'])((?:(?!\1)[^\\\n])+)\1/g,
  go: /(?:errors\.New|fmt\.Errorf|\bpanic|\blog\.\w+|\.(?:Fatal|Error|Log|Skip|Print)f?)\s*\(\s*(")((?:[^"\\\n])+)"/g,
  c: /(?:\bpr_\w+|\bprintk|\bdev_\w+|\bpanic|\bWARN\w*|\bBUG\w*)\s*\([^"\n;]*?(")((?:[^"\\\n])+)"/g,
};

// Interpolations and format verbs cut a message into the pieces a person sees verbatim.
const INTERPOLATION = /\$\{[^}]*\}|\{[^}]*\}|%[-+# 0-9.*]*[a-zA-Z]|\\./g;

/** The longest verbatim piece of a message, when it is long enough to be worth grepping for. */
export function messagePiece(literal: string): string | undefined {
  const pieces = literal.split(INTERPOLATION).map((p) => p.trim());
  const best = pieces.reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= 10 && /[A-Za-z]{3}/.test(best) && best.includes(' ') ? best : undefined;
}

const COMMENT: Record<Language, RegExp> = {
  ts: /(?:\/\/+|^\s*\/?\*+)\s?(.*)$/,
  go: /(?:\/\/+|^\s*\/?\*+)\s?(.*)$/,
  c: /(?:\/\/+|^\s*\/?\*+)\s?(.*)$/,
  py: /(?:^|\s)#+\s?(.*)$/,
};

/** 4 to 8 consecutive words of a comment, exactly as written (inner spacing kept). */
export function commentPhrase(comment: string, random: () => number): string | undefined {
  const words = [...comment.matchAll(/\S+/g)];
  if (words.length < 4) return undefined;
  const size = 4 + Math.floor(random() * (Math.min(8, words.length) - 3));
  const start = Math.floor(random() * (words.length - size + 1));
  const first = words[start]!;
  const last = words[start + size - 1]!;
  const phrase = comment.slice(first.index, last.index + last[0].length);
  // A phrase starts and ends where a person's copy would: on a word, not on table rules or markup.
  return /^[\w`'"]/.test(phrase) && /[\w`'")]$/.test(phrase.replace(/[.,:;]$/, '')) ? phrase : undefined;
}

const STRING_LITERAL = /(["'`])(?:(?!\1)[^\\\n]|\\.)*\1/g;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]{5,39}/g;
// A run of code holding at least one of . ( [ * — a call, a field chain, an index, a pointer type.
const METACHAR_RUN = /[A-Za-z_*(][\w.*()[\]]{5,47}/g;

/** Every candidate of each sort in one file's text. */
export function candidates(text: string, language: Language, random: () => number): Record<Sort, string[]> {
  const out: Record<Sort, string[]> = { message: [], comment: [], identifier: [], metachar: [] };
  for (const m of text.matchAll(MESSAGE_CALLS[language])) {
    const piece = messagePiece(m[2]!);
    if (piece) out.message.push(piece);
  }
  for (const line of text.split('\n')) {
    if (line.length > 300) continue;
    const comment = COMMENT[language].exec(line);
    if (comment?.[1]) {
      const phrase = commentPhrase(comment[1], random);
      if (phrase) out.comment.push(phrase);
      continue;
    }
    const code = line.replace(STRING_LITERAL, ' ');
    for (const m of code.matchAll(IDENTIFIER)) out.identifier.push(m[0]);
    for (const m of line.matchAll(METACHAR_RUN)) {
      const run = m[0].replace(/[.(*[]+$/, (tail) => tail.slice(0, 1));
      if (/[.([*]/.test(run) && (run.match(/\w/g) ?? []).length >= 4) out.metachar.push(run);
    }
  }
  return out;
}

/** A string the new contract accepts as a pattern: no line breaks or control characters, 1–500 characters. */
export function acceptablePattern(s: string): boolean {
  return s.trim().length >= 4 && s.length <= 500 && !/[\u0000-\u001f\u007f]/.test(s);
}
