import assert from 'node:assert/strict';
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Runtime } from '../../src/runtime/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

// Issue 23, items 2–3, for a file too big to read whole (read takes it a megabyte at a time): the file
// is judged on its descriptor before the first chunk, and every later open must find that same file.
describe('read of a big file swapped for a link to a secret between its judgement and its chunks', () => {
  let root: string;
  let t: TestApp;
  let swapOnOpen = 0;
  let opens = 0;
  const big = () => path.join(root, 'big.log');
  before(() => {
    root = fixture({ '.env': `API_KEY=${'s'.repeat(3 * 1024 * 1024)}\n`, 'big.log': `${'2026-12-01 INFO served\n'.repeat(150_000)}` });
    const fs = runtime.fs;
    // The n-th open of big.log for reading (counted from the call) finds it swapped for a symlink to .env first.
    const swapping: Runtime = {
      ...runtime,
      fs: {
        ...fs,
        files: {
          ...fs.files,
          openRead: (p) => {
            if (p === big() && ++opens === swapOnOpen) {
              renameSync(big(), `${big()}.orig`);
              symlinkSync('.env', big());
            }
            return fs.files.openRead(p);
          },
        },
      },
    };
    t = testApp(root, {}, {}, swapping);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('reads it when nothing changes, and refuses, showing nothing of the secret, when it was swapped before a chunk was read', async () => {
    const plain = await t.call('read', { target: 'big.log', max_tokens: 300 });
    assert.notEqual(plain.isError, true, textOf(plain));
    assert.match(textOf(plain), /INFO served/);
    for (const n of [1, 2]) {
      removeDir(big());
      writeFileSync(big(), '2026-12-01 INFO served\n'.repeat(150_000));
      swapOnOpen = n;
      opens = 0;
      const swapped = await t.call('read', { target: 'big.log', max_tokens: 300 });
      assert.equal(swapped.isError, true, `swap at open ${n}: ${textOf(swapped)}`);
      assert.doesNotMatch(textOf(swapped), /API_KEY|sss/);
      assert.match(textOf(swapped), /changed while it was being opened|could not be opened/);
      removeDir(`${big()}.orig`);
    }
  });
});
