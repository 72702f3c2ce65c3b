import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

/** A small seeded generator: the same long lines on every run, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FILLER = 'abcdefghijklmnopqrstuvwxyz0123456789,;:=()[]{}"/.-+';

/** Lines of 5–60 KB of minified-looking text, each with markers at random places (one at its very end). */
function longLines(seed: number, count: number, prefix: string): { text: string; markers: string[] } {
  const next = random(seed);
  const markers: string[] = [];
  const lines: string[] = [];
  for (let l = 0; l < count; l++) {
    const size = 5_000 + Math.floor(next() * 55_000);
    let line = '';
    while (line.length < size) {
      let run = '';
      const n = 20 + Math.floor(next() * 400);
      for (let i = 0; i < n; i++) run += FILLER[Math.floor(next() * FILLER.length)];
      line += run;
      if (next() < 0.02) {
        const marker = `${prefix}${l}x${markers.length}q${Math.floor(next() * 1e9).toString(36)}`;
        markers.push(marker);
        line += ` ${marker} `;
      }
    }
    const last = `${prefix}${l}end${Math.floor(next() * 1e9).toString(36)}`;
    markers.push(last);
    lines.push(`${line} ${last}`);
  }
  return { text: `${lines.join('\n')}\n`, markers };
}

describe('the knowledge base keeps every byte of long lines', () => {
  let root: string;
  let t: TestApp;
  const inFile = longLines(23, 12, 'filemark');
  const inOutput = longLines(5, 8, 'outmark');
  const call = async (tool: string, args: Record<string, unknown>) => textOf(await t.call(tool, args, createClientSession(crypto.randomUUID())));
  /** Whether a search for the marker has a hit whose snippet holds it (not the query echoed, not a corrected query). */
  const found = async (marker: string, source?: string) => {
    const r = await t.call('ctx_kb', { action: 'search', query: marker, ...(source ? { source } : {}) }, createClientSession(crypto.randomUUID()));
    const data = r.structuredContent as { hits: { snippet: string }[]; corrected?: string };
    return !data.corrected && data.hits.some((h) => h.snippet.includes(marker));
  };

  before(() => {
    root = fixture({ 'data/minified.txt': inFile.text, 'data/output.txt': inOutput.text });
    t = testApp(root);
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('finds every marker of an indexed file whose lines run to tens of kilobytes, the one at each line end too', async () => {
    const indexed = await call('ctx_kb', { action: 'index', path: 'data/minified.txt' });
    assert.match(indexed, /indexed/, indexed);
    const missing: string[] = [];
    for (const marker of inFile.markers) {
      if (!(await found(marker))) missing.push(marker);
    }
    assert.deepEqual(missing, [], `${missing.length} of ${inFile.markers.length} markers not found`);
  });

  it('finds every marker of ctx_run output that the reply says to search the rest of', async () => {
    const ran = await call('ctx_run', { action: 'execute', argv: ['cat', 'data/output.txt'] });
    const source = /"source":("[^"]+")/.exec(ran)?.[1];
    assert.ok(source, `the output was indexed and the reply names its source:\n${ran.slice(0, 600)}`);
    const missing: string[] = [];
    for (const marker of inOutput.markers) {
      if (!(await found(marker, JSON.parse(source)))) missing.push(marker);
    }
    assert.deepEqual(missing, [], `${missing.length} of ${inOutput.markers.length} markers not found`);
  });
});
