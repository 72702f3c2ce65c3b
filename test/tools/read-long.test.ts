import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Runtime } from '../../src/runtime/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

const CPT = 3.5;
/** 200 KB on one line, every part of it different (so a wrong column shows). */
const LINE = Array.from({ length: 40_000 }, (_, i) => `w${i}`).join(',').slice(0, 200 * 1024);

/** The next part a reply's marker names: `read <file>:<line>:<from>-<to>`. */
function nextPart(text: string): string | undefined {
  return /read (\S+:\d+:\d+-\d+)\)?/.exec(text)?.[1];
}

describe('read within its budget on long lines', () => {
  let root: string;
  let t: TestApp;
  before(() => {
    root = fixture({ 'one-line.min.js': `${LINE}\n` });
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('answers a 200 KB single line with max_tokens 100 within the budget, with a marker naming the next part', async () => {
    const r = await t.call('read', { target: 'one-line.min.js', max_tokens: 100 });
    const text = textOf(r);
    assert.ok(!r.isError, text);
    assert.ok(text.length <= 100 * CPT, `${text.length} chars for a budget of 100 tokens`);
    assert.match(text, /more chars of line 1 \(204800 chars long\): read one-line\.min\.js:1:\d+-\d+\)$/);
    const next = nextPart(text);
    assert.ok(next?.startsWith('one-line.min.js:1:'), text);
  });

  it('gets all of the line by following the markers, each part within its budget and continuing where the last ended', async () => {
    let target: string | undefined = 'one-line.min.js';
    let got = '';
    let calls = 0;
    while (target && calls < 20) {
      const text = textOf(await t.call('read', { target, max_tokens: 24_000 }));
      assert.ok(text.length <= 24_000 * CPT, `${text.length} chars`);
      const head = /(^|\n)one-line\.min\.js:1:(\d+)-(\d+)\n/.exec(text);
      assert.ok(head, text.slice(0, 300));
      assert.equal(Number(head[2]), got.length + 1, 'each part starts where the last ended');
      const body = text.slice(head.index + head[0].length).replace(/\n\(… [^\n]*\)$/, '');
      got += body;
      target = nextPart(text.slice(head.index + head[0].length + body.length));
      calls++;
    }
    assert.equal(got.length, LINE.length);
    assert.ok(got === LINE, "the parts put together are the line");
  });

  it('reads any column range of the line, and says what is wrong with one past its end', async () => {
    const text = textOf(await t.call('read', { target: `one-line.min.js:1:${LINE.length - 99}-${LINE.length}`, max_tokens: 100 }));
    assert.equal(text, `one-line.min.js:1:${LINE.length - 99}-${LINE.length}\n${LINE.slice(-100)}`);
    const wrong = await t.call('read', { target: `one-line.min.js:1:${LINE.length + 5}` });
    assert.ok(wrong.isError);
    assert.match(textOf(wrong), /has 204800 characters; column 204805 does not exist/);
  });
});

describe('read of a big file while other calls come in', () => {
  let root: string;
  let t: TestApp;
  let started: () => void = () => undefined;
  const bigStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  before(() => {
    // 24 MB of log lines: far more than one chunk.
    const line = `${'2026-12-01T10:00:00Z INFO request served in 12 ms from cache '.repeat(2)}\n`;
    root = fixture({ 'big.log': line.repeat(Math.ceil((24 * 1024 * 1024) / line.length)), 'small.txt': 'hello\n' });
    const big = path.join(root, 'big.log');
    // Says when the big file's bytes start arriving, however they are read (whole or in chunks).
    const fs = runtime.fs;
    const watchedFds = new Set<number>();
    const watched: Runtime = {
      ...runtime,
      fs: {
        ...fs,
        readTextFile: async (p) => {
          const text = await fs.readTextFile(p);
          if (p === big) started();
          return text;
        },
        files: {
          ...fs.files,
          open: (p, flags, mode) => {
            const fd = fs.files.open(p, flags, mode);
            if (p === big) watchedFds.add(fd);
            return fd;
          },
          openRead: (p) => {
            const opened = fs.files.openRead(p);
            if (p === big) watchedFds.add(opened.fd);
            return opened;
          },
          read: (fd, into, position) => {
            const n = fs.files.read(fd, into, position);
            if (watchedFds.has(fd)) started();
            return n;
          },
          close: (fd) => {
            watchedFds.delete(fd);
            fs.files.close(fd);
          },
        },
      },
    };
    t = testApp(root, {}, {}, watched);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  // Which of the two ends first is a matter of timing on a loaded machine: the event loop's lag while
  // a big file is read is measured by scripts/bench-read-big.ts, not asserted here.
  it('answers a small read that comes in while the big file is being read, and the big read within its budget', async () => {
    const bigRead = t.call('read', { target: 'big.log', max_tokens: 200 });
    await bigStarted;
    const small = await t.call('read', { target: 'small.txt' });
    const big = await bigRead;
    assert.equal(textOf(small), 'small.txt:1-1\nhello');
    assert.ok(!big.isError, textOf(big));
    assert.ok(textOf(big).length <= 200 * CPT);
  });
});
