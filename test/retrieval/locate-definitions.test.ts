import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scan } from '../../src/retrieval/fileio.ts';
import type { RetrievalDeps } from '../../src/retrieval/types.ts';
import type { TextIndexReader } from '../../src/textindex/types.ts';
import type { TestApp } from '../helpers/app.ts';
import { closeFixture, indexedFixture } from '../helpers/indexed.ts';

// Issue 14: locate kind=definition with the code index. The index knows the definitions in the files
// it parses, so only the files it cannot parse (a shell script, a Lua file) are scanned for
// definition-looking lines — prose, documentation and tests never define.
const FILES: Record<string, string> = {
  'src/widget.c': 'int widget_make(void) {\n  return 1;\n}\n',
  'src/user.c': 'int widget_make(void);\nstatic int x;\nint use(void) { return widget_make(); }\n',
  'scripts/build.sh': 'widget_make() {\n  echo made\n}\nwidget_make\n',
  'lib/plugin.lua': 'function widget_make()\n  return 2\nend\n',
  'docs/guide.md': 'widget_make() {\n',
  'tests/widget_test.sh': 'widget_make() {\n  :\n}\n',
};

/** An index naming every file (the scan must still keep the right ones). */
function everythingIndex(): TextIndexReader {
  const all = Object.keys(FILES).sort();
  return { candidates: async () => ({ files: all, ruledOut: 0 }), touched() {}, status: () => ({ state: 'ready', indexed: all.length, total: all.length, bytes: 0 }) };
}

describe('locate kind=definition with the code index', () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    ({ t, root } = await indexedFixture(FILES));
  });
  after(() => closeFixture(t, root));

  const definitions = async () => {
    const r = await t.call('locate', { query: 'widget_make', kind: 'definition' });
    return ((r.structuredContent as { results: { file: string; line: number; kind: string }[] }).results ?? []).map((x) => `${x.file}:${x.line} ${x.kind}`).sort();
  };

  it('answers from the index for parsed files and from the scan for the others, with or without a text index', async () => {
    const expected = ['lib/plugin.lua:1 definition', 'scripts/build.sh:1 definition', 'src/user.c:1 definition', 'src/widget.c:1 definition'];
    const plain = await definitions();
    // src/user.c:1 is a declaration the index records; the order of the overloads is the index's business.
    assert.deepEqual(
      plain.filter((x) => x !== 'src/user.c:1 definition'),
      expected.filter((x) => x !== 'src/user.c:1 definition'),
    );
    t.app.textIndex = everythingIndex();
    try {
      assert.deepEqual(await definitions(), plain);
    } finally {
      t.app.textIndex = undefined;
    }
  });

  it('scans only the files a request admits, with an index or without', async () => {
    const scope = { path: root, real: root, workdir: root, relative: '', exists: true };
    const req = { pattern: 'widget_make', literal: true, wordBoundary: true, ignoreCase: false, scope, exclude: [], symbol: 'widget_make', onlyFiles: (f: string) => !f.endsWith('.c') };
    const files = (hits: { file: string }[]) => [...new Set(hits.map((h) => h.file))].sort();
    const without = await scan(t.app, req);
    assert.deepEqual(files(without.hits), ['docs/guide.md', 'lib/plugin.lua', 'scripts/build.sh', 'tests/widget_test.sh']);
    const withIndex = await scan({ ...t.app, textIndex: everythingIndex() } as RetrievalDeps, req);
    assert.deepEqual(withIndex, without);
  });
});
