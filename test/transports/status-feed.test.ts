import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStatusFeed } from '../../src/transports/status-feed.ts';
import { eventually } from '../helpers/process.ts';

describe('status feed', () => {
  it('renders once per tick for every open stream, and each stream sees only changes', async () => {
    let renders = 0;
    // Every render differs until the fourth, then the body stays the same.
    const feed = createStatusFeed(async () => `body ${Math.min(++renders, 4)}`, 5);
    const seen: string[][] = [[], [], []];
    const stops = seen.map((list) => feed.subscribe((b) => list.push(b)));
    try {
      assert.ok(await eventually(() => renders >= 8), 'the ticker ran');
      // One shared render per tick: the three streams were handed the very same bodies, which they
      // could not be if each stream rendered for itself (every render before the fourth is unique).
      assert.deepEqual(seen[1], seen[0]);
      assert.deepEqual(seen[2], seen[0]);
      assert.deepEqual(seen[0], ['body 1', 'body 2', 'body 3', 'body 4'], 'an unchanged body is not sent again');
    } finally {
      for (const stop of stops) stop();
    }
    const after = renders;
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(renders, after, 'the ticker stops when nobody listens');
    assert.equal(feed.size(), 0);
  });

  it('gives a stream that joins late the current body at once, then the changes', async () => {
    let n = 0;
    let body = 'a';
    const feed = createStatusFeed(async () => {
      n++;
      return body;
    }, 5);
    const first: string[] = [];
    const stopFirst = feed.subscribe((b) => first.push(b));
    assert.ok(await eventually(() => first.length === 1));
    const late: string[] = [];
    const stopLate = feed.subscribe((b) => late.push(b));
    assert.ok(await eventually(() => late.length === 1));
    assert.deepEqual(late, ['a']);
    body = 'b';
    assert.ok(await eventually(() => late.length === 2 && first.length === 2));
    assert.deepEqual([first, late], [['a', 'b'], ['a', 'b']]);
    stopFirst();
    stopLate();
    feed.close();
    assert.ok(n > 0);
  });

  it('keeps ticking after a render fails', async () => {
    let n = 0;
    const feed = createStatusFeed(async () => {
      if (++n === 1) throw new Error('snapshot failed');
      return 'ok';
    }, 5);
    const got: string[] = [];
    const stop = feed.subscribe((b) => got.push(b));
    assert.ok(await eventually(() => got.length === 1));
    assert.deepEqual(got, ['ok']);
    stop();
    feed.close();
  });
});
