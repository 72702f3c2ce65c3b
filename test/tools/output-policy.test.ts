import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pruneSpool, spoolOutput } from '../../src/kb/spool.ts';
import { looksBinary } from '../../src/tools/context/output-policy.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

async function run(app: TestApp, args: Record<string, unknown>) {
  const r = await app.call('ctx_run', { action: 'execute', ...args });
  return { text: textOf(r), data: (r.structuredContent ?? {}) as Record<string, unknown>, isError: r.isError };
}

describe('output policy', () => {
  let root: string;
  let t: TestApp;
  before(() => {
    root = fixture({ 'a-file': 'not a folder\n' });
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('says how much a huge output dropped from the middle, not only what it kept', async () => {
    const { text, data } = await run(t, { command: 'head -c 30000000 /dev/zero | tr "\\0" "x" | fold -w 100; echo THE-END' });
    assert.equal(data.indexed, true, text);
    assert.match(text, /kept of 30\d{6} bytes written — ~2\d\.\d MB dropped from the middle/);
    assert.ok(Number(data.producedBytes) > 30_000_000, `producedBytes ${data.producedBytes}`);
    assert.match(text, /THE-END/);
  });

  it('neither shows nor indexes binary output, and says how to look at it', async () => {
    const { text, data } = await run(t, { command: 'head -c 300000 /dev/urandom' });
    assert.equal(data.binary, true, text);
    assert.equal(data.indexed, false);
    assert.ok(text.length < 600, `reply is short: ${text.length}`);
    assert.match(text, /look binary/);
    const stats = textOf(await t.call('ctx_kb', { action: 'search', query: 'zzqx' }));
    assert.doesNotMatch(stats, /execute-/);
  });

  it('keeps small binary output out of the reply too', async () => {
    assert.equal(looksBinary('plain text\twith tabs\nand lines\n'), false);
    assert.equal(looksBinary('\u001b[31mred\u001b[0m text'), false);
    assert.equal(looksBinary('\u0000\u0001\u0002\ufffd\ufffd\ufffdab'), true);
    const { text, data } = await run(t, { command: 'head -c 2000 /dev/urandom' });
    assert.equal(data.binary, true, text);
  });

  it('never loses a big output when the knowledge base cannot take it: head, tail and a spool file', async () => {
    // The database path lies under a file, so the knowledge base cannot be opened at all.
    const broken = testApp(root, {}, { CTXGATE_DB: path.join(root, 'a-file', 'context.db') });
    try {
      const { text, data, isError } = await run(broken, { command: 'seq 1 40000; echo LAST-LINE' });
      assert.equal(isError, undefined, text);
      assert.equal(data.indexed, false);
      assert.match(text, /NOT indexed: the knowledge base could not take it \(/);
      assert.match(text, /head:\nstdout:\n1\n2\n3/);
      assert.match(text, /LAST-LINE/);
      const spool = String(data.spoolFile);
      assert.ok(spool.startsWith(path.join(broken.app.dataDir, 'spool')), spool);
      assert.ok(text.includes(spool), 'the reply names the spool file');
      const kept = readFileSync(spool, 'utf8');
      assert.match(kept, /^stdout:\n1\n2\n/);
      assert.match(kept, /\n39999\n40000\nLAST-LINE$/);
      assert.equal(statSync(spool).mode & 0o777, 0o600);
    } finally {
      await broken.close();
    }
  });

  it('keeps the spool under its size and age bounds, oldest first', () => {
    const dir = fixture();
    try {
      const now = Date.now();
      const a = spoolOutput(runtime.fs, dir, 'first', 'a'.repeat(400), { maxBytes: 1000, now })!;
      const b = spoolOutput(runtime.fs, dir, 'second', 'b'.repeat(400), { maxBytes: 1000, now })!;
      utimesSync(a.path, new Date(now - 2000), new Date(now - 2000));
      const c = spoolOutput(runtime.fs, dir, 'third', 'c'.repeat(400), { maxBytes: 1000, now })!;
      assert.equal(existsSync(a.path), false, 'the oldest made room');
      assert.ok(existsSync(b.path) && existsSync(c.path));
      assert.equal(spoolOutput(runtime.fs, dir, 'huge', 'd'.repeat(2000), { maxBytes: 1000, now }), undefined, 'bigger than the bound');
      writeFileSync(path.join(dir, 'old.txt'), 'x');
      utimesSync(path.join(dir, 'old.txt'), new Date(now - 90_000_000), new Date(now - 90_000_000));
      pruneSpool(runtime.fs, dir, { now });
      assert.deepEqual(readdirSync(dir).sort(), [path.basename(b.path), path.basename(c.path)].sort());
    } finally {
      removeDir(dir);
    }
  });
});
