import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFloodState, FLOOD_WINDOW_MS, floodCheck, floodCompleted } from '../../src/kb/flood-guard.ts';

describe('search flood guard', () => {
  it('throttles after 4 completed searches and refuses the 9th attempt in 60 s', () => {
    const s = createFloodState();
    const kinds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const v = floodCheck(s, 1000 + i);
      kinds.push(v.kind);
      if (v.kind !== 'reject') floodCompleted(s, 1000 + i);
    }
    assert.deepEqual(kinds, ['ok', 'ok', 'ok', 'ok', 'throttle', 'throttle', 'throttle', 'throttle', 'reject', 'reject']);
  });

  it('forgets searches older than the window', () => {
    const s = createFloodState();
    for (let i = 0; i < 8; i++) {
      floodCheck(s, i);
      floodCompleted(s, i);
    }
    assert.equal(floodCheck(s, 10).kind, 'reject');
    assert.equal(floodCheck(s, FLOOD_WINDOW_MS + 20).kind, 'ok');
  });

  it('says when to try again', () => {
    const s = createFloodState();
    let v = floodCheck(s, 0);
    for (let i = 1; i < 9; i++) v = floodCheck(s, i * 1000);
    assert.equal(v.kind, 'reject');
    assert.equal(v.kind === 'reject' && v.retryAfterMs, FLOOD_WINDOW_MS - 8000);
  });
});
