import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { selfCommand } from '../../src/clients/launch.ts';
import { pasteLines } from '../../src/clients/paste-line.ts';
import { repoRoot, runtime } from '../helpers/env.ts';

// Issue 24: serve told a Deno-only user to run `ctxgate init`, a command they do not have.
describe('the lines serve prints to paste', () => {
  it('name the command that runs this ctxgate for the init line', () => {
    const [claude, others] = pasteLines('http://127.0.0.1:8787/mcp', undefined, ['/usr/bin/deno', 'run', '-A', '/home/me/ctx gate/src/main.ts']);
    assert.match(claude!, /^connect Claude Code: claude mcp add --transport http ctxgate http:\/\/127\.0\.0\.1:8787\/mcp --header "Authorization: Bearer \$\{CTXGATE_TOKEN\}"$/);
    assert.equal(others, "other clients: CTXGATE_TOKEN=… /usr/bin/deno run -A '/home/me/ctx gate/src/main.ts' init --http http://127.0.0.1:8787/mcp --client cursor (or vscode, codex, gemini, all)");
  });

  it('runs this clone: its main script under the running runtime, or ctxgate when it cannot tell', () => {
    const self = selfCommand({ ...runtime, mainScript: path.join(repoRoot, runtime.name === 'deno' ? 'src/main.ts' : 'dist/ctxgate.mjs') });
    assert.ok(self.some((word) => word.startsWith(repoRoot)), self.join(' '));
    assert.deepEqual(selfCommand({ ...runtime, mainScript: '' }), ['ctxgate']);
  });
});
