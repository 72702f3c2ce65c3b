// The hook's promise (issue 20, item 7), checked by running both sides: for each command, the real
// rg/grep prints its lines, the real search tool answers the call the hook would suggest, and the
// hook's decision must follow — a denial only where the reply shows every printed line and is no
// bigger, and a denial wherever that holds for a command the hook judges (so this fails both ways).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { preToolUse } from '../../src/clients/hooks/handlers.ts';
import { judgeByRunning } from '../../src/cli/hook.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import type { CallResult } from '../../src/tools/registry.ts';

/** The judge's time limit here: the production 1.5 s let a command through unjudged on a loaded test machine (a wrong verdict, not a slow one). */
const JUDGE_LIMIT_MS = 20_000;
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

interface Decision {
  hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
}

const hasRg = runtime.which('rg') !== undefined;

/** A small tree with the cases that decide: many hits, hits in files search leaves out, long lines, other cases. */
function tree(): Record<string, string> {
  const indented = (text: string, n: number) => Array.from({ length: n }, (_, i) => `        if (x${i}) throw new Error("${text}");`).join('\n');
  const files: Record<string, string> = {
    '.gitignore': 'generated/\n',
    'src/duration/parse-duration-input.ts': `${indented('Invalid DurationInput', 4)}\n// Invalid DurationInput\n`,
    'src/duration/format.ts': 'export const fmt = (d: Duration) => d.toString(); // Invalid DurationInput\n',
    'src/errors/messages.ts': [
      '    const a = "Retry limit reached for request (see docs)";',
      '    const b = "Retry limit reached for request (see docs)";',
      '    const c = "Retry limit reached for request (see docs)";',
      '    const g = "Größe überschritten: 日本語のエラー";',
      '    const h = "Größe überschritten: 日本語のエラー";',
      '    const i = "Größe überschritten: 日本語のエラー";',
      '    const u = "unbalanced [bracket and parse(args";',
      '    const v = "unbalanced [bracket and parse(args";',
      '    const w = "unbalanced [bracket and parse(args";',
      '    const p = "cost is 50% of $HOME.total";',
      '    const q = "RETRY LIMIT REACHED";',
      `    const long = "${'x'.repeat(320)} Retry limit reached for request (see docs)";`,
    ].join('\n'),
    'src/only-once.ts': 'export const lonely = "a single lonely line";\n',
    'node_modules/dep/index.js': '        throw new Error("Invalid DurationInput");\n'.repeat(3),
    'generated/out.ts': '        // Größe überschritten: 日本語のエラー\n'.repeat(3),
    '.env': 'SECRET_TEXT="only in a secret file"\n',
    'config/.env.local': 'SECRET_TEXT="only in a secret file"\n',
    'docs/notes.md': 'only in a secret file? no: here too\n',
  };
  // A text in 30 files, 4 lines each: past the gate's 25 files.
  for (let i = 0; i < 30; i++) files[`src/many/m${i}.ts`] = '        log("commonly logged message");\n'.repeat(4);
  return files;
}

const PATTERNS = [
  'Invalid DurationInput',
  'Retry limit reached for request (see docs)',
  'retry limit reached',
  'Größe überschritten: 日本語のエラー',
  'unbalanced [bracket and parse(args',
  'parse(args',
  'cost is 50% of $HOME.total',
  'a single lonely line',
  'only in a secret file',
  'commonly logged message',
  'throw new Error(',
  'Duration',
];

/** Each command form the hook judges: a literal reading, one folder, only options that change nothing. */
const FORMS: { command: (p: string) => string; literal: (p: string) => boolean; scope?: string; needsRg: boolean }[] = [
  { command: (p) => `rg -n ${quote(p)}`, literal: (p) => !/[.[\]*^$\\+?(){}|]/.test(p), needsRg: true },
  { command: (p) => `rg -nF ${quote(p)} src`, literal: () => true, scope: 'src', needsRg: true },
  { command: (p) => `rg -F ${quote(p)} src/errors`, literal: () => true, scope: 'src/errors', needsRg: true },
  { command: (p) => `grep -rn ${quote(p)} src`, literal: (p) => !/[.[\]*^$\\]/.test(p), scope: 'src', needsRg: false },
  { command: (p) => `grep -rnF ${quote(p)} .`, literal: () => true, needsRg: false },
  { command: (p) => `grep -rnF -- ${quote(p)} src/duration`, literal: () => true, scope: 'src/duration', needsRg: false },
];

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The rows of a search reply, as `file:line:text` (a row `  START-END: text` counts for its START line). */
function replyRows(reply: string): Set<string> {
  const rows = new Set<string>();
  let file = '';
  for (const line of reply.split('\n').slice(1)) {
    const row = /^ {2}(\d+)(?:-\d+)?: (.*)$/.exec(line);
    if (row) rows.add(`${file}:${row[1]}:${row[2]}`);
    else if (!line.startsWith(' ')) file = line;
  }
  return rows;
}

/** Whether every line the command printed (`path:line:text` or `path:text`) is a row of the reply. */
function delivers(printed: string, rows: Set<string>, root: string, dir: string, numbered: boolean): boolean {
  const byFileText = [...rows].map((r) => r.split(':'));
  for (const line of printed.split('\n').filter(Boolean)) {
    const m = numbered ? /^(.*?):(\d+):(.*)$/.exec(line) : /^(.*?):(.*)$/.exec(line);
    if (!m) return false;
    const file = path.relative(root, path.resolve(dir, m[1]!));
    const text = (numbered ? m[3]! : m[2]!).trim();
    const found = numbered ? rows.has(`${file}:${m[2]}:${text}`) : byFileText.some((r) => r[0] === file && r.slice(2).join(':') === text);
    if (!found) return false;
  }
  return true;
}

describe('the PreToolUse hook, judged by running the command and the search it suggests', () => {
  let root: string;
  let app: TestApp;

  /** What each command printed on stdout, every command of the runnable forms run once in one shell (in `before`). */
  const printedBy = new Map<string, Buffer>();
  /** The search tool's reply for each call, asked once: forms with the same scope ask the same calls. */
  const replies = new Map<string, Promise<CallResult>>();
  const search = (args: Record<string, unknown>, session: string) => {
    const key = JSON.stringify(args);
    // Each call in a new session, as when every call was asked apart.
    if (!replies.has(key)) replies.set(key, app.call('search', args, createClientSession(session)));
    return replies.get(key)!;
  };

  before(async () => {
    root = fixture(tree());
    // A git repository, as projects are: rg then reads .gitignore, as search does.
    spawnSync('git', ['init', '-q'], { cwd: root });
    // Parsing and grepping in this thread: a worker pool's threads make every process this test
    // starts dearer to fork, and the pools are not what is tested here.
    app = testApp(root, {}, { CTXGATE_PARSE_WORKERS: '0', CTXGATE_GREP_WORKERS: '0' });
    // One shell runs every command (stdin from /dev/null, in the root), each output ended by a NUL
    // byte (no command prints one on this text-only tree): 72 processes fewer than one shell each.
    const commands = FORMS.filter((f) => !f.needsRg || hasRg).flatMap((f) => PATTERNS.map((p) => f.command(p)));
    const run = spawnSync('sh', ['-c', commands.map((c) => `${c} < /dev/null; printf '\\0'`).join('\n')], { cwd: root, maxBuffer: 64 << 20 });
    const outputs: Buffer[] = [];
    for (let at = 0, end = run.stdout.indexOf(0); end >= 0; at = end + 1, end = run.stdout.indexOf(0, at)) outputs.push(run.stdout.subarray(at, end));
    assert.equal(outputs.length, commands.length, `one output per command:\n${run.stderr}`);
    for (const [i, c] of commands.entries()) printedBy.set(c, outputs[i]!);
    // The code index (and its text index) built before the hook is judged: the first search would
    // start that build in the background a second later anyway, and here it cannot compete with the
    // judge's runs, which give up after JUDGE_TIMEOUT_MS (the hook then lets the command run).
    await app.app.code.refresh();
  });
  after(async () => {
    await app.close();
    removeDir(root);
  });

  const decide = async (command: string): Promise<Decision | undefined> => {
    const out = await preToolUse(JSON.stringify({ cwd: root, tool_name: 'Bash', tool_input: { command } }), { fs: runtime.fs, judge: judgeByRunning(runtime, JUDGE_LIMIT_MS) }, { nudgeOnly: false });
    return out ? (JSON.parse(out) as Decision) : undefined;
  };

  for (const form of FORMS) {
    it(`denies \`${form.command('…')}\` exactly where search returns every printed line in no more bytes`, form.needsRg && !hasRg ? { skip: 'ripgrep is not installed' } : {}, async () => {
      const outcomes: string[] = [];
      for (const pattern of PATTERNS) {
        const command = form.command(pattern);
        const stdout = printedBy.get(command)!;
        const printed = stdout.toString('utf8');
        const result = await search({ pattern, ...(form.scope ? { scope: form.scope } : {}) }, 'judge');
        const reply = textOf(result);
        const refused = result.isError === true || result.structuredContent?.status === 'refine';
        const numbered = /^(rg|grep) -\w*n/.test(command);
        const complete = !refused && printed.length > 0 && delivers(printed, replyRows(reply), root, root, numbered);
        const smaller = Buffer.byteLength(reply) <= stdout.length;
        const decision = (await decide(command))?.hookSpecificOutput;
        const denied = decision?.permissionDecision === 'deny';
        outcomes.push(`${pattern}: ${denied ? 'deny' : decision ? 'nudge' : 'pass'} (printed ${stdout.length} B, reply ${Buffer.byteLength(reply)} B${refused ? ', refused' : ''}${complete ? ', complete' : ''})`);
        if (denied) {
          assert.ok(complete, `${command} was denied, yet the search reply lacks a printed line:\n${printed}\n--- reply ---\n${reply}`);
          assert.ok(smaller, `${command} was denied, yet the reply (${Buffer.byteLength(reply)} B) is bigger than the output (${stdout.length} B)`);
          assert.match(decision!.permissionDecisionReason!, /mcp__ctxgate__search \{"pattern":/);
          assert.doesNotMatch(decision!.permissionDecisionReason!, /"regex":true/);
        } else if (complete && smaller && form.literal(pattern)) {
          assert.fail(`${command}: search returns every printed line in ${Buffer.byteLength(reply)} B against ${stdout.length} B, yet the hook did not deny (${decision ? 'nudged' : 'passed'})`);
        }
        // Whatever it suggests in a nudge, a regex is one RE2 takes.
        for (const m of decision?.additionalContext?.matchAll(/mcp__ctxgate__search (\{.*?\})(?=[ .,;)]|$)/g) ?? []) {
          const args = JSON.parse(m[1]!) as { pattern: string; regex?: boolean };
          const check = await search(args, 'nudge');
          assert.notEqual(check.isError, true, `the nudge for ${command} suggests a call that fails: ${textOf(check)}`);
        }
      }
      // Both decisions occur in the sample, or the test could not tell a hook that always passes.
      const summary = outcomes.join('\n');
      assert.match(summary, /: deny /, summary);
      assert.match(summary, /: pass |: nudge /, summary);
    });
  }
});
