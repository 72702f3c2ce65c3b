// What run_task lets a call put in `env`, per kind (issue 23.7): an allowlist of names with their
// values checked, like the options in task-options.ts. The build tools read many variables as the
// program to run or as more options: make takes every variable from the environment unless the
// Makefile assigns it (`RM`, `AR`, `LEX`, `CC`), compilers read `CFLAGS=-wrapper …` and
// `COMPILER_PATH`, rustup reads `RUSTUP_HOME` and `RUSTUP_TOOLCHAIN`, go reads `GOFLAGS` and
// `GOTOOLCHAIN`. A denylist keeps missing one; the allowlist lets through only what changes how a
// build reports or which platform it targets. `custom` runs the program it is given and is not checked here.
import type { ValueCheck } from './task-options.ts';

const any: ValueCheck = () => undefined;
const flagValue: ValueCheck = (v) => (/^[A-Za-z0-9_.,:=+*/-]{0,64}$/.test(v) && !v.startsWith('-') ? undefined : 'must be a short word (letters, digits and _ . , : = + * / -, not starting with -)');
const number: ValueCheck = (v) => (/^[0-9]{1,9}$/.test(v) ? undefined : 'must be a whole number');
const switchValue: ValueCheck = (v) => (/^(0|1|true|false|yes|no|on|off)?$/i.test(v) ? undefined : 'must be 0, 1, true, false, yes, no, on or off');
const plain: ValueCheck = (v) => (/^[A-Za-z0-9_]{1,32}$/.test(v) ? undefined : 'must be a word (letters, digits, _)');

const names = (check: ValueCheck, ...keys: string[]): Record<string, ValueCheck> => Object.fromEntries(keys.map((k) => [k, check]));

/** Output, locale and time zone: read for how a tool reports, never as a program or an option. */
const COMMON = {
  ...names(switchValue, 'CI', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE'),
  ...names(flagValue, 'TERM', 'TZ', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME', 'LC_COLLATE'),
  ...names(number, 'COLUMNS', 'LINES'),
};

const GO = {
  ...COMMON,
  ...names(switchValue, 'CGO_ENABLED'),
  ...names(plain, 'GOOS', 'GOARCH', 'GOAMD64', 'GOARM', 'GOARM64', 'GO386', 'GOMIPS', 'GOPPC64', 'GOWASM', 'GOTRACEBACK'),
  ...names(flagValue, 'GOEXPERIMENT', 'GODEBUG', 'GOMAXPROCS', 'GOGC', 'GOMEMLIMIT'),
  // Where modules come from (a proxy URL, patterns): fetched as data, checked against go.sum.
  ...names(any, 'GOPROXY', 'GOPRIVATE', 'GONOPROXY', 'GONOSUMDB'),
};

const CARGO = {
  ...COMMON,
  ...names(flagValue, 'RUST_BACKTRACE', 'RUST_LIB_BACKTRACE', 'RUST_TEST_THREADS', 'RUST_MIN_STACK', 'RUST_TEST_NOCAPTURE', 'RUST_TEST_TIME_UNIT'),
  ...names(any, 'RUST_LOG'),
  ...names(flagValue, 'CARGO_TERM_COLOR', 'CARGO_TERM_VERBOSE', 'CARGO_TERM_QUIET', 'CARGO_TERM_PROGRESS_WHEN', 'CARGO_INCREMENTAL', 'CARGO_BUILD_JOBS'),
};

const NPM = {
  ...COMMON,
  ...names(plain, 'NODE_ENV', 'BABEL_ENV'),
  ...names(switchValue, 'NODE_NO_WARNINGS'),
  ...names(flagValue, 'DEBUG'),
};

// make reads every variable from the environment, so only the common ones and kbuild's verbosity.
const MAKE = { ...COMMON, ...names(number, 'V') };

export const TASK_ENV_RULES: Readonly<Record<string, Readonly<Record<string, ValueCheck>>>> = {
  go_test: GO,
  go_build: GO,
  go_vet: GO,
  cargo_test: CARGO,
  cargo_build: CARGO,
  npm_test: NPM,
  npm_run_build: NPM,
  make: MAKE,
};

/** Why `name=value` is refused for `kind`, or undefined when it is allowed. */
export function taskEnvRefusal(kind: string, name: string, value: string): string | undefined {
  const rules = TASK_ENV_RULES[kind];
  const check = rules && Object.hasOwn(rules, name) ? rules[name] : undefined;
  if (!check) return 'not on the allowlist';
  const why = check(value);
  return why && `its value ${why}`;
}

/** The names `kind` allows, for the hint of a refusal. */
export function allowedTaskEnv(kind: string): string[] {
  return Object.keys(TASK_ENV_RULES[kind] ?? {});
}
