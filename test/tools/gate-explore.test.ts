import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';
import { closeFixture, indexedFixture } from '../helpers/indexed.ts';

const manyImports = Array.from({ length: 55 }, (_, i) => `import { m${i} } from 'pkg${i}'`).join('\n');

const FILES: Record<string, string> = {
  'src/a/Left.ts': 'export function succeed(x: number): number {\n  return x\n}\n',
  'src/a/useLeft.ts': "import { succeed } from './Left'\n\nexport function three(): number {\n  const a = succeed(1)\n  const b = succeed(2)\n  return a + b + succeed(3)\n}\n",
  'src/b/Right.ts': 'export function succeed(x: string): string {\n  return x\n}\n',
  'src/b/useRight.ts': "import { succeed } from './Right'\n\nexport function one(): string {\n  return succeed('a')\n}\n",
  'lib/other.ts': 'export function helper(): number {\n  return 1\n}\n\nexport function user(): number {\n  return helper()\n}\n',
  'src/many.ts': `${manyImports}\n\nexport const all = 1\n`,
  'src/c/models.ts': 'export class Row {\n  save(): void {}\n}\n\nexport class Doc {\n  save(): void {}\n}\n',
  'src/c/use.ts': "import { Row, Doc } from './models'\n\nexport function run(d: Doc, x: any): void {\n  const r = new Row()\n  r.save()\n  r.save()\n  d.save()\n  x.save()\n}\n",
};

describe('explore with the code index: overview anchors, per-definition counts, anchor and relation alone', () => {
  let root: string;
  let t: TestApp;
  const explore = async (args: Record<string, unknown>) => {
    const r = await t.call('explore', args);
    return { text: textOf(r), isError: r.isError };
  };

  before(async () => {
    ({ t, root } = await indexedFixture(FILES));
  });
  after(() => closeFixture(t, root));

  it('counts calls per definition: two same-named functions keep their own counts', async () => {
    const r = await explore({ relation: 'overview' });
    assert.match(r.text, /src\/a: 2 files \(typescript\); key: [^\n]*succeed src\/a\/Left\.ts:1 \(3 calls\)/);
    assert.match(r.text, /src\/b: 2 files \(typescript\); key: [^\n]*succeed src\/b\/Right\.ts:1 \(1 call\)/);
    assert.doesNotMatch(r.text, /\(4 calls\)/);
  });

  it("counts a method's calls as its callers answer resolves them: by receiver type, a call on an unknown object counted for neither", async () => {
    const r = await explore({ relation: 'overview', anchor: 'src/c' });
    assert.match(r.text, /Row\.save src\/c\/models\.ts:2 \(2 calls\)/);
    assert.match(r.text, /Doc\.save src\/c\/models\.ts:6 \(1 call\)/);
  });

  it('gives an overview of only the folder its anchor names', async () => {
    const r = await explore({ relation: 'overview', anchor: 'src/a' });
    assert.match(r.text, /^overview: 2 source files in 1 module within src\/a\n/);
    assert.match(r.text, /src\/a: 2 files \(typescript\); key: [^\n]*succeed src\/a\/Left\.ts:1 \(3 calls\)/);
    assert.doesNotMatch(r.text, /src\/b|lib|many/);
  });

  it('gives an overview of only the file its anchor names', async () => {
    const r = await explore({ relation: 'overview', anchor: 'lib/other.ts' });
    assert.match(r.text, /^overview: 1 source file in 1 module within lib\/other\.ts\n/);
    assert.match(r.text, /lib\/other\.ts: 1 file \(typescript\); key: helper lib\/other\.ts:1 \(1 call\)/);
    assert.doesNotMatch(r.text, /src\//);
  });

  it('says what was wrong when the overview anchor is not a path of the project', async () => {
    const r = await explore({ relation: 'overview', anchor: 'src/nowhere' });
    assert.equal(r.isError, true);
    assert.match(r.text, /path 'src\/nowhere' does not exist/);
  });

  it('answers an anchor and a relation without a question', async () => {
    const r = await explore({ anchor: 'helper', relation: 'callers' });
    assert.notEqual(r.isError, true);
    assert.match(r.text, /^callers: helper: 1 definition \(lib\/other\.ts:1 function\); 1 call in 1 file/);
    assert.match(r.text, /lib\/other\.ts: 6 in user/);
  });

  it('says how many more imports there are when dependencies cuts the list', async () => {
    const r = await explore({ anchor: 'src/many.ts', relation: 'dependencies' });
    assert.match(r.text, /src\/many\.ts imports 55, is imported by 0/);
    assert.match(r.text, /50: pkg49 \(outside the project\)\n {2}… 5 more imports/);
  });
});

describe('explore from a file scan: overview anchors', () => {
  let root: string;
  let t: TestApp;

  before(() => {
    root = fixture(FILES);
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('walks only the folder its anchor names', async () => {
    const text = textOf(await t.call('explore', { relation: 'overview', anchor: 'src/b' }));
    assert.match(text, /^overview: 2 files/);
    assert.doesNotMatch(text, /src\/a|lib/);
  });
});
