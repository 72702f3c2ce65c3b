import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { engineSetups } from '../helpers/engines.ts';

// Issue 11: a pattern that makes a backtracking engine take exponential time, over lines that
// trigger it; every engine behind the gate tools must answer anyway.
const FILES = {
  'src/bang.txt': `${'a'.repeat(40)}!\n`,
  'src/many-a.ts': `${'a'.repeat(50_000)}\nconst x = "aab";\n`,
  'src/other.ts': 'export const quiet = 1;\n',
};

const setups = engineSetups();

for (const setup of setups) {
  describe(`gate search over the ${setup.engine} engine`, { skip: setup.skip }, () => {
    let t: TestApp;
    let root: string;
    before(() => {
      root = fixture(FILES);
      t = testApp(root, {}, setup.env);
    });
    after(async () => {
      await t.close();
      removeDir(root);
    });

    it('finds (a+)+b|! on a line of 40 a and a bang, and (a+)+b after a line of 50,000 a', async () => {
      const bang = await t.call('search', { pattern: '(a+)+b|!', regex: true, scope: 'src' });
      assert.equal(bang.isError, undefined, bang.content[0]?.text);
      const text = bang.content[0]!.text;
      assert.match(text, /src\/bang\.txt\n {2}1: a{40}!/);
      assert.match(text, /src\/many-a\.ts\n {2}2: const x = "aab";/);
      const hits = (bang.structuredContent as { results: { file: string; line: number }[] }).results;
      assert.deepEqual(hits.map((h) => `${h.file}:${h.line}`).sort(), ['src/bang.txt:1', 'src/many-a.ts:2']);
    });

    it('classifies a regex hit inside quotes as a string, from the engine\'s own match position', async () => {
      const r = await t.call('search', { pattern: 'a+b', regex: true, scope: 'src' });
      const hits = (r.structuredContent as { results: { file: string; kind: string }[] }).results;
      assert.deepEqual(hits.map((h) => [h.file, h.kind]), [['src/many-a.ts', 'string']]);
    });

    it('refuses look-around and backreferences with INVALID_ARGUMENT naming the construct', async () => {
      for (const [pattern, what] of [
        ['(?<=x)y', /look-behind/],
        ['(a)\\1', /backreference/],
      ] as const) {
        const r = await t.call('search', { pattern, regex: true });
        assert.equal(r.isError, true, pattern);
        assert.match(r.content[0]!.text, /^error INVALID_ARGUMENT: pattern uses /, pattern);
        assert.match(r.content[0]!.text, what, pattern);
      }
    });
  });
}
