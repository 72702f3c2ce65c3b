import assert from 'node:assert/strict';
import { symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPathJudge, walk } from '../../src/workspace/walk.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

async function files(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of walk(runtime.fs, { root, base: root, includeHidden: false, respectGitignore: true, listOnlyDirs: new Set() })) if (e.type === 'file') out.push(e.relRoot);
  return out;
}

describe('.gitignore rules, parsed once and kept while the file is unchanged', () => {
  let root: string;
  before(() => {
    root = fixture({ '.gitignore': '*.log\n', 'a.ts': '', 'b.log': '', 'sub/c.log': '', 'sub/d.ts': '' });
  });
  after(() => removeDir(root));

  it('sees an edited .gitignore at once, in the walk and in the per-path judge', async () => {
    assert.deepEqual(await files(root), ['a.ts', 'sub/d.ts']);
    const judge = () => createPathJudge(runtime.fs, { root, base: root, includeHidden: false, respectGitignore: true });
    assert.deepEqual(judge().judge('b.log'), { ignored: true });
    writeFileSync(path.join(root, '.gitignore'), '*.ts\n');
    // The same size as before: the new mtime is what says the rules changed.
    const past = new Date(Date.now() + 5000);
    utimesSync(path.join(root, '.gitignore'), past, past);
    assert.deepEqual(await files(root), ['b.log', 'sub/c.log']);
    assert.deepEqual(judge().judge('b.log'), { ignored: false });
    assert.deepEqual(judge().judge('sub/d.ts'), { ignored: true });
  });

  it('sees a .gitignore that appears in a folder that had none', async () => {
    writeFileSync(path.join(root, 'sub/.gitignore'), '!d.ts\n');
    assert.deepEqual(await files(root), ['b.log', 'sub/c.log', 'sub/d.ts']);
  });
});

describe('a walk in path order', () => {
  it('yields entries in the order a sort of their paths gives, folders included', async () => {
    const root = fixture({ 'a-b.c': '', 'a/x.c': '', 'a/b/y.c': '', 'a.c': '', 'a_b/z.c': '', 'A/q.c': '', 'ab': '', 'a/a-/w.c': '', 'a/a/v.c': '' });
    try {
      const walked: string[] = [];
      for await (const e of walk(runtime.fs, { root, base: root, includeHidden: false, respectGitignore: true, listOnlyDirs: new Set(), pathOrder: true })) if (e.type === 'file') walked.push(e.relRoot);
      assert.deepEqual(walked, [...walked].sort());
      assert.deepEqual(walked, ['A/q.c', 'a-b.c', 'a.c', 'a/a-/w.c', 'a/a/v.c', 'a/b/y.c', 'a/x.c', 'a_b/z.c', 'ab']);
    } finally {
      removeDir(root);
    }
  });
});

describe("the per-path judge's verdict for a listed file", () => {
  it('is the walk\'s for every file a walk yields, and still applies the judge\'s own options without reading a .gitignore', async () => {
    const root = fixture({ '.gitignore': '*.log\n', 'a.ts': '', 'sub/b.ts': '', 'sub/deep/c.ts': '', 'vendor/v.ts': '', '.hidden/h.ts': '', 'sub/.dot.ts': '', 'real/r.ts': '', 'x.log': '' });
    try {
      symlinkSync(path.join(root, 'real'), path.join(root, 'linked'));
      const options = { root, base: root, includeHidden: false, respectGitignore: true, excludeDirs: new Set(['vendor']) };
      const judge = createPathJudge(runtime.fs, options);
      for (const f of await files(root)) assert.deepEqual(judge.listed(f), judge.judge(f), f);
      for (const f of ['vendor/v.ts', '.hidden/h.ts', 'sub/.dot.ts', 'linked/r.ts']) assert.equal(judge.listed(f), undefined, f);
      // Listed means no .gitignore ignores it: it is not tested again (the caller vouches for the listing).
      assert.deepEqual(judge.listed('x.log'), { ignored: false });
      assert.equal(createPathJudge(runtime.fs, { ...options, statFolders: false }).listed('linked/r.ts')?.ignored, false, 'folders not looked at');
      const under = createPathJudge(runtime.fs, { ...options, base: path.join(root, 'sub') });
      assert.deepEqual(under.listed('sub/deep/c.ts'), { ignored: false });
      assert.equal(under.listed('a.ts'), undefined, 'outside the base');
    } finally {
      removeDir(root);
    }
  });
});
