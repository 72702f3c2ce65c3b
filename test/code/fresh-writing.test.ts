// A file being written while the index reads it (truncated and written again in a loop, an editor's
// save in two steps) is not parsed from what the read caught: the version parsed before keeps
// answering until the file holds still, then the new one is taken.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { findDefinitions } from '../../src/code/graph.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import type { RuntimeFs } from '../../src/runtime/types.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { RACY_MS } from '../../src/textindex/file-identity.ts';
import { testDir } from '../helpers/code-index.ts';
import { runtime } from '../helpers/env.ts';

describe('a file written while it is read', () => {
  it('keeps the definitions parsed before while its stat moves under the read or it reads empty in the tick of a write, and takes the new text once it holds still', async () => {
    const root = testDir({ 'a.ts': 'export function alpha(): number {\n  return 1\n}\n', 'b.ts': 'export const beta = 2;\n' });
    const abs = path.join(root, 'a.ts');
    /** While set, a stat of a.ts after it was opened says it changed again (a writer's next round). */
    let writing = false;
    const fs: RuntimeFs = {
      ...runtime.fs,
      stat: async (p) => {
        const st = await runtime.fs.stat(p);
        return st && writing && p === abs ? { ...st, mtimeMs: st.mtimeMs + 1, ctimeMs: st.ctimeMs + 1 } : st;
      },
    };
    const index = createCodeIndex({
      fs,
      grammars: createGrammars(runtime),
      logger: { log() {}, file: undefined, close() {} },
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: [], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, path.join(testDir(), 'code.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
    });
    try {
      await index.refresh();
      const where = async (name: string) => (await findDefinitions(index, name))?.map((d) => `${d.file}:${d.line}`);
      assert.deepEqual(await where('alpha'), ['a.ts:1']);
      // Caught between a truncate and a write: empty, the stat moving.
      writing = true;
      writeFileSync(abs, '');
      assert.deepEqual(await where('alpha'), ['a.ts:1'], 'the version parsed before answers');
      assert.deepEqual(await where('alpha'), ['a.ts:1'], 'and again');
      // It holds still, renamed: the new text is taken (when the file is looked at again: the watch's
      // report, a refresh, or an answer resting on it).
      writeFileSync(abs, 'export function gamma(): number {\n  return 1\n}\n');
      writing = false;
      assert.equal(await index.fresh(['a.ts']), 1);
      assert.deepEqual(await where('gamma'), ['a.ts:1']);
      assert.deepEqual(await where('alpha'), []);
      // Emptied, its stat still (a coarse clock gives a truncate and the write after it one time):
      // within the tick of the change the empty read is not taken; after it, it is.
      writeFileSync(abs, '');
      await index.fresh(['a.ts']);
      assert.deepEqual(await where('gamma'), ['a.ts:1'], 'an empty read in the tick of a write: kept');
      await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
      await index.fresh(['a.ts']);
      assert.deepEqual(await where('gamma'), [], 'emptied for good: taken');
    } finally {
      await index.close();
    }
  });
});
