// What a matching line is: a definition of the symbol, a call, a reference, a test, a comment, a
// string. Line heuristics per language family (a grammar-based symbol index can replace them).
import { isDocumentation } from '../code/languages.ts';
import { compileRegex, escapeRegex, type LinearRegex } from '../text/linear-regex.ts';
import { extension } from './query.ts';

export type Kind = 'definition' | 'call' | 'reference' | 'test' | 'comment' | 'string' | 'unknown';

export const KIND_WEIGHT: Record<Kind, number> = {
  definition: 1.0,
  call: 0.7,
  reference: 0.7,
  unknown: 0.5,
  test: 0.3,
  comment: 0.2,
  string: 0.2,
};

const TEST_DIR = /(^|\/)(tests?|__tests__|specs?|testdata|test_data|e2e)\//i;
const TEST_FILE = /(_test\.go|\.(test|spec)\.[cm]?[jt]sx?|_test\.py|(^|\/)test_[^/]*\.py|Tests?\.(java|cs|kt|swift)|_spec\.rb|_test\.rb|_tests?\.rs|Test\.php)$/i;

export function isTestPath(file: string): boolean {
  return TEST_DIR.test(file) || TEST_FILE.test(file);
}

const HASH_COMMENT = new Set(['py', 'sh', 'bash', 'zsh', 'rb', 'yaml', 'yml', 'toml', 'pl', 'r', 'ex', 'exs', 'mk', 'cmake', 'conf', 'ini', 'dockerfile', 'tf']);

export function isCommentLine(file: string, line: string): boolean {
  const t = line.trimStart();
  if (t.startsWith('//') || t.startsWith('/*') || t.startsWith('* ') || t === '*' || t.startsWith('*/') || t.startsWith('<!--') || t.startsWith('--')) return true;
  if (t.startsWith('#') && (HASH_COMMENT.has(extension(file)) || /makefile$/i.test(file))) return true;
  if ((t.startsWith('"""') || t.startsWith("'''")) && extension(file) === 'py') return true;
  return false;
}

/** True when the match at `index` sits inside a quoted string on its line. */
export function insideString(line: string, index: number): boolean {
  let quote: string | undefined;
  for (let i = 0; i < index; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
  }
  return quote !== undefined;
}

const MODIFIERS = '(?:(?:export|default|public|private|protected|internal|static|async|abstract|final|override|readonly|virtual|inline|extern|unsafe|pub(?:\\([^)]*\\))?|const|declare|sealed|open|suspend|fun|def|func|fn)\\s+)*';

/**
 * One regex for the lines that define `name`, for the common languages: the alternatives below,
 * on the linear-time engine since `name` comes from the query (compiled once per name, cached).
 */
function definitionPattern(name: string): LinearRegex {
  return compileRegex(definitionPatternSource(name));
}

/** The source of definitionPattern (RE2 and ripgrep read it alike), for a scan that finds the files that may define `name`. */
export function definitionPatternSource(name: string): string {
  const n = escapeRegex(name);
  const alternatives = [
    // class/interface/type/struct/enum/trait/module/… NAME, followed by what opens a definition
    // (`struct task_struct *p` is a use; `struct task_struct {` is the definition)
    `\\b(?:class|interface|type|struct|enum|trait|impl(?:<[^>]*>)?(?:\\s+[\\w:]+\\s+for)?|module|namespace|record|object|protocol|union|typedef\\s+struct|mod|package|macro_rules!)\\s+${n}\\b\\s*(?:\\{|<|\\(|:|=|\\bextends\\b|\\bimplements\\b|\\bwhere\\b|$)`,
    // function NAME / def NAME / func NAME / fn NAME / func (r T) NAME
    `\\b(?:function\\*?|def|func|fn|sub|proc|fun)\\s+(?:\\([^)]*\\)\\s*)?${n}\\s*[(<\\[]`,
    // const/let/var/val NAME = … or NAME: Type (JS, TS, Kotlin, Swift, Go, Rust statics)
    `^\\s*${MODIFIERS}(?:const|let|var|val|static|readonly)\\s+(?:mut\\s+)?${n}\\b\\s*(?::|=)`,
    // Go: type NAME struct / interface / underlying type
    `^\\s*type\\s+${n}\\s+[\\w\\[*]`,
    // C/C++ #define NAME
    `^\\s*#\\s*define\\s+${n}\\b`,
    // A method: NAME(…) { / NAME(…): T at the start of a line. A bare NAME(…) is a call statement
    // (languages without semicolons), so a body, an arrow or a return type must follow.
    `^\\s*${MODIFIERS}(?:get\\s+|set\\s+)?\\*?${n}\\s*(?:<[^>]*>)?\\s*\\([^;"'\`]*\\)\\s*(?:\\{|=>|:\\s*[^;={"'\`]+\\{?)\\s*$`,
    // C-style: TYPE NAME(…) at column 0 (return type and attributes before the name), no trailing ;
    `^[A-Za-z_][\\w\\s\\*&:<>,()]*[\\s\\*&]${n}\\s*\\([^;="'\`]*$`,
    // Kernel style: the return type on the line above, the name at column 0.
    `^${n}\\s*\\([^;"'\`]*$`,
    // Python/Ruby top-level assignment NAME = …
    `^${n}\\s*(?::[^=]+)?=[^=]`,
  ];
  return alternatives.map((a) => `(?:${a})`).join('|');
}

/**
 * definitionPatternSource and declarations the line heuristics do not call definitions: a field or
 * property at a line's start (`fiber: RuntimeFiber<…>`, `message?: string`, Python's `name: int`).
 * It narrows the files an on-demand parse takes; it never classifies a line (an object literal's key
 * passes it too).
 */
export function declarationPatternSource(name: string): string {
  return `${definitionPatternSource(name)}|(?:^\\s*(?:(?:public|private|protected|static|readonly|declare|override|abstract)\\s+)*${escapeRegex(name)}\\??\\s*:)`;
}

const CALL_OR_CONTROL = /^\s*(?:return|if|else|while|for|switch|case|await|yield|throw|new|print|echo|assert)\b/;
/** Lines that bring a name in from elsewhere: never its definition. */
const IMPORT_LINE = /^\s*(?:import\b|from\s+\S+\s+import\b|export\s+(?:type\s+)?(?:\*|\{)|use\s+[\w:{]|#\s*include\b|using\s+[\w.]+;)|\brequire\s*\(/;

export function definesSymbol(line: string, name: string): boolean {
  if (CALL_OR_CONTROL.test(line) || IMPORT_LINE.test(line)) return false;
  return definitionPattern(name).test(line);
}

const PROSE = new Set(['md', 'markdown', 'mdx', 'rst', 'txt', 'adoc', 'org', 'tex']);

/** The kind of a line that matched; `symbol` is set for symbol queries. */
/** Whether kindOfLine can call a line of this file a definition (prose, documentation and tests: never). */
export function mayDefineByLine(file: string): boolean {
  return !PROSE.has(extension(file)) && !isDocumentation(file) && !isTestPath(file);
}

/**
 * `definitions: false` when the code index says which lines define the symbol (a file it parses):
 * the definition pattern (a first use of a name compiles it, ~10–50 ms) is then not run.
 */
export function kindOfLine(file: string, line: string, matchIndex: number, symbol: string | undefined, definitions = true): Kind {
  if (isCommentLine(file, line)) return 'comment';
  // Documentation mentions code; it does not define it.
  if (PROSE.has(extension(file)) || isDocumentation(file)) return isTestPath(file) ? 'test' : 'comment';
  const test = isTestPath(file);
  if (symbol && definitions && definesSymbol(line, symbol)) return test ? 'test' : 'definition';
  if (test) return 'test';
  if (matchIndex >= 0 && insideString(line, matchIndex)) return 'string';
  if (!symbol) return 'unknown';
  const after = line.slice(matchIndex + symbol.length);
  return /^\s*(?:<[^>]*>\s*)?\(/.test(after) ? 'call' : 'reference';
}
