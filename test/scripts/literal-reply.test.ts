// scripts/lib/literal-reply.ts: how the literal-search benchmark reads a search reply, rg output and
// a hook's deny reason. A misread here would turn a right answer into a miss in the published figures.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coveredByRanges, parseRgLines, parseSearchReply, rowIndexes, suggestedCalls } from '../../scripts/lib/literal-reply.ts';

describe('literal benchmark reply parsing (scripts/lib/literal-reply.ts)', () => {
  it('attributes each row to the file header above it, block ranges and labels included', () => {
    const reply = parseSearchReply(
      ['3 of 3 hits in 2 files (~40 tokens)', 'src/Duration.ts', '  147: throw new Error("Invalid DurationInput")', '  200-230: export const decode = …', 'lib/parse.py:', '  9 (in parse): raise ValueError("bad")', '(2 more hits cut to fit 6000 tokens; narrow with scope or raise max_tokens)'].join('\n'),
    );
    assert.equal(reply.refused, false);
    assert.deepEqual(reply.rows, [
      { file: 'src/Duration.ts', line: 147 },
      { file: 'src/Duration.ts', line: 200, end: 230 },
      { file: 'lib/parse.py', line: 9 },
    ]);
  });

  it('reads grep-style rows that carry their own path', () => {
    assert.deepEqual(parseSearchReply('2 hits\nnet/dial.go:12: x\nnet/dial.go:40:y').rows, [
      { file: 'net/dial.go', line: 12 },
      { file: 'net/dial.go', line: 40 },
    ]);
  });

  it('knows a refusal by its first word and finds no rows in its envelope', () => {
    const reply = parseSearchReply('refused (compound): 605 hits in 44 files, ~5959 tokens, top score 0.5 — refusal 1\nwhere: src 400 · test 205\ntry: scope "src" (400 hits) · force:true');
    assert.equal(reply.refused, true);
    assert.deepEqual(reply.rows, []);
  });

  it('counts a line as its own row only when file and line match, and as covered when a range holds it', () => {
    const rows = [
      { file: 'a.ts', line: 10, end: 20 },
      { file: 'b.ts', line: 5 },
    ];
    assert.deepEqual(rowIndexes(rows, [{ file: 'b.ts', line: 5 }, { file: 'a.ts', line: 15 }, { file: 'a.ts', line: 10 }]), [1, -1, 0]);
    assert.equal(coveredByRanges(rows, [{ file: 'a.ts', line: 15 }, { file: 'b.ts', line: 5 }]), true);
    assert.equal(coveredByRanges(rows, [{ file: 'b.ts', line: 6 }]), false);
  });

  it('reads rg -n output with and without a ./ prefix, colons in the text included', () => {
    assert.deepEqual(parseRgLines('./src/x.ts:3:a: b\nsrc/y.ts:12:c\n'), [
      { file: 'src/x.ts', line: 3 },
      { file: 'src/y.ts', line: 12 },
    ]);
  });

  it('finds the calls a deny reason names, braces and quotes inside the pattern included', () => {
    const reason =
      'ctxgate searches the project ranked: mcp__ctxgate__search {"pattern":"f(\\"}\\") {","regex":true}. For where `x` is defined: mcp__ctxgate__locate {"query":"x"}. Or search {"pattern":"plain"}.';
    assert.deepEqual(suggestedCalls(reason), [
      { tool: 'search', args: { pattern: 'f("}") {', regex: true } },
      { tool: 'locate', args: { query: 'x' } },
      { tool: 'search', args: { pattern: 'plain' } },
    ]);
  });

  it('finds no call in prose that only mentions a tool', () => {
    assert.deepEqual(suggestedCalls('ctxgate searches the project; search it with a scope { narrower }'), []);
  });
});
