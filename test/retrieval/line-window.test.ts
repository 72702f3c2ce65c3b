import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readLineWindow, type WindowRequest, windowOfLines } from '../../src/retrieval/line-window.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['a', 'word ', 'é', '日本', '😀', '\t', 'x'.repeat(50), '\r\n', '\n', '\n', '\r'];

describe('a window of lines read a chunk at a time', () => {
  const dir = fixture();
  after(() => removeDir(dir));

  it('holds the same characters as the lines read whole, whatever the chunk size cuts through (CRLF, multi-byte characters, long lines)', async () => {
    const next = random(7);
    for (let round = 0; round < 60; round++) {
      let text = '';
      const parts = Math.floor(next() * 200);
      for (let i = 0; i < parts; i++) text += PIECES[Math.floor(next() * PIECES.length)];
      const file = path.join(dir, `f${round}.txt`);
      runtime.fs.writeFileSync(file, text);
      const all = text.split(/\r?\n/);
      if (all.length && all[all.length - 1] === '') all.pop();
      const start = 1 + Math.floor(next() * Math.max(1, all.length));
      const end = start + Math.floor(next() * 5);
      const oneLine = start === end && next() < 0.5;
      const req: WindowRequest = { start, end, fromColumn: oneLine ? 1 + Math.floor(next() * 20) : 1, ...(oneLine ? { toColumn: 20 + Math.floor(next() * 40) } : {}), maxChars: Math.floor(next() * 120) };
      const expected = windowOfLines(all, req);
      for (const chunk of [1, 3, 7, 64, 4096]) {
        const got = await readLineWindow(runtime.fs.files, file, req, chunk);
        assert.deepEqual(got, expected, `round ${round}, chunk ${chunk}, ${JSON.stringify(req)}, text ${JSON.stringify(text)}`);
      }
    }
  });
});
