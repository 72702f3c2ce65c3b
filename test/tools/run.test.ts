import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LANGUAGES } from '../../src/exec/languages.ts';
import { availableRuntimes } from '../../src/exec/programs.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';
import { alive, eventually, pidsWithArg, uniqueSleepArg } from '../helpers/process.ts';
import { CREDENTIALS } from '../helpers/credentials.ts';


const HELLO: Record<(typeof LANGUAGES)[number], string> = {
  javascript: 'console.log("hello " + FILE_CONTENT.trim())',
  typescript: 'const who: string = FILE_CONTENT.trim(); console.log("hello " + who)',
  python: 'print("hello " + FILE_CONTENT.strip())',
  shell: 'echo "hello $(echo "$FILE_CONTENT")"',
  go: 'package main\nimport ("fmt"; "strings")\nfunc main() { fmt.Println("hello " + strings.TrimSpace(FILE_CONTENT)) }',
  rust: 'fn main() { println!("hello {}", FILE_CONTENT.trim()); }',
  php: '<?php echo "hello " . trim($FILE_CONTENT) . "\\n";',
  perl: 'my $w = $FILE_CONTENT; $w =~ s/\\s+$//; print "hello $w\\n";',
  ruby: 'puts "hello #{FILE_CONTENT.strip}"',
  r: 'cat(paste("hello", trimws(FILE_CONTENT)), "\\n")',
  elixir: 'IO.puts("hello " <> String.trim(file_content))',
  csharp: 'Console.WriteLine("hello " + FILE_CONTENT.Trim());',
};

describe('ctx_run', () => {
  let root: string;
  let t: TestApp;
  const call = async (args: Record<string, unknown>, app = t) => {
    const r = await app.call('ctx_run', args);
    return { r, text: textOf(r), data: (r.structuredContent ?? {}) as Record<string, unknown> };
  };

  before(() => {
    // The content has quotes, $ and #{} that must reach the code as data, never as code.
    root = fixture({ 'who.txt': 'world "quoted" $HOME #{1+1}\n', 'Makefile': 'hello:\n\t@echo made it\nfail:\n\t@exit 4\nclean:\n\t@$(RM) nothing-to-clean\n', 'bin.dat': new Uint8Array([0, 1, 2]) });
    t = testApp(root, {}, { MY_API_TOKEN: 'super-secret', SESSION_COOKIE: 'c', PLAIN_SETTING: 'kept', CTXGATE_ENV_PASSTHROUGH: undefined, CTXMODE_ENV_PASSTHROUGH: undefined });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('runs a hello world in every available language, FILE_CONTENT included, and names what to install for the rest', async () => {
    const found = availableRuntimes(runtime);
    for (const language of LANGUAGES) {
      const { r, text } = await call({ action: 'execute_file', path: 'who.txt', language, code: HELLO[language], timeout: 120_000 });
      if (found[language]) {
        assert.equal(r.isError, undefined, `${language}: ${text}`);
        assert.match(text, /hello world "quoted" \$HOME #\{1\+1\}/, `${language}: ${text}`);
      } else {
        assert.match(text, new RegExp(`${language} is not available: .*\\nhint: install`), language);
      }
    }
  });

  it('says clearly when a language runtime is missing', async () => {
    const bare = testApp(root, {}, { PATH: '/nonexistent' });
    const { r, text } = await call({ action: 'execute', language: 'python', command: 'print(1)' }, bare);
    assert.equal(r.isError, true);
    assert.match(text, /python is not available: none of python3, python is on PATH\nhint: install python3/);
    await bare.close();
  });

  it('runs argv without a shell, and shell commands through one', async () => {
    const argv = await call({ action: 'execute', argv: ['echo', '$HOME', ';', 'ls'] });
    assert.match(argv.text, /^exit 0 .*\nstdout:\n\$HOME ; ls$/);
    const shell = await call({ action: 'execute', command: 'echo one && echo two >&2; exit 3' });
    assert.match(shell.text, /^exit 3 · \d+ ms · shell: .* · runtime error\nstdout:\none\nstderr:\ntwo$/);
    assert.equal(shell.data.exit_code, 3);
  });

  it('strips sensitive variables from the child, keeps the rest, and lets env replace inherited keys', async () => {
    const { text } = await call({ action: 'execute', command: 'env', env: { PLAIN_SETTING: 'replaced', EXTRA: 'x' } });
    assert.doesNotMatch(text, /MY_API_TOKEN|super-secret|SESSION_COOKIE/);
    assert.match(text, /^PLAIN_SETTING=replaced$/m);
    assert.equal(text.match(/^PLAIN_SETTING=/gm)?.length, 1, 'replaced, not duplicated');
    assert.match(text, /^EXTRA=x$/m);
    const passthrough = testApp(root, {}, { MY_API_TOKEN: 'super-secret', CTXMODE_ENV_PASSTHROUGH: '1' });
    assert.match((await call({ action: 'execute', command: 'env' }, passthrough)).text, /MY_API_TOKEN=super-secret/);
    await passthrough.close();
    assert.match((await call({ action: 'execute', command: 'true', env: { LD_PRELOAD: '/x.so' } })).text, /env key 'LD_PRELOAD' may not be set/);
  });

  it('keeps credential-carrying variables the spec\'s name rule misses out of the child', async () => {
    const app = testApp(root, {}, { ...CREDENTIALS, FOO: 'bar', LANG: 'C.UTF-8', CTXGATE_ENV_PASSTHROUGH: undefined, CTXMODE_ENV_PASSTHROUGH: undefined });
    const { text } = await call({ action: 'execute', argv: ['env'] }, app);
    await app.close();
    for (const name of Object.keys(CREDENTIALS)) assert.doesNotMatch(text, new RegExp(`^${name}=`, 'm'), name);
    assert.doesNotMatch(text, /hunter2|u:pw@|hooks\.slack\.com/);
    for (const kept of [/^FOO=bar$/m, /^LANG=C\.UTF-8$/m, /^PATH=./m, /^HOME=./m]) assert.match(text, kept);
  });

  it('answers an argv holding a NUL byte with an argument error, in the foreground and as a job', async () => {
    for (const background of [false, true]) {
      const { r, text } = await call({ action: 'execute', argv: ['echo', 'a\u0000b'], background });
      assert.equal(r.isError, true);
      assert.match(text, /^error INVALID_ARGUMENT: argv\[1\] contains a NUL byte\nhint: /, text);
    }
    assert.match((await call({ action: 'run_task', kind: 'custom', args: ['echo', 'a\u0000b'] })).text, /^error INVALID_ARGUMENT: args\[1\] contains a control character/);
  });

  it('ends the whole process group on timeout: a grandchild that ignores TERM dies too', async () => {
    const pidFile = path.join(root, 'gc.pid');
    const { text, data } = await call({ action: 'execute', command: `sh -c 'trap "" TERM; sleep 60' & echo $! > ${pidFile}; wait`, timeout: 500 });
    assert.equal(data.timedOut, true);
    assert.match(text, /^timed out · .* · timeout$/m);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await eventually(() => !alive(grandchild)), 'the grandchild that ignored TERM is dead');
  });

  it('ends a process that left the command\'s group with setsid once the command is over', async () => {
    const arg = uniqueSleepArg();
    const { data } = await call({ action: 'execute', command: `setsid nohup sleep ${arg} >/dev/null 2>&1 & sleep 0.3` });
    assert.equal(data.exit_code, 0);
    assert.deepEqual(pidsWithArg(arg), [], 'the setsid sleep is gone when the reply arrives');
  });

  it('ends a grandchild that a double fork and setsid took out of the group and away from its parent', async () => {
    const arg = uniqueSleepArg();
    const code = `import os, time\nif os.fork() == 0:\n    os.setsid()\n    pid = os.fork()\n    if pid == 0:\n        os.execvp("sleep", ["sleep", "${arg}"])\n    print(pid, flush=True)\n    os._exit(0)\ntime.sleep(0.3)\n`;
    const { r, text } = await call({ action: 'execute', language: 'python', command: code });
    assert.equal(r.isError, undefined, text);
    const pid = Number(/stdout:\n(\d+)/.exec(text)?.[1]);
    assert.ok(pid > 0, text);
    assert.equal(alive(pid), false, 'the double-forked sleep is gone when the reply arrives');
    assert.deepEqual(pidsWithArg(arg), []);
  });

  it('keeps a 50 MB output out of memory and out of the context', async () => {
    const before = process.memoryUsage().rss;
    const { text, data } = await call({ action: 'execute', command: 'yes "a line of output" | head -c 50000000; echo; echo THE-END', timeout: 120_000 });
    assert.ok(text.length < 4000, `reply is small: ${text.length}`);
    assert.equal(data.indexed, true, text);
    assert.equal(data.truncated, true);
    assert.match(text, /THE-END/, 'the tail is kept');
    assert.ok(process.memoryUsage().rss - before < 300 * 1024 * 1024, `memory stayed bounded: +${Math.round((process.memoryUsage().rss - before) / 1e6)} MB`);
  });

  it('indexes output over 5 KB when given an intent and returns the matching sections', async () => {
    const { text, data } = await call({ action: 'execute', command: 'for i in $(seq 1 2000); do echo "row $i ok"; done; echo "ERROR disk quota exceeded on /var"; seq 1 200', intent: 'disk quota error' });
    assert.equal(data.indexed, true);
    assert.match(text, /best matches for "disk quota error":\n- lines \d+-\d+: .*ERROR disk quota exceeded/s);
    assert.match(text, /ctx_kb \{"action":"search","query":"<what you need>","source":"execute-/);
  });

  it('gives 50 concurrent executes 50 distinct labels', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call({ action: 'execute', argv: ['echo', String(i)] })));
    const labels = new Set(results.map((r) => r.data.label));
    assert.equal(labels.size, 50);
    for (const [i, r] of results.entries()) assert.match(r.text, new RegExp(`stdout:\\n${i}$`));
  });

  it('names common failures', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ command: 'no-such-command-zz' }, /command not found/],
      [{ command: 'cat /nonexistent/file' }, /file not found/],
      [{ command: 'touch /proc/nope' }, /permission denied|file not found/],
      [{ language: 'python', command: 'def broken(:\n  pass' }, /syntax error/],
      [{ language: 'python', command: 'raise RuntimeError("boom")' }, /runtime error/],
      [{ command: 'echo "--- FAIL: TestParse (0.00s)"; exit 1' }, /test failed/],
    ];
    for (const [args, kind] of cases) assert.match((await call({ action: 'execute', ...args })).text.split('\n')[0]!, kind, JSON.stringify(args));
  });

  it('refuses binary files, stdin over 1 MB and timeouts over an hour', async () => {
    assert.match((await call({ action: 'execute_file', path: 'bin.dat', code: 'true' })).text, /binary file/);
    assert.match((await call({ action: 'execute', command: 'cat', stdin: 'x'.repeat(1024 * 1024 + 1) })).text, /stdin is \d+ bytes; the limit is 1 MB/);
    assert.match((await call({ action: 'execute', command: 'true', timeout: 3_600_001 })).text, /timeout: must be at most 3600000/);
    const piped = await call({ action: 'execute', command: 'tr a-z A-Z', stdin: 'shout' });
    assert.match(piped.text, /stdout:\nSHOUT/);
  });

  it('runs a batch, indexes only large outputs, and answers queries over this batch', async () => {
    const { text, data } = await call({
      action: 'batch',
      commands: [
        { label: 'small', command: 'echo tiny' },
        { label: 'large', command: 'for i in $(seq 1 12000); do echo "entry $i status nominal"; done; echo "needle-7781 found"' },
      ],
      queries: ['needle-7781'],
    });
    assert.match(text, /\[small\] exit 0 .*\nstdout:\ntiny/);
    assert.match(text, /indexed as "batch-\w+-\d+ large"/);
    assert.match(text, /query "needle-7781" \(batch\): \n- batch-\w+-\d+ large:\d+-\d+: .*needle-7781 found/);
    assert.deepEqual((data.results as { indexed: boolean }[]).map((r) => r.indexed), [false, true]);
  });

  it('validates batch limits exactly as the spec says', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ label: `c${i}`, command: 'true' }));
    assert.match((await call({ action: 'batch', commands: many })).text, /at most 50 commands/);
    assert.match((await call({ action: 'batch', commands: [{ label: 'a', command: 'true' }, { label: 'a', command: 'true' }] })).text, /label 'a' is used twice/);
    assert.match((await call({ action: 'batch', commands: [{ label: 'a', command: 'true' }], concurrency: 9 })).text, /concurrency: must be 1–8/);
    assert.match((await call({ action: 'batch', commands: [{ label: 'a', command: 'true' }], query_scope: 'all' })).text, /query_scope/);
  });

  it('shares the timeout between serial batch commands, and gives each its own when concurrent', async () => {
    // Serial: the first ends well within the budget even on a loaded machine (a 0.6 s sleep took
    // 1.1 s there with its clean-up, leaving the second nothing to time out in), the second outlasts
    // what is left of it, the third gets nothing.
    const serial = await call({
      action: 'batch',
      commands: [
        { label: 'one', command: 'sleep 0.2' },
        { label: 'two', command: 'sleep 10' },
        { label: 'three', command: 'sleep 0.2' },
      ],
      timeout: 2000,
    });
    assert.match(serial.text, /\[one\] exit 0/);
    assert.match(serial.text, /\[two\] timed out/);
    assert.match(serial.text, /\[three\] not run: the batch's 2000 ms were used up/);
    // Concurrent: 1.8 s of sleeps in a 1 s budget, each with its own.
    const commands = [
      { label: 'one', command: 'sleep 0.6' },
      { label: 'two', command: 'sleep 0.6' },
      { label: 'three', command: 'sleep 0.6' },
    ];
    const parallel = await call({ action: 'batch', commands, timeout: 1000, concurrency: 3 });
    assert.doesNotMatch(parallel.text, /timed out|not run/);
  });

  it('runs structured tasks with a fixed argv and refuses injection', async () => {
    assert.match((await call({ action: 'run_task', kind: 'make', target: 'hello' })).text, /^exit 0 · \d+ ms · make hello\nstdout:\nmade it$/);
    assert.match((await call({ action: 'run_task', kind: 'make', target: 'fail' })).text, /^exit 2/);
    assert.match((await call({ action: 'run_task', kind: 'make', target: 'all;rm' })).text, /target 'all;rm' is not a plain make target/);
    assert.match((await call({ action: 'run_task', kind: 'make', target: '-f' })).text, /not a plain make target/);
    assert.match((await call({ action: 'run_task', kind: 'make', args: ['-f', 'other.mk'] })).text, /args\[0\] '-f' is not allowed for make/);
    assert.match((await call({ action: 'run_task', kind: 'make', args: ['-C', '/'] })).text, /'-C' is not allowed/);
    assert.match((await call({ action: 'run_task', kind: 'go_test', args: ['-exec', 'rm'] })).text, /'-exec' is not allowed for go_test/);
    assert.match((await call({ action: 'run_task', kind: 'custom' })).text, /custom needs args\[0\] as the executable/);
    assert.match((await call({ action: 'run_task', kind: 'custom', args: ['echo', 'a;b'] })).text, /stdout:\na;b$/);
    assert.match((await call({ action: 'run_task', kind: 'make', target: 'hello', timeout_ms: 3_600_001 })).text, /timeout_ms: must be at most 3600000/);
  });

  it('refuses make abbreviations, overrides and unlisted options before anything runs, and lets go_test ./... through', async () => {
    const marker = path.join(root, 'pwned');
    for (const args of [[`--eva=$(shell touch ${marker})`], ['--fil=/etc/passwd'], ['--dir=/'], ['SHELL=/tmp/x'], ['.SHELLFLAGS=-c touch pwned #']]) {
      const { r, text } = await call({ action: 'run_task', kind: 'make', target: 'hello', args });
      assert.equal(r.isError, true, text);
      assert.match(text, /^error INVALID_ARGUMENT: args\[0\] '.*' is not allowed for make(: [^\n]*)?\nhint: allowed for make — options: -k --keep-going .* -j\[=…\] /, text);
    }
    assert.equal(existsSync(marker), false, 'the abbreviated --eval never ran');
    const env = await call({ action: 'run_task', kind: 'make', target: 'hello', env: { MAKEFLAGS: `--eval=$(shell touch ${marker})` } });
    assert.match(env.text, /env key 'MAKEFLAGS' may not be set for make/);
    assert.equal(existsSync(marker), false);
    // Issue 23.7: make takes RM, AR, LEX, CC… from the environment when the Makefile does not set them.
    for (const [key, value] of [['RM', `touch ${marker} ;`], ['LEX', `touch ${marker}`], ['CFLAGS', `-wrapper /bin/sh,-c,touch ${marker}`]] as const) {
      const refused = await call({ action: 'run_task', kind: 'make', target: 'clean', env: { [key]: value } });
      assert.match(refused.text, new RegExp(`^error INVALID_ARGUMENT: env key '${key}' may not be set for make: not on the allowlist\nhint: make takes only CI .*V in env`), key);
    }
    assert.equal(existsSync(marker), false, 'no program named in env ran');
    assert.match((await call({ action: 'run_task', kind: 'make', target: 'hello', env: { CI: '1', TZ: 'UTC', V: '1' } })).text, /^exit 0 .*\nstdout:\nmade it$/);
    const go = await call({ action: 'run_task', kind: 'go_test', target: './...', args: ['-run', 'TestNothing'] });
    assert.doesNotMatch(go.text, /INVALID_ARGUMENT/, 'the documented Go target passes validation');
  });
});

describe('ctx_run cancellation', () => {
  it('ends the process when the request is aborted', async () => {
    const root = fixture();
    const t = testApp(root);
    const { createClientSession } = await import('../../src/app/context.ts');
    const { createToolRegistry } = await import('../../src/tools/registry.ts');
    const { TOOLS } = await import('../../src/tools/index.ts');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const r = await createToolRegistry(TOOLS).call('ctx_run', { action: 'execute', command: 'sleep 30' }, { app: t.app, session: createClientSession('x'), signal: controller.signal, progress: async () => undefined });
    assert.ok(Date.now() - started < 5000);
    assert.match(textOf(r), /^cancelled/);
    await t.close();
    removeDir(root);
    writeFileSync('/dev/null', '');
  });
});
