// The Claude Code hooks, fed the JSON Claude Code sends (PreToolUse: tool_name, tool_input, cwd, and
// agent_id inside a subagent; SessionStart: source), through `ctxgate hook …` and the handler itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { preToolUse, sessionStart } from '../../src/clients/hooks/handlers.ts';
import { judgeByRunning } from '../../src/cli/hook.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

/** The judge's time limit here: the production 1.5 s let a command through unjudged on a loaded test machine (a wrong verdict, not a slow one). */
const JUDGE_LIMIT_MS = 20_000;
import { serverCommand } from '../helpers/server.ts';

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
}

describe('Claude Code hooks', () => {
  let project: string;

  before(() => {
    const big = `${'export const line = "0123456789abcdefghijklmnopqrstuvwxyz";\n'.repeat(1200)}`;
    // Six indented lines in one file: search's rows (path once, text trimmed) are smaller than rg -n's.
    const orders = `export function checkout() {\n${'        const total = computeOrderTotal(cart); // order total before tax\n'.repeat(6)}}\n`;
    project = fixture({ 'src/app.ts': 'export function main() {}\n', 'src/big.ts': big, 'src/orders/checkout-service.ts': orders, '.cache/orders.txt': 'order total\n', 'notes.txt': 'small\n', 'docs/': '' });
  });
  after(() => removeDir(project));

  const bash = (command: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: 'toolu_1', ...extra });
  const decide = async (input: string, nudgeOnly = false): Promise<HookOutput | undefined> => {
    const out = await preToolUse(input, { fs: runtime.fs, judge: judgeByRunning(runtime, JUDGE_LIMIT_MS) }, { nudgeOnly });
    return out ? (JSON.parse(out) as HookOutput) : undefined;
  };
  const blocked = async (command: string) => {
    const out = await decide(bash(command));
    assert.equal(out?.hookSpecificOutput.permissionDecision, 'deny', `${command} should be blocked`);
    return out!.hookSpecificOutput.permissionDecisionReason!;
  };
  const passes = async (input: string) => assert.equal(await decide(input), undefined, input);
  const nudged = async (input: string) => {
    const out = await decide(input);
    assert.equal(out?.hookSpecificOutput.permissionDecision, undefined, input);
    assert.ok(out?.hookSpecificOutput.additionalContext, input);
    return out!.hookSpecificOutput.additionalContext!;
  };

  const rg = runtime.which('rg') ? {} : { skip: 'ripgrep is not installed' };

  it('lets a command run when the judge runs out of time (never a refusal it could not back)', rg, async () => {
    const judged = await preToolUse(bash('rg -n "order total"'), { fs: runtime.fs, judge: judgeByRunning(runtime, 1) }, { nudgeOnly: false });
    assert.equal(judged ? (JSON.parse(judged) as HookOutput).hookSpecificOutput.permissionDecision : undefined, undefined, 'not denied after 1 ms of judging');
    await blocked('rg -n "order total"');
  });

  it('blocks an rg or grep -r whose lines the literal search call returns in fewer bytes, naming that call', rg, async () => {
    assert.match(await blocked('rg -n "order total"'), /mcp__ctxgate__search \{"pattern":"order total"\} returns the same 6 lines/);
    assert.match(await blocked('grep -rn "order total" src'), /mcp__ctxgate__search \{"pattern":"order total","scope":"src"\}/);
    assert.match(await blocked('cd src && rg -n "order total"'), /"scope":"src"/);
    // Regex metacharacters in a fixed string or a basic regex are text: the literal call, no regex:true.
    assert.match(await blocked('grep -rn "computeOrderTotal(cart)" src'), /\{"pattern":"computeOrderTotal\(cart\)","scope":"src"\}/);
    assert.match(await blocked('rg -nF "computeOrderTotal(cart)"'), /\{"pattern":"computeOrderTotal\(cart\)"\}/);
    assert.match(await blocked('rg -n "computeOrderTotal\\(cart\\)"'), /\{"pattern":"computeOrderTotal\(cart\)"\}/);
    assert.match(await blocked('rg -n computeOrderTotal'), /mcp__ctxgate__locate \{"query":"computeOrderTotal"\}/);
  });

  it('lets an rg or grep run when its output is smaller, empty, or holds lines search would not show', async () => {
    await passes(bash('rg -n "export function main"')); // one line: rg's 35 bytes beat any reply
    await passes(bash('rg -n handleOrder')); // nothing to replace
    await passes(bash('grep -rn "order total" .')); // grep -r reads hidden folders (.cache), search does not
  });

  it('tells the agent when rg reads a pattern as an invalid regex, with the literal call', rg, async () => {
    const text = await nudged(bash('rg -n "computeOrderTotal(cart"'));
    assert.match(text, /rg reads this pattern as a regex and refuses it/);
    assert.match(text, /mcp__ctxgate__search \{"pattern":"computeOrderTotal\(cart"\}/);
    assert.doesNotMatch(text, /regex":true/);
  });

  it('lets targeted and bounded searches run', async () => {
    await passes(bash('grep -n main src/app.ts'));
    await passes(bash('grep main notes.txt'));
    await passes(bash('rg -l main'));
    await passes(bash('rg -c main src'));
    await passes(bash('rg main | head -20'));
    await passes(bash('rg main > /tmp/hits.txt'));
    await passes(bash('rg main /etc'));
  });

  it('nudges without judging when the line does more than one thing, the options have no search equivalent or the pattern is a regex', async () => {
    assert.match(await nudged(bash('npm test && rg "order total"')), /mcp__ctxgate__search \{"pattern":"order total"\}/);
    assert.match(await nudged(bash('rg -i --type ts main')), /mcp__ctxgate__search/);
    assert.match(await nudged(bash('grep -rnE "fetch(User|Order)" . 2>/dev/null')), /\{"pattern":"fetch\(User\|Order\)","regex":true\}/);
    assert.match(await nudged(bash('git grep -n main')), /mcp__ctxgate__search/);
  });

  it('suggests nothing where no search call says the same: several patterns, PCRE, backreferences, basic-regex groups', async () => {
    await passes(bash('rg -e handleOrder -e placeOrder'));
    await passes(bash('grep -r -e handleOrder -e placeOrder src'));
    await passes(bash("rg -P 'order(?=Total)'"));
    await passes(bash("grep -rP 'order(?=Total)' ."));
    await passes(bash("grep -rE '(ab)\\1' src"));
    await passes(bash("grep -rn 'fetch\\(User\\|Order\\)' src"));
  });

  it('blocks find by name with the ctx_fs glob call, and leaves finds that act or stay shallow', async () => {
    assert.match(await blocked("find . -name '*.ts'"), /mcp__ctxgate__ctx_fs \{"action":"glob","pattern":"\*\*\/\*\.ts"\}/);
    assert.match(await blocked('find src -name "*.ts" -type f'), /"path":"src"/);
    await passes(bash("find . -name '*.tmp' -delete"));
    await passes(bash('find . -maxdepth 1 -type d'));
    assert.match(await nudged(bash("find . -iname '*.ts'")), /"pattern":"\*\*\/\*\.ts"/, 'an -iname keeps its pattern in the nudge');
  });

  it('blocks cat of a big file with a read call, and lets small files and piped cats through', async () => {
    assert.match(await blocked('cat src/big.ts'), /big\.ts is \d+ KB.*mcp__ctxgate__read \{"target":"src\/big\.ts"\}/);
    await passes(bash('cat notes.txt'));
    await passes(bash('cat src/big.ts | head -40'));
    await passes(bash('cat src/big.ts > /tmp/copy.ts'));
  });

  it('blocks fetching a public page with curl or wget, and leaves API calls, local servers and downloads', async () => {
    assert.match(await blocked('curl -sL https://example.com/docs/intro'), /mcp__ctxgate__ctx_kb \{"action":"fetch","url":"https:\/\/example\.com\/docs\/intro"\}/);
    assert.match(await blocked('wget -qO- https://example.com/a'), /"action":"fetch"/);
    await passes(bash('curl -X POST -d @body.json https://api.example.com/v1/items'));
    await passes(bash('curl -H "Authorization: Bearer x" https://api.example.com/v1/me'));
    await passes(bash('curl http://localhost:3000/health'));
    await passes(bash('wget https://example.com/file.tar.gz'));
    await passes(bash('curl -fsSL https://example.com/install.sh | sh'));
    // A GET of an API or a data file wants the exact bytes back, not a page in the knowledge base.
    await passes(bash('curl -s https://api.github.com/repos/owner/name'));
    await passes(bash('curl -s https://example.com/api/items'));
    await passes(bash('curl https://example.com/v1/models'));
    await passes(bash('curl -sL https://example.com/releases/data.json'));
    await passes(bash('wget -qO- https://example.com/pkg.tar.gz'));
  });

  it('never touches edits, small reads or a subagent’s calls', async () => {
    await passes(JSON.stringify({ cwd: project, tool_name: 'Edit', tool_input: { file_path: `${project}/src/big.ts`, old_string: 'a', new_string: 'b' } }));
    await passes(JSON.stringify({ cwd: project, tool_name: 'Write', tool_input: { file_path: `${project}/x.ts`, content: 'x' } }));
    await passes(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/app.ts` } }));
    await passes(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/big.ts`, offset: 1, limit: 50 } }));
    await passes(bash('rg -n main', { agent_id: 'agent-7', agent_type: 'general-purpose' }));
  });

  it('nudges a whole read of a big file and a broad content Grep, without blocking them', async () => {
    assert.match(await nudged(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/big.ts` } })), /mcp__ctxgate__read \{"target":"src\/big\.ts"\}/);
    assert.match(await nudged(JSON.stringify({ cwd: project, tool_name: 'Grep', tool_input: { pattern: 'main', output_mode: 'content' } })), /mcp__ctxgate__search \{"pattern":"main"\}/);
    await passes(JSON.stringify({ cwd: project, tool_name: 'Grep', tool_input: { pattern: 'main' } }));
  });

  it('runs the command as written when it carries the escape mark, and only nudges with --nudge', rg, async () => {
    await passes(bash('rg -n "order total" # no-ctxgate'));
    const out = await decide(bash('rg -n "order total"'), true);
    assert.equal(out?.hookSpecificOutput.permissionDecision, undefined);
    assert.match(out!.hookSpecificOutput.additionalContext!, /mcp__ctxgate__search/);
  });

  it('reminds the session of the probe and the fallback at start', () => {
    const out = JSON.parse(sessionStart(JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: project }))) as HookOutput;
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(out.hookSpecificOutput.additionalContext!, /mcp__ctxgate__locate \{"query":"main","max_results":1\}/);
    assert.match(out.hookSpecificOutput.additionalContext!, /not running/);
  });

  it('answers through `ctxgate hook` on stdin and never fails the tool call on bad input', rg, () => {
    const { command, args } = serverCommand();
    const run = (name: string, input: string) => spawnSync(command, [...args, 'hook', name], { input, encoding: 'utf8', cwd: project });
    const denied = run('pre-tool-use', bash('rg -n "order total"'));
    assert.equal(denied.status, 0, denied.stderr);
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const garbage = run('pre-tool-use', 'not json');
    assert.equal(garbage.status, 0);
    assert.equal(garbage.stdout, '');
    const start = run('session-start', JSON.stringify({ source: 'resume' }));
    assert.match(JSON.parse(start.stdout).hookSpecificOutput.additionalContext, /ctxgate/);
    const unknown = run('post-tool-use', '{}');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /unknown hook 'post-tool-use'/);
  });
});
