// One judgement of a pattern for both engines (issue 23.12). The built-in engine is RE2, ripgrep is
// Rust's regex: they mostly agree, but not on everything — `(?:x{1000}){1000}` is refused by RE2 and
// runs for a minute in ripgrep; a line break is refused by ripgrep as a regex and splits a literal
// into two patterns, while RE2 would take it and match nothing. So every pattern is judged here, by
// RE2, before either engine sees it: what one engine refuses, the other never gets.
import { AppError, ErrorCode, isAppError } from '../../errors.ts';
import { compileRegex } from '../../text/linear-regex.ts';
import { SEARCH_PATTERN_MAX } from './pattern-limit.ts';

export { SEARCH_PATTERN_MAX };

export interface PatternCheckOptions {
  /** The pattern is plain text (rg -F), not a regex. */
  literal: boolean;
  /** How the caller's user searches for the text as typed ("pass literal: true"), added to a regex error's hint. */
  literalHint?: string;
}

/** Throws INVALID_ARGUMENT naming what a pattern holds that a search cannot take; returns when both engines can run it. */
export function checkGrepPattern(pattern: string, options: PatternCheckOptions): void {
  const problem = textProblem(pattern);
  if (problem) throw new AppError(ErrorCode.InvalidArgument, problem.message, { hint: problem.hint });
  if (options.literal) return;
  try {
    compileRegex(pattern);
  } catch (error) {
    if (!isAppError(error) || !options.literalHint) throw error;
    throw new AppError(error.code, error.message, { hint: `${error.hint ? `${error.hint}; ` : ''}${options.literalHint}` });
  }
}

/** Whether both engines take the pattern as text (no line break, no control character but a tab), whatever its syntax. */
export function patternTextAccepted(pattern: string): boolean {
  return textProblem(pattern) === undefined;
}

function textProblem(pattern: string): { message: string; hint: string } | undefined {
  if (/[\r\n]/.test(pattern)) {
    return { message: 'pattern holds a line break: search matches within one line', hint: 'search for one line of the text, the most distinctive one' };
  }
  const control = /[\u0000-\u0008\u000b-\u001f\u007f]/.exec(pattern);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(2, '0');
    return {
      message: `pattern holds the control character U+00${code.toUpperCase()} at ${control.index + 1}`,
      hint: 'pass printable text (tabs are fine); for a byte pattern use a regex with an escape such as \\x00',
    };
  }
  return undefined;
}
