import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TextIndexReader } from '../../src/textindex/types.ts';
import { watchProject } from '../../src/workspace/watch.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

function logger() {
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  return { events, log: (event: string, fields?: Record<string, unknown>) => void events.push({ event, fields }) };
}

/** Resolves once `batches` holds every path wanted; rejects after a generous deadline. */
function waitFor(batches: string[][], wanted: string[], ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const seen = new Set(batches.flat());
      if (wanted.every((w) => seen.has(w))) return resolve();
      if (Date.now() - started > ms) return reject(new Error(`not reported: ${wanted.join(', ')}; seen: ${[...seen].join(', ')}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

describe('the project watch', () => {
  let root: string;
  before(() => {
    root = fixture({ 'src/a.ts': 'a\n', 'dist/out.js': 'x\n', '.git/HEAD': 'ref\n', 'data/log.txt': 'l\n' });
  });
  after(() => removeDir(root));

  it('reports changed files in batches, leaving out excluded folders, .git and the data folder', async () => {
    const batches: string[][] = [];
    const log = logger();
    const w = await watchProject({ runtime, root, excludeDirs: ['dist'], ignore: [path.join(root, 'data')], logger: log, debounceMs: 50 }, (paths) => batches.push(paths));
    try {
      assert.equal(w.watching, true);
      for (const f of ['dist/out.js', '.git/HEAD', 'data/log.txt']) writeFileSync(path.join(root, f), 'changed\n');
      writeFileSync(path.join(root, 'src/a.ts'), 'a1\n');
      writeFileSync(path.join(root, 'src/b.ts'), 'b\n');
      await waitFor(batches, ['src/a.ts', 'src/b.ts']);
      assert.deepEqual(batches.flat().filter((p) => !p.startsWith('src/')), []);
      assert.ok(log.events.some((e) => e.event === 'file_watch_started'));
    } finally {
      w.close();
    }
    assert.equal(w.watching, false);
  });

  it('has reported, once settled, what was written before: a file, and a new folder with files in it (no waiting out the quiet time)', async () => {
    const batches: string[][] = [];
    // A quiet time far longer than the test: only settled() can send the batch out.
    const w = await watchProject({ runtime, root, excludeDirs: ['dist'], logger: logger(), debounceMs: 60_000 }, (paths) => batches.push(paths));
    try {
      for (let round = 0; round < 5; round++) {
        writeFileSync(path.join(root, `src/now${round}.ts`), `n${round}\n`);
        mkdirSync(path.join(root, `src/fresh${round}`));
        writeFileSync(path.join(root, `src/fresh${round}/x.ts`), 'x\n');
        await w.settled();
        const seen = new Set(batches.flat());
        assert.ok(seen.has(`src/now${round}.ts`) && seen.has(`src/fresh${round}/x.ts`), `round ${round}: ${[...seen].join(', ')}`);
      }
    } finally {
      w.close();
    }
  });

  it('says in the log when the watch cannot start, and reports nothing', async () => {
    const log = logger();
    const failing = { watch: () => Promise.reject(Object.assign(new Error('inotify watch limit reached'), { code: 'ENOSPC' })) };
    const w = await watchProject({ runtime: failing, root, excludeDirs: [], logger: log }, () => assert.fail('no changes expected'));
    assert.equal(w.watching, false);
    const entry = log.events.find((e) => e.event === 'file_watch_unavailable');
    assert.match(String(entry?.fields?.error), /limit reached/);
    assert.match(String(entry?.fields?.fallback), /refresh/);
    w.close();
  });
});

describe('a search after an edit, with an index that had ruled the file out', () => {
  let t: TestApp;
  let root: string;
  before(() => {
    root = fixture({ 'src/a.ts': 'export const before = 1;\n', 'src/b.ts': 'export const other = 2;\n' });
    mkdirSync(path.join(root, 'src/empty'));
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('finds the edit: the watch tells the index the file changed', async () => {
    // An index built before the edit: "fresh_marker" is in no file, so every file is ruled out
    // until the file is reported touched.
    const touched = new Set<string>();
    const index: TextIndexReader = {
      async candidates() {
        return { files: [...touched].sort(), ruledOut: 2 - touched.size };
      },
      touched(paths) {
        for (const p of paths) touched.add(p);
      },
      status: () => ({ state: 'ready', indexed: 2, total: 2, bytes: 10 }),
    };
    t.app.textIndex = index;
    const batches: string[][] = [];
    const w = await watchProject({ runtime, root, excludeDirs: t.app.config.scan.excludeDirs, logger: t.app.logger, debounceMs: 20 }, (paths) => {
      index.touched(paths);
      batches.push(paths);
    });
    try {
      const before = await t.call('search', { pattern: 'fresh_marker' });
      assert.match(before.content[0]!.text, /^no match: no line holds "fresh_marker"/);
      writeFileSync(path.join(root, 'src/a.ts'), 'export const fresh_marker = 1;\n');
      await waitFor(batches, ['src/a.ts']);
      const after = await t.call('search', { pattern: 'fresh_marker' });
      assert.match(after.content[0]!.text, /src\/a\.ts\n {2}1: export const fresh_marker = 1;/);
    } finally {
      w.close();
      t.app.textIndex = undefined;
    }
  });
});
