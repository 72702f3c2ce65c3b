import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { settlesWithin, settlesWithinLoopTime } from '../../src/time/within.ts';

/** Keeps the event loop from doing anything else for `ms`. */
function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

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

describe('settlesWithinLoopTime', () => {
  it('does not give up on I/O that a busy loop could not deliver yet', async () => {
    // A file read needs several turns of the loop (open, stat, read, close). The loop is then kept busy
    // far past the wait's limit: that time was not the read's to use.
    const read = readFile(new URL(import.meta.url));
    const waiting = settlesWithinLoopTime(read, 1000);
    blockLoop(1500);
    assert.equal(await waiting, true);
  });

  it('gives up after its time when the loop is free and nothing comes, and counts a rejection as settled', async () => {
    const started = Date.now();
    assert.equal(await settlesWithinLoopTime(new Promise(() => {}), 60), false);
    assert.ok(Date.now() - started >= 50, `waited ${Date.now() - started} ms`);
    assert.equal(await settlesWithinLoopTime(Promise.reject(new Error('x')), 60), true);
  });
});
