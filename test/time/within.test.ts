import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settlesWithin } from '../../src/time/within.ts';

describe('settlesWithin', () => {
  it('says whether a promise settled before the timer, counting a rejection as settled', async () => {
    assert.equal(await settlesWithin(Promise.resolve(1), 1000), true);
    assert.equal(await settlesWithin(Promise.reject(new Error('x')), 1000), true);
    assert.equal(await settlesWithin(new Promise(() => {}), 20), false);
  });

  it('stops waiting when the signal aborts, also when it already has', async () => {
    // A promise that never settles: a pending sleep would keep the test's process alive after it.
    const never = new Promise(() => {});
    const controller = new AbortController();
    const waiting = settlesWithin(never, 5000, controller.signal);
    controller.abort();
    assert.equal(await waiting, false);
    assert.equal(await settlesWithin(never, 5000, AbortSignal.abort()), false);
  });
});
