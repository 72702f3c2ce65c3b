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

  it('lists the calls that say what they are while they run, the oldest first, with when each started', () => {
    let clock = 1000;
    const f = createForeground(() => clock);
    const search = f.begin({ tool: 'search', args: 'pattern="widget"', session: 's1' });
    clock = 2000;
    const run = f.begin({ tool: 'ctx_run', action: 'execute', args: 'command="sleep 5"', session: 's2' });
    const unnamed = f.begin();
    assert.deepEqual(f.inFlight(), [
      { tool: 'search', args: 'pattern="widget"', session: 's1', startedAt: 1000 },
      { tool: 'ctx_run', action: 'execute', args: 'command="sleep 5"', session: 's2', startedAt: 2000 },
    ]);
    assert.equal(f.running, 3);
    search();
    unnamed();
    assert.deepEqual(
      f.inFlight().map((c) => c.tool),
      ['ctx_run'],
    );
    run();
    assert.deepEqual(f.inFlight(), []);
  });
});
