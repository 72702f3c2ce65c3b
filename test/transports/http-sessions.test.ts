import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSessionTable, type SessionEndReason } from '../../src/transports/http-sessions.ts';

const MINUTE = 60_000;

function table(maxSessions = 3) {
  let clock = 0;
  const ended: [string, SessionEndReason][] = [];
  const closed: string[] = [];
  const sessions = createSessionTable<string>({
    maxSessions,
    idleMs: 30 * MINUTE,
    unusedGraceMs: MINUTE,
    now: () => clock,
    close: async (value) => void closed.push(value),
    onEnd: (id, reason) => void ended.push([id, reason]),
  });
  return {
    sessions,
    ended,
    closed,
    advance(ms: number) {
      clock += ms;
    },
    /** A session whose initialize request has finished. */
    open(id: string) {
      sessions.create(id, id).release();
    },
    /** One finished request in the session. */
    use(id: string) {
      sessions.touch(id)!.release();
    },
  };
}

describe('HTTP session table', () => {
  it('ends a session that was initialized and never used once the grace has passed', () => {
    const t = table();
    t.open('bare');
    t.open('used');
    t.use('used');
    t.advance(MINUTE - 1);
    t.sessions.evictStale();
    assert.equal(t.sessions.size, 2, 'still within the grace');
    t.advance(2);
    t.sessions.evictStale();
    assert.deepEqual(t.ended, [['bare', 'unused']]);
    assert.deepEqual(t.closed, ['bare']);
    assert.equal(t.sessions.get('used'), 'used');
  });

  it('ends a used session after 30 idle minutes, counted from its last request', () => {
    const t = table();
    t.open('a');
    t.use('a');
    t.advance(20 * MINUTE);
    t.use('a');
    t.advance(20 * MINUTE);
    t.sessions.evictStale();
    assert.equal(t.sessions.size, 1);
    t.advance(11 * MINUTE);
    t.sessions.evictStale();
    assert.deepEqual(t.ended, [['a', 'idle']]);
  });

  it('never ends a session while a request or stream is open, however long', () => {
    const t = table();
    t.open('streaming');
    const stream = t.sessions.touch('streaming')!;
    const initializing = t.sessions.create('initializing', 'initializing');
    t.advance(60 * MINUTE);
    t.sessions.evictStale();
    assert.equal(t.sessions.size, 2);
    stream.release();
    initializing.release();
    t.sessions.evictStale();
    assert.equal(t.sessions.size, 1, 'the never-used one goes once its initialize has ended');
    t.advance(30 * MINUTE + 1);
    t.sessions.evictStale();
    assert.equal(t.sessions.size, 0, 'idle time counts from the end of the stream');
  });

  it('ends a session whose client hung up on its stream once the client has had a minute to come back', () => {
    const t = table();
    for (const id of ['gone', 'back']) {
      t.open(id);
      t.sessions.touch(id)!.release('hung up');
    }
    assert.deepEqual(
      t.sessions.list().map((s) => [s.id, s.state, s.endsAt]),
      [
        ['gone', 'gone', MINUTE],
        ['back', 'gone', MINUTE],
      ],
    );
    t.advance(MINUTE / 2);
    const stream = t.sessions.touch('back')!;
    assert.equal(t.sessions.list()[1]!.state, 'active', 'a client that reconnects is back');
    t.advance(MINUTE);
    t.sessions.evictStale();
    assert.deepEqual(t.ended, [['gone', 'gone']]);
    stream.release();
    assert.deepEqual(
      t.sessions.list().map((s) => [s.id, s.state, s.endsAt]),
      [['back', 'idle', 1.5 * MINUTE + 30 * MINUTE]],
      'a stream that ended on its own leaves the session idle, not gone',
    );
  });

  it('lists each session with what it is doing: active while a request or stream is open, else idle or never used', () => {
    const t = table();
    t.open('bare');
    t.open('used');
    t.use('used');
    const request = t.sessions.touch('used')!;
    assert.deepEqual(
      t.sessions.list().map((s) => [s.id, s.state, s.busy]),
      [
        ['bare', 'unused', 0],
        ['used', 'active', 1],
      ],
    );
    assert.equal(t.sessions.list()[1]!.endsAt, undefined, 'an active session has no end in sight');
    request.release();
    assert.equal(t.sessions.list()[1]!.state, 'idle');
  });

  it('makes room by ending the least recently used session that is not busy', () => {
    const t = table(3);
    for (const id of ['a', 'b', 'c']) {
      t.open(id);
      t.use(id);
      t.advance(1000);
    }
    const busy = t.sessions.touch('a')!;
    t.use('b');
    assert.equal(t.sessions.makeRoom(), true);
    assert.deepEqual(t.ended, [['c', 'evicted']], "'a' is older but busy; 'c' is the least recently used of the rest");
    t.open('d');
    t.advance(1000);
    busy.release();
    assert.equal(t.sessions.makeRoom(), true);
    assert.deepEqual(t.ended.at(-1), ['b', 'evicted'], "'a' was in use until just now");
  });

  it('refuses to make room only when every session is busy', () => {
    const t = table(2);
    const a = t.sessions.create('a', 'a');
    const b = t.sessions.create('b', 'b');
    assert.equal(t.sessions.makeRoom(), false);
    assert.equal(t.sessions.size, 2);
    b.release();
    assert.equal(t.sessions.makeRoom(), true);
    assert.equal(t.sessions.get('a'), 'a');
    a.release();
  });

  it('closes every session at shutdown and forgets deleted ones', async () => {
    const t = table();
    t.open('a');
    t.open('b');
    await t.sessions.delete('a', 'deleted');
    assert.equal(t.sessions.touch('a'), undefined);
    await t.sessions.closeAll();
    assert.deepEqual(t.ended, [['a', 'deleted'], ['b', 'shutdown']]);
    assert.equal(t.sessions.size, 0);
  });
});
