import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import type { TextIndexReader } from '../../src/textindex/types.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

// An index may name files a .gitignore hides (touched since it judged them, listed before the
// .gitignore changed, catalogued with scan.respectGitignore off): a full read skips them, so a sample must neither count nor estimate them.
const FILES: Record<string, string> = { '.gitignore': 'generated_out/\n' };
for (let i = 0; i < 400; i++) FILES[`core/m${i}.c`] = `int widget_${i} = 1;\nwidget_init(${i});\n`;
for (let i = 0; i < 1500; i++) FILES[`generated_out/o${i}.c`] = 'widget widget\nwidget\n';

function everythingIndex(): TextIndexReader {
  const all = Object.keys(FILES).filter((f) => !f.startsWith('.')).sort();
  return {
    async candidates() {
      return { files: all, ruledOut: 0 };
    },
    touched() {},
    status: () => ({ state: 'ready' as const, indexed: all.length, total: all.length, bytes: 0 }),
  };
}

describe('a sampled refusal over index candidates a .gitignore hides', () => {
  let t: TestApp;
  let root: string;
  before(() => {
    root = fixture(FILES);
    t = testApp(root, { graphBackend: 'none' });
    t.app.textIndex = everythingIndex();
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('neither estimates the ignored folder nor suggests it as a scope', async () => {
    const r = await t.call('search', { pattern: 'widget' }, createClientSession(crypto.randomUUID()));
    const s = r.structuredContent as { estimate?: { of: number }; distribution: { dir: string }[]; suggestions: { action: string; arg?: string }[] };
    assert.equal(s.estimate?.of, 400);
    assert.deepEqual(s.distribution.map((d) => d.dir), ['core']);
    assert.ok(!s.suggestions.some((x) => x.arg === 'generated_out'), JSON.stringify(s.suggestions));
  });
});
