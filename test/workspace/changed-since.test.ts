import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createExecutor } from '../../src/exec/executor.ts';
import { type ChangedSince, createChangedSince } from '../../src/workspace/changed-since.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

const exec = createExecutor(runtime);
const findIn = (root: string): ChangedSince => createChangedSince({ runtime, exec, root, skipDirs: ['node_modules'] });

describe('find\'s list of what changed since a moment', () => {
  it('names new files and the folders whose entries changed, never what hidden or skipped folders hold', async () => {
    const root = fixture({ 'top.ts': 't\n', 'src/a.ts': 'a\n', 'src/deep/x/y.ts': 'y\n', 'src/.cache/z.ts': 'z\n', 'lib/node_modules/m/i.js': 'm\n', '.hidden/h.ts': 'h\n', 'node_modules/m/i.js': 'm\n', '.env.example': 'x\n' });
    dirs.push(root);
    const listed = await findIn(root)(Date.now() - 60_000);
    assert.ok(listed, 'find ran');
    // Each entry once, whichever of the finds (one per core, each on a share of the tree) saw it.
    assert.deepEqual(listed.toSorted(), ['', '.env.example', 'lib', 'src', 'src/a.ts', 'src/deep', 'src/deep/x', 'src/deep/x/y.ts', 'top.ts']);
  });

  it('says it cannot tell when find fails (a root that is not there)', async () => {
    const root = fixture();
    dirs.push(root);
    assert.equal(await findIn(path.join(root, 'missing'))(Date.now() - 60_000), undefined);
  });
});
