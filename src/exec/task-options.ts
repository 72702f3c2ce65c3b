// What run_task lets through, per kind (issue 11, item 9): an allowlist of exact option spellings
// whose values are checked, and what a positional argument may be. Anything else is refused, so an
// abbreviation (`make --eva`), a variable override (`SHELL=/tmp/x`) or an option that names another
// program, build file or folder (`-toolexec`, `-Z`, `--manifest-path`, `-f`, `-C`) never runs.

/** Why a value is refused, or undefined when it is fine. */
export type ValueCheck = (value: string) => string | undefined;

export interface OptionRule {
  /** Absent: a flag that takes no value. */
  value?: ValueCheck;
  /** The value may be left out (`make -O`, `--debug`): then it can only be written attached or after `=`. */
  optional?: boolean;
  /** An optional value may also be the next argument, taken only when it passes (`make -j 4`, not `make -j build`). */
  optionalNext?: boolean;
}

export interface ArgRules {
  options: Readonly<Record<string, OptionRule>>;
  /** What a positional argument is, and its check; absent: none is accepted. */
  positional?: { what: string; check: ValueCheck };
  /** Go's flag package: a flag may be written `-v=true` / `-v=false`. */
  boolEquals?: boolean;
  /** A one-letter option may carry its value attached (`-j4`, `-pcore`). */
  attached?: boolean;
  /** What follows a `--` (cargo test: the test harness's own options). */
  afterDashDash?: ArgRules;
}

const text: ValueCheck = (v) => (v.length === 0 ? 'is empty' : undefined);
const word: ValueCheck = (v) => (/^[A-Za-z0-9_.,:/+-]+$/.test(v) && !v.startsWith('-') ? undefined : 'must be letters, digits and _ . , : / + -');
const count: ValueCheck = (v) => (/^[0-9]{1,6}$/.test(v) ? undefined : 'must be a whole number');
const load: ValueCheck = (v) => (/^[0-9]{1,4}(\.[0-9]{1,3})?$/.test(v) ? undefined : 'must be a number');
const oneOf =
  (...allowed: string[]): ValueCheck =>
  (v) =>
    allowed.includes(v) ? undefined : `must be one of ${allowed.join(', ')}`;
const counts: ValueCheck = (v) => (/^[0-9]{1,4}(,[0-9]{1,4})*$/.test(v) ? undefined : 'must be numbers separated by commas');

/** A path that stays inside the working folder: relative, no `..` segment, no leading `-`. */
function inside(v: string): string | undefined {
  if (v.startsWith('/') || v.startsWith('~')) return 'must be relative to cwd';
  if (v.split('/').includes('..')) return 'must not leave cwd through ..';
  if (v.startsWith('-')) return 'must not start with -';
  return undefined;
}

/** A Go package pattern: ./..., ./pkg/..., example.com/mod/pkg, std; `...` is a wildcard, `..` is not. */
export const goPackage: ValueCheck = (v) => {
  if (!/^[A-Za-z0-9_.~+/-]+$/.test(v)) return 'must be a package path or pattern (letters, digits, _ . ~ + / -)';
  return inside(v);
};
const goPackages: ValueCheck = (v) => v.split(',').map(goPackage).find(Boolean);
const relativeFile: ValueCheck = (v) => (/^[A-Za-z0-9_.+/-]+$/.test(v) ? inside(v) : 'must be a file name (letters, digits, _ . + / -)');
const makeTarget: ValueCheck = (v) => {
  if (v.includes('=')) return 'is a variable override (NAME=value), which run_task does not pass to make';
  if (!/^[A-Za-z0-9_.+/@,-]+$/.test(v)) return 'must be a plain target name (letters, digits, _ . + / @ , -)';
  return inside(v);
};
const testFilter: ValueCheck = (v) => (v.startsWith('-') ? 'must not start with -' : /^[A-Za-z0-9_:.]+$/.test(v) ? undefined : 'must be a test name (letters, digits, _ : .)');
const testPath: ValueCheck = (v) => (/^[A-Za-z0-9_.+/@:,*-]+$/.test(v) ? inside(v) : 'must be a test file or name (letters, digits, _ . + / @ : , * -)');

const flag: OptionRule = {};
const flags = (...names: string[]): Record<string, OptionRule> => Object.fromEntries(names.map((n) => [n, flag]));
const valued = (check: ValueCheck, ...names: string[]): Record<string, OptionRule> => Object.fromEntries(names.map((n) => [n, { value: check }]));
const optional = (check: ValueCheck, ...names: string[]): Record<string, OptionRule> => Object.fromEntries(names.map((n) => [n, { value: check, optional: true }]));
const optionalNumber = (check: ValueCheck, ...names: string[]): Record<string, OptionRule> =>
  Object.fromEntries(names.map((n) => [n, { value: check, optional: true, optionalNext: true }]));

// Go: no -C, -exec, -toolexec, -modfile, -overlay, -o, -ldflags (-extld), -gcflags, -args, -vettool.
const GO_BUILD_COMMON = {
  ...flags('-v', '-a', '-n', '-x', '-race', '-trimpath', '-cover'),
  ...valued(word, '-tags'),
  ...valued(oneOf('readonly', 'vendor', 'mod'), '-mod'),
  ...valued(count, '-p'),
  ...valued(oneOf('true', 'false', 'auto'), '-buildvcs'),
};
const GO_TEST: ArgRules = {
  boolEquals: true,
  options: {
    ...GO_BUILD_COMMON,
    ...flags('-short', '-benchmem', '-failfast', '-json', '-fullpath'),
    ...valued(text, '-run', '-skip', '-bench', '-list'),
    ...valued(count, '-count', '-parallel'),
    ...valued(word, '-timeout', '-benchtime', '-vet'),
    ...valued(counts, '-cpu'),
    ...valued(oneOf('set', 'count', 'atomic'), '-covermode'),
    ...valued(goPackages, '-coverpkg'),
    ...valued(relativeFile, '-coverprofile'),
    ...valued(oneOf('on', 'off'), '-shuffle'),
  },
  positional: { what: 'package paths or patterns (./..., ./pkg/...)', check: goPackage },
};
const GO_BUILD: ArgRules = { boolEquals: true, options: GO_BUILD_COMMON, positional: GO_TEST.positional };
const VET_ANALYZERS = [
  'appends', 'asmdecl', 'assign', 'atomic', 'bools', 'buildtag', 'cgocall', 'composites', 'copylocks', 'defers', 'directive',
  'errorsas', 'framepointer', 'hostport', 'httpresponse', 'ifaceassert', 'loopclosure', 'lostcancel', 'nilfunc', 'printf', 'shift',
  'sigchanyzer', 'slog', 'stdmethods', 'stdversion', 'stringintconv', 'structtag', 'testinggoroutine', 'tests', 'timeformat',
  'unmarshal', 'unreachable', 'unsafeptr', 'unusedresult', 'waitgroup',
];
const GO_VET: ArgRules = {
  boolEquals: true,
  options: {
    ...flags('-v', '-n', '-x', '-json', ...VET_ANALYZERS.map((a) => `-${a}`)),
    ...valued(word, '-tags'),
    ...valued(oneOf('readonly', 'vendor', 'mod'), '-mod'),
    ...valued(count, '-c'),
  },
  positional: GO_TEST.positional,
};

// Cargo: no -Z, --config, --manifest-path, --target-dir, -C, --lockfile-path, --artifact-dir.
const CARGO_COMMON = {
  ...flags('--release', '-r', '--workspace', '--all', '--lib', '--bins', '--tests', '--examples', '--benches', '--all-targets'),
  ...flags('--all-features', '--no-default-features', '--locked', '--offline', '--frozen', '-q', '--quiet', '-v', '--verbose'),
  ...valued(word, '-p', '--package', '--exclude', '--bin', '--test', '--example', '--bench', '--features', '-F', '--profile', '--target'),
  ...valued(count, '-j', '--jobs'),
  ...valued(oneOf('human', 'short', 'json', 'json-diagnostic-short', 'json-diagnostic-rendered-ansi', 'json-render-diagnostics'), '--message-format'),
  ...valued(oneOf('auto', 'always', 'never'), '--color'),
};
const LIBTEST: ArgRules = {
  options: {
    ...flags('--nocapture', '--no-capture', '--ignored', '--include-ignored', '--exact', '--show-output', '-q', '--quiet', '--list', '--test', '--bench'),
    ...valued(count, '--test-threads'),
    ...valued(text, '--skip'),
    ...valued(oneOf('auto', 'always', 'never'), '--color'),
    ...valued(oneOf('pretty', 'terse'), '--format'),
  },
  positional: { what: 'test name filters', check: (v) => (v.startsWith('-') ? 'must not start with -' : undefined) },
};
const CARGO_TEST: ArgRules = {
  attached: true,
  options: { ...CARGO_COMMON, ...flags('--doc', '--no-run', '--no-fail-fast') },
  positional: { what: 'a test name filter', check: testFilter },
  afterDashDash: LIBTEST,
};
const CARGO_BUILD: ArgRules = { attached: true, options: { ...CARGO_COMMON, ...flags('--keep-going') } };

// npm: the arguments go to the project's test or build script (after --), whatever runner it uses.
const NPM_TEST: ArgRules = {
  options: {
    ...flags('--verbose', '--silent', '--ci', '--coverage', '--no-coverage', '--runInBand', '-i', '--passWithNoTests', '--detectOpenHandles'),
    ...flags('--forceExit', '--updateSnapshot', '-u', '--run', '--no-watch'),
    ...valued(text, '--testNamePattern', '-t', '--grep', '-g', '--testPathPattern'),
    ...valued(count, '--maxWorkers', '--testTimeout', '--timeout'),
    ...valued(word, '--reporter', '--shard'),
    ...optionalNumber(count, '--bail'),
  },
  positional: { what: 'test files or names', check: testPath },
};
const NPM_BUILD: ArgRules = {
  options: { ...flags('--verbose', '--silent', '--minify', '--no-minify', '--sourcemap'), ...valued(word, '--mode') },
};

// make: no -f/--file, -C/--directory, -I/--include-dir, -E/--eval, NAME=value, and no abbreviations.
const MAKE: ArgRules = {
  attached: true,
  options: {
    ...flags('-k', '--keep-going', '-S', '--no-keep-going', '--stop', '-n', '--dry-run', '--just-print', '--recon'),
    ...flags('-s', '--silent', '--quiet', '-B', '--always-make', '-i', '--ignore-errors', '-q', '--question', '-t', '--touch'),
    ...flags('-w', '--print-directory', '--no-print-directory', '-r', '--no-builtin-rules', '-R', '--no-builtin-variables'),
    // Not -e (--environment-overrides): env would then override the Makefile's own assignments.
    ...flags('--warn-undefined-variables', '--trace', '-d', '-p', '--print-data-base', '-v', '--version'),
    ...optionalNumber(count, '-j', '--jobs'),
    ...optionalNumber(load, '-l', '--load-average', '--max-load'),
    ...optional(oneOf('none', 'line', 'target', 'recurse'), '-O', '--output-sync'),
    ...optional(word, '--debug'),
  },
  positional: { what: 'make targets (plain names; NAME=value overrides are refused)', check: makeTarget },
};

export const TASK_ARG_RULES = {
  go_test: GO_TEST,
  go_build: GO_BUILD,
  go_vet: GO_VET,
  cargo_test: CARGO_TEST,
  cargo_build: CARGO_BUILD,
  npm_test: NPM_TEST,
  npm_run_build: NPM_BUILD,
  make: MAKE,
} as const;
