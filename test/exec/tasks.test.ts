import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors.ts';
import { type TaskKind, taskArgv, validateTaskEnv } from '../../src/exec/tasks.ts';

function refused(kind: TaskKind, target: string | undefined, args: string[]): AppError {
  try {
    taskArgv(kind, target, args);
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, ErrorCode.InvalidArgument, error.message);
    return error;
  }
  assert.fail(`${kind} ${JSON.stringify({ target, args })} was accepted`);
}

describe('run_task arguments (issue 11, item 9)', () => {
  it('refuses every bypass of the old option filter with an argument error', () => {
    const bypasses: [TaskKind, string[]][] = [
      ['make', ['--eva=$(shell touch /tmp/pwned)']],
      ['make', ['--eval', '$(shell id)']],
      ['make', ['--fil=/etc/passwd']],
      ['make', ['--file=/etc/passwd']],
      ['make', ['-f/etc/passwd']],
      ['make', ['-kf', 'other.mk']],
      ['make', ['--dir=/']],
      ['make', ['--directory', '/']],
      ['make', ['-C/']],
      ['make', ['-I', '/tmp']],
      ['make', ['SHELL=/tmp/x']],
      ['make', ['.SHELLFLAGS=-c id #']],
      ['make', ['MAKEFLAGS=--eval=x']],
      ['make', ['--debug', 'SHELL=/tmp/x']],
      ['make', ['-e']],
      ['go_test', ['--toolexec=sh']],
      ['go_test', ['-toolexec=sh']],
      ['go_test', ['-exec', 'rm']],
      ['go_test', ['-C', '/']],
      ['go_test', ['-ldflags=-extld=sh']],
      ['go_test', ['-run']],
      ['go_test', ['-run', '-toolexec=sh']],
      ['go_test', ['../outside/...']],
      ['go_test', ['/etc']],
      ['go_build', ['-o', '/tmp/x']],
      ['go_vet', ['-vettool=/bin/sh']],
      ['cargo_test', ['-Zunstable-options']],
      ['cargo_test', ['-Z', 'unstable-options']],
      ['cargo_test', ['--config', 'build.rustc-wrapper="sh"']],
      ['cargo_test', ['--manifest-path=/tmp/Cargo.toml']],
      ['cargo_test', ['--features', '--config=x']],
      ['cargo_build', ['--target-dir=/tmp/t']],
      ['cargo_build', ['extra']],
      ['npm_test', ['--prefix=/']],
      ['npm_test', ['../../etc/passwd']],
      ['npm_run_build', ['--watch']],
    ];
    for (const [kind, args] of bypasses) {
      const error = refused(kind, undefined, args);
      assert.match(error.message, new RegExp(`^args\\[\\d\\] '.*' is not allowed for ${kind}(: |$)`), error.message);
      assert.match(error.hint ?? '', /^allowed for /, `${kind} ${args.join(' ')}: the hint lists what is allowed`);
    }
  });

  it('refuses targets that are overrides, options, paths out of cwd, or given to a kind without targets', () => {
    assert.match(refused('make', 'SHELL=/tmp/x', []).message, /variable override/);
    assert.match(refused('make', '-f', []).message, /not a plain make target/);
    assert.match(refused('make', 'all;rm', []).message, /not a plain make target/);
    assert.match(refused('go_test', '../x/...', []).message, /must not leave cwd/);
    assert.match(refused('go_test', './a/../../b', []).message, /must not leave cwd/);
    assert.match(refused('cargo_build', 'core', []).message, /cargo_build takes no target/);
    assert.match(refused('npm_test', 'x', []).message, /npm_test takes no target/);
  });

  it('accepts the documented Go target ./... and ordinary options of every kind', () => {
    assert.deepEqual(taskArgv('go_test', './...', []), ['go', 'test', './...']);
    assert.deepEqual(taskArgv('go_test', undefined, ['-run', 'TestParse|TestLex', '-count=1', '-v', '-race=false']), ['go', 'test', '-run', 'TestParse|TestLex', '-count=1', '-v', '-race=false', './...']);
    assert.deepEqual(taskArgv('go_test', './pkg/...', ['-coverprofile=cover.out', './cmd/...', 'example.com/mod/x']).at(-1), './pkg/...');
    assert.deepEqual(taskArgv('go_build', 'std', ['-tags', 'netgo,osusergo']), ['go', 'build', '-tags', 'netgo,osusergo', 'std']);
    assert.deepEqual(taskArgv('go_vet', undefined, ['-printf=false', '-json']), ['go', 'vet', '-printf=false', '-json', './...']);
    assert.deepEqual(taskArgv('make', 'build', ['-j', '4', '-k', '--output-sync=target', '-j8', 'check']), ['make', '-j', '4', '-k', '--output-sync=target', '-j8', 'check', 'build']);
    assert.deepEqual(taskArgv('make', undefined, ['-j', 'test']), ['make', '-j', 'test'], '-j takes the next argument only when it is a number');
    assert.deepEqual(taskArgv('cargo_test', 'parser::tests', ['--release', '-pcore', '--features=serde/derive', '--', '--nocapture', '--test-threads=1', 'slow']), [
      'cargo', 'test', 'parser::tests', '--release', '-pcore', '--features=serde/derive', '--', '--nocapture', '--test-threads=1', 'slow',
    ]);
    assert.deepEqual(taskArgv('cargo_build', undefined, ['--release', '-j', '2']), ['cargo', 'build', '--release', '-j', '2']);
    assert.deepEqual(taskArgv('npm_test', undefined, ['-t', 'parses a file', 'test/unit/x.test.ts']), ['npm', 'test', '--', '-t', 'parses a file', 'test/unit/x.test.ts']);
    assert.deepEqual(taskArgv('npm_run_build', undefined, ['--mode', 'production']), ['npm', 'run', 'build', '--', '--mode', 'production']);
    assert.deepEqual(taskArgv('custom', undefined, ['pytest', '-q', '--anything']), ['pytest', '-q', '--anything']);
  });

  it('refuses env overrides that pass the build tool options or another program', () => {
    for (const [kind, key] of [['make', 'MAKEFLAGS'], ['make', 'MAKEFILES'], ['go_test', 'GOFLAGS'], ['cargo_build', 'RUSTC_WRAPPER'], ['cargo_test', 'CARGO_BUILD_RUSTC_WRAPPER'], ['cargo_test', 'RUSTFLAGS'], ['npm_test', 'npm_config_script_shell']] as const) {
      assert.throws(() => validateTaskEnv(kind, { [key]: 'x' }), (e: AppError) => e.code === ErrorCode.InvalidArgument && e.message.includes(`'${key}'`), `${kind} ${key}`);
    }
    validateTaskEnv('go_test', { GOPROXY: 'off', CGO_ENABLED: '0', GOOS: 'linux' });
    validateTaskEnv('custom', { MAKEFLAGS: '-j4' });
  });

  it('lets through only the env each kind allows, so no variable picks the program that runs (issue 23.7)', () => {
    const refused: [TaskKind, string, string][] = [
      ['make', 'RM', 'sh -c "touch x" ;'], ['make', 'AR', '/tmp/ar'], ['make', 'LEX', '/tmp/lex'], ['make', 'CFLAGS', '-wrapper /bin/sh,-c,id'],
      ['make', 'COMPILER_PATH', '/tmp'], ['make', 'FOO', 'bar'], ['cargo_test', 'RUSTUP_HOME', '/tmp/rustup'], ['cargo_build', 'RUSTUP_TOOLCHAIN', 'evil'],
      ['cargo_test', 'CC', '/tmp/cc'], ['go_test', 'GOTOOLCHAIN', 'go1.99'], ['go_build', 'CGO_LDFLAGS', '-fuse-ld=/tmp/ld'], ['go_test', 'COMPILER_PATH', '/tmp'],
      ['npm_test', 'npm_config_script_shell', '/tmp/sh'], ['npm_test', 'NODE_PATH', '/tmp'], ['npm_run_build', 'PREFIX', '/tmp'],
    ];
    for (const [kind, key, value] of refused) {
      assert.throws(() => validateTaskEnv(kind, { [key]: value }), (e: AppError) => e.message === `env key '${key}' may not be set for ${kind}: not on the allowlist` && /takes only CI /.test(e.hint ?? ''), `${kind} ${key}`);
    }
    assert.throws(() => validateTaskEnv('go_test', { GOOS: 'linux;x' }), /env key 'GOOS' may not be set for go_test: its value must be a word/);
    assert.throws(() => validateTaskEnv('make', { V: '1 -f x' }), /its value must be a whole number/);
    validateTaskEnv('make', { CI: 'true', NO_COLOR: '1', TZ: 'UTC', LC_ALL: 'C.UTF-8', V: '1' });
    validateTaskEnv('cargo_test', { RUST_BACKTRACE: '1', RUST_LOG: 'my_crate=debug,info', CARGO_TERM_COLOR: 'never' });
    validateTaskEnv('npm_test', { NODE_ENV: 'test', DEBUG: 'app:*', TZ: 'Europe/Berlin', FORCE_COLOR: '0' });
  });
});
