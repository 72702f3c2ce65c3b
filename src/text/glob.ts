// Globs compiled to RE2, so matching a path takes time linear in its length. picomatch compiles
// globs to backtracking RegExps: `**/*a*a*a*a*b` against a 200-character path took 10 s on this
// machine, with the event loop blocked (issue 11).
//
// The syntax is the common one (ripgrep's --glob, .gitignore, picomatch): `*` and `?` within one
// path segment, `**` as a whole segment for any number of segments, `[abc]` `[!a-z]` classes
// (POSIX `[[:alpha:]]` too; `[!a]` negates, as in .gitignore), `{a,b}` alternatives (nested), `\`
// to escape.
import { AppError, ErrorCode, messageOf } from '../errors.ts';
import { compileRegex, escapeRegex, type LinearRegex } from './linear-regex.ts';

export interface GlobOptions {
  /**
   * True (the default, ripgrep's way): wildcards match a leading dot like any other character.
   * False (picomatch's default): a path with a hidden segment (`.env`, `.git/x`) matches only a glob
   * that has a segment starting with a dot, and then wildcards match leading dots throughout.
   */
  dot?: boolean;
}

/** A test for `/`-separated relative paths; a glob that cannot be compiled is INVALID_ARGUMENT. */
export function compileGlob(glob: string, options: GlobOptions = {}): (path: string) => boolean {
  let regex: LinearRegex;
  try {
    regex = compileRegex(`^(?:${translate(glob)})$`);
  } catch (error) {
    throw new AppError(ErrorCode.InvalidArgument, `glob ${JSON.stringify(glob)} is not valid: ${messageOf(error)}`, { hint: 'check its [classes] and {alternatives}' });
  }
  const namesHidden = glob.split('/').some((segment) => segment.startsWith('.'));
  if (options.dot === false && !namesHidden) return (path) => !/(?:^|\/)\./.test(path) && regex.test(path);
  return (path) => regex.test(path);
}

function translate(glob: string): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    const atSegmentStart = i === 0 || glob[i - 1] === '/';
    if (c === '\\') {
      out += escapeRegex(glob[i + 1] ?? '\\');
      i += 2;
    } else if (c === '*' && glob[i + 1] === '*' && atSegmentStart && (i + 2 === glob.length || glob[i + 2] === '/')) {
      // `**/` is any number of whole segments; a final `**` (or `/**`) is anything below.
      if (i + 2 === glob.length) {
        if (out.endsWith('/')) out = `${out.slice(0, -1)}(?:/.*)?`;
        else out += '.*';
        i += 2;
      } else {
        out += '(?:[^/]*/)*';
        i += 3;
      }
    } else if (c === '*') {
      while (glob[i] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const cls = bracket(glob, i);
      out += cls ? cls.regex : '\\[';
      i = cls ? cls.end : i + 1;
    } else if (c === '{') {
      const alt = braces(glob, i);
      out += alt ? alt.regex : '\\{';
      i = alt ? alt.end : i + 1;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  return out;
}

/** `[…]` from `start`: the RE2 class and the index past it, or undefined when it does not close. */
function bracket(glob: string, start: number): { regex: string; end: number } | undefined {
  let i = start + 1;
  const negate = glob[i] === '!' || glob[i] === '^';
  if (negate) i++;
  let body = '';
  // A `]` right after the opening (or its negation) is a literal member.
  if (glob[i] === ']') {
    body += '\\]';
    i++;
  }
  while (i < glob.length && glob[i] !== ']') {
    const posix = glob[i] === '[' && glob[i + 1] === ':' ? glob.indexOf(':]', i + 2) : -1;
    if (posix > 0) {
      body += glob.slice(i, posix + 2);
      i = posix + 2;
    } else if (glob[i] === '\\' && i + 1 < glob.length) {
      body += `\\${glob[i + 1]}`;
      i += 2;
    } else {
      const ch = glob[i]!;
      body += '[]^\\'.includes(ch) ? `\\${ch}` : ch;
      i++;
    }
  }
  if (i >= glob.length) return undefined;
  // A class never matches the separator, as in every glob dialect.
  return { regex: negate ? `[^/${body}]` : `(?:[${body}])`, end: i + 1 };
}

/** `{a,b}` from `start` (nesting allowed): an RE2 alternation, or undefined when it is no such thing. */
function braces(glob: string, start: number): { regex: string; end: number } | undefined {
  const parts: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start + 1; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(glob.slice(from, i));
      from = i + 1;
    } else if (c === '}') {
      parts.push(glob.slice(from, i));
      if (parts.length < 2) return undefined;
      if (parts.length > 256) throw new AppError(ErrorCode.InvalidArgument, 'glob has more than 256 {a,b,…} alternatives', { hint: 'use fewer alternatives, or several calls' });
      return { regex: `(?:${parts.map(translate).join('|')})`, end: i + 1 };
    }
  }
  return undefined;
}
