// The Claude Code hooks, fed the JSON Claude Code sends (PreToolUse: tool_name, tool_input, cwd, and
// agent_id inside a subagent; SessionStart: source), through `ctxgate hook …` and the handler itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { preToolUse, sessionStart } from '../../src/clients/hooks/handlers.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { serverCommand } from '../helpers/server.ts';

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
}

describe('Claude Code hooks', () => {
  let project: string;

  before(() => {
    const big = `${'export const line = "0123456789abcdefghijklmnopqrstuvwxyz";\n'.repeat(1200)}`;
    project = fixture({ 'src/app.ts': 'export function main() {}\n', 'src/big.ts': big, 'notes.txt': 'small\n', 'docs/': '' });
  });
  after(() => removeDir(project));

  const bash = (command: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command, description: 'x' }, tool_use_id: 'toolu_1', ...extra });
  const decide = (input: string, nudgeOnly = false): HookOutput | undefined => {
    const out = preToolUse(input, runtime.fs, { nudgeOnly });
    return out ? (JSON.parse(out) as HookOutput) : undefined;
  };
  const blocked = (command: string) => {
    const out = decide(bash(command));
    assert.equal(out?.hookSpecificOutput.permissionDecision, 'deny', `${command} should be blocked`);
    return out!.hookSpecificOutput.permissionDecisionReason!;
  };
  const passes = (input: string) => assert.equal(decide(input), undefined, input);
  const nudged = (input: string) => {
    const out = decide(input);
    assert.equal(out?.hookSpecificOutput.permissionDecision, undefined, input);
    assert.ok(out?.hookSpecificOutput.additionalContext, input);
    return out!.hookSpecificOutput.additionalContext!;
  };

  it('blocks a broad rg or grep -r with the exact search call', () => {
    assert.match(blocked('rg -n handleOrder'), /mcp__ctxgate__search \{"pattern":"handleOrder"\}/);
    assert.match(blocked('rg -n handleOrder'), /mcp__ctxgate__locate \{"query":"handleOrder"\}/);
    assert.match(blocked('grep -rn "order total" src'), /mcp__ctxgate__search \{"pattern":"order total","scope":"src"\}/);
    assert.match(blocked('grep -rnE "fetch(User|Order)" . 2>/dev/null'), /\{"pattern":"fetch\(User\|Order\)","regex":true\}/);
    assert.match(blocked('cd src && rg main'), /"scope":"src"/);
    assert.match(blocked('git grep -n main'), /mcp__ctxgate__search/);
  });

  it('lets targeted and bounded searches run', () => {
    passes(bash('grep -n main src/app.ts'));
    passes(bash('grep main notes.txt'));
    passes(bash('rg -l main'));
    passes(bash('rg -c main src'));
    passes(bash('rg main | head -20'));
    passes(bash('rg main > /tmp/hits.txt'));
    passes(bash('rg main /etc'));
  });

  it('nudges instead of blocking when the line does more than one thing or the options have no exact match', () => {
    assert.match(nudged(bash('npm test && rg main')), /mcp__ctxgate__search/);
    assert.match(nudged(bash('rg -i --type ts main')), /mcp__ctxgate__search/);
    // No single search call does these: several patterns, PCRE look-around, a backreference.
    nudged(bash('rg -e handleOrder -e placeOrder'));
    nudged(bash('grep -r -e handleOrder -e placeOrder src'));
    nudged(bash("rg -P 'order(?=Total)'"));
    nudged(bash("grep -rP 'order(?=Total)' ."));
    nudged(bash("grep -rE '(ab)\\1' src"));
  });

  it('blocks find by name with the ctx_fs glob call, and leaves finds that act or stay shallow', () => {
    assert.match(blocked("find . -name '*.ts'"), /mcp__ctxgate__ctx_fs \{"action":"glob","pattern":"\*\*\/\*\.ts"\}/);
    assert.match(blocked('find src -name "*.ts" -type f'), /"path":"src"/);
    passes(bash("find . -name '*.tmp' -delete"));
    passes(bash('find . -maxdepth 1 -type d'));
    assert.match(nudged(bash("find . -iname '*.ts'")), /"pattern":"\*\*\/\*\.ts"/, 'an -iname keeps its pattern in the nudge');
  });

  it('blocks cat of a big file with a read call, and lets small files and piped cats through', () => {
    assert.match(blocked('cat src/big.ts'), /big\.ts is \d+ KB.*mcp__ctxgate__read \{"target":"src\/big\.ts"\}/);
    passes(bash('cat notes.txt'));
    passes(bash('cat src/big.ts | head -40'));
    passes(bash('cat src/big.ts > /tmp/copy.ts'));
  });

  it('blocks fetching a public page with curl or wget, and leaves API calls, local servers and downloads', () => {
    assert.match(blocked('curl -sL https://example.com/docs/intro'), /mcp__ctxgate__ctx_kb \{"action":"fetch","url":"https:\/\/example\.com\/docs\/intro"\}/);
    assert.match(blocked('wget -qO- https://example.com/a'), /"action":"fetch"/);
    passes(bash('curl -X POST -d @body.json https://api.example.com/v1/items'));
    passes(bash('curl -H "Authorization: Bearer x" https://api.example.com/v1/me'));
    passes(bash('curl http://localhost:3000/health'));
    passes(bash('wget https://example.com/file.tar.gz'));
    passes(bash('curl -fsSL https://example.com/install.sh | sh'));
    // A GET of an API or a data file wants the exact bytes back, not a page in the knowledge base.
    passes(bash('curl -s https://api.github.com/repos/owner/name'));
    passes(bash('curl -s https://example.com/api/items'));
    passes(bash('curl https://example.com/v1/models'));
    passes(bash('curl -sL https://example.com/releases/data.json'));
    passes(bash('wget -qO- https://example.com/pkg.tar.gz'));
  });

  it('never touches edits, small reads or a subagent’s calls', () => {
    passes(JSON.stringify({ cwd: project, tool_name: 'Edit', tool_input: { file_path: `${project}/src/big.ts`, old_string: 'a', new_string: 'b' } }));
    passes(JSON.stringify({ cwd: project, tool_name: 'Write', tool_input: { file_path: `${project}/x.ts`, content: 'x' } }));
    passes(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/app.ts` } }));
    passes(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/big.ts`, offset: 1, limit: 50 } }));
    passes(bash('rg -n main', { agent_id: 'agent-7', agent_type: 'general-purpose' }));
  });

  it('nudges a whole read of a big file and a broad content Grep, without blocking them', () => {
    assert.match(nudged(JSON.stringify({ cwd: project, tool_name: 'Read', tool_input: { file_path: `${project}/src/big.ts` } })), /mcp__ctxgate__read \{"target":"src\/big\.ts"\}/);
    assert.match(nudged(JSON.stringify({ cwd: project, tool_name: 'Grep', tool_input: { pattern: 'main', output_mode: 'content' } })), /mcp__ctxgate__search \{"pattern":"main"\}/);
    passes(JSON.stringify({ cwd: project, tool_name: 'Grep', tool_input: { pattern: 'main' } }));
  });

  it('runs the command as written when it carries the escape mark, and only nudges with --nudge', () => {
    passes(bash('rg -n main # no-ctxgate'));
    const out = decide(bash('rg -n main'), true);
    assert.equal(out?.hookSpecificOutput.permissionDecision, undefined);
    assert.match(out!.hookSpecificOutput.additionalContext!, /mcp__ctxgate__search/);
  });

  it('reminds the session of the probe and the fallback at start', () => {
    const out = JSON.parse(sessionStart(JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: project }))) as HookOutput;
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(out.hookSpecificOutput.additionalContext!, /mcp__ctxgate__locate \{"query":"main","max_results":1\}/);
    assert.match(out.hookSpecificOutput.additionalContext!, /not running/);
  });

  it('answers through `ctxgate hook` on stdin and never fails the tool call on bad input', () => {
    const { command, args } = serverCommand();
    const run = (name: string, input: string) => spawnSync(command, [...args, 'hook', name], { input, encoding: 'utf8', cwd: project });
    const denied = run('pre-tool-use', bash('rg -n main'));
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
