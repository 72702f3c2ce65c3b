import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIRST_PASS_DELAY_MS } from '../../src/code/index.ts';
import { eventually } from '../helpers/process.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

// The first search is answered by a scan; the code index's first pass (a walk and a read of the whole
// project) starts only once the calls being answered are done, so it does not slow that answer down.
describe('background work and the calls being answered', () => {
  let t: TestApp;
  let root: string;
  before(() => {
    root = fixture({ 'src/a.ts': 'export function alpha() {}\n', 'src/b.ts': 'alpha();\n' });
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('counts tool calls while they run, each with its tool, session and arguments', async () => {
    assert.equal(t.app.foreground.running, 0);
    const call = t.call('search', { pattern: 'alpha', scope: 'src' });
    assert.equal(t.app.foreground.running, 1);
    assert.deepEqual(
      t.app.foreground.inFlight().map(({ startedAt, ...c }) => c),
      [{ tool: 'search', args: 'pattern="alpha" scope="src"', session: 'test' }],
    );
    await call;
    assert.equal(t.app.foreground.running, 0);
    assert.deepEqual(t.app.foreground.inFlight(), []);
  });

  it('starts the first pass of the code index only when no call is being answered', async () => {
    // An app of its own: the call above asked for a first pass too, which may run once that call
    // ended (a first call also loads the tool's module, which on a busy machine can outlast the delay).
    const fresh = testApp(root, { graphBackend: 'none' });
    try {
      const slowCall = fresh.app.foreground.begin();
      await fresh.call('search', { pattern: 'alpha' });
      await new Promise((r) => setTimeout(r, FIRST_PASS_DELAY_MS + 500));
      assert.equal(fresh.app.code.status().total, 0, 'no pass while a call runs');
      slowCall();
      assert.ok(await eventually(() => fresh.app.code.status().total === 2), 'the pass starts once it has ended');
    } finally {
      await fresh.close();
    }
  });
});
