// A grep-family command line as the PreToolUse hook reads it: the pattern, the paths, the regex
// language it is written in, and whether its options change anything a search call would answer.
export type Dialect = 'fixed' | 'bre' | 'ere' | 'rust' | 'pcre';

export type GrepProgram = 'grep' | 'egrep' | 'fgrep' | 'rg' | 'ag' | 'ack' | 'git-grep';

export interface GrepArgs {
  program: GrepProgram;
  /** Undefined when there is none, or several (-e a -e b). */
  pattern?: string;
  paths: string[];
  dialect: Dialect;
  recursive: boolean;
  /** -l, -c, -m, -q: the output stays small. */
  bounded: boolean;
  /** `path:LINE:text` rather than `path:text`. */
  lineNumbers: boolean;
  /** Only options that change neither which lines are printed nor how. */
  plain: boolean;
}

type FlagEffect = 'same' | 'numbers' | 'fixed' | 'extended' | 'perl' | 'recursive' | 'bounded' | 'pattern' | 'other';

// What an option does to "these lines, printed as path:line:text", and whether it takes a value.
const COMMON_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-n': ['numbers', false], '--line-number': ['numbers', false], '-H': ['same', false], '--with-filename': ['same', false], '-s': ['same', false],
  '--no-messages': ['same', false], '--no-heading': ['same', false],
  '-F': ['fixed', false], '--fixed-strings': ['fixed', false], '-e': ['pattern', true], '--regexp': ['pattern', true],
  // Output that stays small: listing files, counting, stopping early.
  '-l': ['bounded', false], '-L': ['bounded', false], '--files-with-matches': ['bounded', false], '--files-without-match': ['bounded', false],
  '-c': ['bounded', false], '--count': ['bounded', false], '--count-matches': ['bounded', false], '-q': ['bounded', false], '--quiet': ['bounded', false],
  '-m': ['bounded', true], '--max-count': ['bounded', true],
  '-f': ['other', true], '--file': ['other', true], '-A': ['other', true], '-B': ['other', true], '-C': ['other', true], '--context': ['other', true],
  '--after-context': ['other', true], '--before-context': ['other', true],
};
const GREP_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-r': ['recursive', false], '-R': ['recursive', false], '--recursive': ['recursive', false], '--dereference-recursive': ['recursive', false],
  '-E': ['extended', false], '--extended-regexp': ['extended', false], '-G': ['same', false], '--basic-regexp': ['same', false], '-P': ['perl', false], '--perl-regexp': ['perl', false],
  // grep -I skips binary files, which search never answers from either.
  '-I': ['same', false], '--color': ['same', false], '--colour': ['same', false],
  '--include': ['other', true], '--exclude': ['other', true], '--exclude-dir': ['other', true], '-d': ['other', true], '--directories': ['other', true],
};
const RG_FLAGS: Record<string, [FlagEffect, boolean]> = {
  '-Q': ['fixed', false], '--literal': ['fixed', false], '-P': ['perl', false], '--pcre2': ['perl', false], '--color': ['same', true], '--colors': ['same', true],
  '--sort': ['same', true], '--sortr': ['same', true],
  '-g': ['other', true], '--glob': ['other', true], '--iglob': ['other', true], '-t': ['other', true], '--type': ['other', true],
  '-T': ['other', true], '--type-not': ['other', true], '-d': ['other', true], '--max-depth': ['other', true], '-r': ['other', true],
  '--replace': ['other', true], '-E': ['other', true], '--encoding': ['other', true], '-M': ['other', true], '--max-columns': ['other', true],
  '-j': ['other', true], '--threads': ['other', true], '--engine': ['other', true],
  '--ignore-file': ['other', true], '--pre': ['other', true], '--pre-glob': ['other', true],
};

const GREP_FAMILY = new Set<GrepProgram>(['grep', 'egrep', 'fgrep', 'git-grep']);

export function isGrepProgram(word: string | undefined): word is GrepProgram {
  return word === 'grep' || word === 'egrep' || word === 'fgrep' || word === 'rg' || word === 'ag' || word === 'ack' || word === 'git-grep';
}

export function readGrepArgs(program: GrepProgram, args: readonly string[]): GrepArgs {
  const grep = GREP_FAMILY.has(program);
  const table = { ...COMMON_FLAGS, ...(grep ? GREP_FLAGS : RG_FLAGS) };
  const out: GrepArgs = { program, paths: [], dialect: 'bre', recursive: !grep || program === 'git-grep', bounded: false, lineNumbers: false, plain: true };
  let fixed = program === 'fgrep';
  let extended = program === 'egrep';
  let perl = program === 'ag' || program === 'ack';
  const positional: string[] = [];
  let patterns = 0;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!options || arg === '-' || !arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      options = false;
      continue;
    }
    const long = arg.startsWith('--');
    const [name, inline] = long ? (arg.split(/=(.*)/s) as [string, string | undefined]) : [arg.slice(0, 2), arg.length > 2 ? arg.slice(2) : undefined];
    // -rn: a cluster of short flags; -m5 / -e foo: a short flag with its value attached.
    const flags = !long && inline !== undefined && !table[name]?.[1] ? [...arg.slice(1)].map((c) => `-${c}`) : [name];
    for (const flag of flags) {
      const [effect, takesValue] = table[flag] ?? (['other', false] as [FlagEffect, boolean]);
      const value = takesValue ? (flags.length === 1 && inline !== undefined ? inline : args[++i]) : undefined;
      if (effect === 'pattern') {
        // More than one -e: lines matching any of them, which one search pattern does not say.
        if (patterns++ > 0) out.plain = false;
        out.pattern = value;
      } else if (effect === 'fixed') fixed = true;
      else if (effect === 'extended') extended = true;
      else if (effect === 'perl') perl = true;
      else if (effect === 'recursive') out.recursive = true;
      else if (effect === 'bounded') out.bounded = true;
      else if (effect === 'numbers') out.lineNumbers = true;
      else if (effect === 'other') out.plain = false;
    }
  }
  if (patterns > 1) out.pattern = undefined;
  else if (out.pattern === undefined) out.pattern = positional.shift();
  out.paths = positional;
  out.dialect = fixed ? 'fixed' : perl ? 'pcre' : !grep ? 'rust' : extended ? 'ere' : 'bre';
  return out;
}
