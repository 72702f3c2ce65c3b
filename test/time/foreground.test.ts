import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createForeground } from '../../src/time/foreground.ts';

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setTimeout(r, 20));
  return done;
};

describe('foreground calls', () => {
  it('is quiet at once when no call runs', async () => {
    assert.equal(await settled(createForeground().quiet(60_000)), true);
  });

  it('is quiet when the last of the running calls ends, each end counted once', async () => {
    const f = createForeground();
    const a = f.begin();
    const b = f.begin();
    const quiet = f.quiet(60_000);
    a();
    a();
    assert.equal(f.running, 1);
    assert.equal(await settled(quiet), false, 'one call still runs');
    b();
    assert.equal(await settled(quiet), true);
    assert.equal(f.running, 0);
  });

  it('stops waiting after the longest wait, however long a call runs', async () => {
    const f = createForeground();
    const end = f.begin();
    assert.equal(await settled(f.quiet(5)), true);
    end();
  });
});
