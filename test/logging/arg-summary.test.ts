import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARG_SUMMARY_MAX_CHARS, summarizeArgs } from '../../src/logging/arg-summary.ts';

describe('argument summary', () => {
  it('tells two calls of one tool apart by their arguments, in the order given, without the action', () => {
    assert.equal(summarizeArgs({ pattern: 'widget' }), 'pattern="widget"');
    assert.equal(summarizeArgs({ pattern: 'widget', scope: 'lib', force: true, max_hits: 3 }), 'pattern="widget" scope="lib" force=true max_hits=3');
    assert.equal(summarizeArgs({ action: 'execute', command: 'seq 1 60000' }), 'command="seq 1 60000"');
    assert.equal(summarizeArgs({ action: 'ls' }), '');
    assert.equal(summarizeArgs({ paths: ['a.ts', 'b.ts'], options: { a: 1, b: 2 } }), 'paths=["a.ts", "b.ts"] options={2 keys}');
  });

  it('never shows a credential: sensitive names, env values and values that hold a secret are replaced', () => {
    const line = summarizeArgs({ command: 'psql postgres://app:hunter2@db/prod', env: { API_KEY: 'sk_live_hunter2hunter2' }, api_token: 'hunter2hunter2' });
    assert.doesNotMatch(line, /hunter2/);
    assert.match(line, /command="\[redacted: holds a URL with a password\]"/);
    assert.match(line, /api_token="\[redacted\]"/);
    assert.match(line, /env=\{1 key\}/);
  });

  it('keeps the line short: long values and long argument lists are cut with an ellipsis, newlines folded', () => {
    const line = summarizeArgs({ code: `print(1)\n${'x'.repeat(500)}`, a: 'y'.repeat(100), b: 'z'.repeat(100) });
    assert.ok(line.length <= ARG_SUMMARY_MAX_CHARS, line);
    assert.match(line, /^code="print\(1\) x+…" a="y+…"/);
    assert.ok(line.endsWith('…'));
  });
});
