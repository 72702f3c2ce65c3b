import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClientSession } from '../../src/app/context.ts';
import { unreadIn } from '../../src/retrieval/estimate.ts';
import { nextSampleStep, scan } from '../../src/retrieval/fileio.ts';
import type { TextIndexReader } from '../../src/textindex/types.ts';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

// Issue 14: a refusal on a common term costs what an answer on a rare one does. With the text index
// naming many candidates, the gate reads a sample of them until it proves the refusal (more matching
// files and more hits than it allows) and estimates the rest; whenever the answer is given instead
// (force, the deadlock cap, a limit the sample cannot prove broken) every candidate is read.
const FILES: Record<string, string> = {};
// 600 files hold "widget": 400 under core/ (3 hits each), 200 under plugins/ (1 each): 1,400 hits.
for (let i = 0; i < 400; i++) FILES[`core/m${i}.c`] = `int widget_${i} = 1;\nwidget_init(${i});\n/* widget */\n`;
for (let i = 0; i < 200; i++) FILES[`plugins/p${i}.c`] = `use(widget);\nint other_${i};\n`;
// 300 candidates that do not (a file-level index names files holding the trigrams anywhere).
for (let i = 0; i < 300; i++) FILES[`docs/d${i}.txt`] = `wid get ${i}\n`;
// "gizmo": 20 files × 10 hits, among the same 900 candidates: too many hits, but not too many files.
for (let i = 0; i < 20; i++) FILES[`core/m${i * 7}.c`] += 'gizmo\n'.repeat(10);
// "sprocket": one hit in every third candidate, 300 in all — proving 120 hits reads ~450 of the 900,
// but a third of the first 128 matching is beyond doubt at least ~190 files, one hit each.
for (const [i, file] of Object.keys(FILES).sort().entries()) if (i % 3 === 0) FILES[file] += 'sprocket\n';

/** An index that names every file: the sample must find the matching ones itself. */
function everythingIndex(): TextIndexReader & { asked: number } {
  const all = Object.keys(FILES).sort();
  const index = {
    asked: 0,
    async candidates() {
      index.asked++;
      return { files: all, ruledOut: 0 };
    },
    touched() {},
    status: () => ({ state: 'ready' as const, indexed: all.length, total: all.length, bytes: 0 }),
  };
  return index;
}

describe('a refusal proved from a sample of the index candidates', () => {
  let t: TestApp;
  let root: string;
  let index: ReturnType<typeof everythingIndex>;
  before(() => {
    root = fixture(FILES);
    t = testApp(root, { graphBackend: 'none' });
    index = everythingIndex();
    t.app.textIndex = index;
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  const fresh = () => createClientSession(crypto.randomUUID());

  it('refuses a common term from part of the candidates, with estimated totals and distribution marked as such', async () => {
    const r = await t.call('search', { pattern: 'widget' }, fresh());
    const s = r.structuredContent as { status: string; reason: string; summary: { totalFound: number; files: number }; estimate?: { read: number; of: number }; distribution: { dir: string; hits: number }[] };
    assert.equal(s.status, 'refine');
    assert.equal(s.reason, 'compound');
    assert.ok(s.estimate, 'the counts are estimates');
    assert.equal(s.estimate.of, 900);
    assert.ok(s.estimate.read >= 128 && s.estimate.read < 900, `read ${s.estimate.read}`);
    // A uniform sample: the estimate is near the truth (1,400 hits in 600 files).
    assert.ok(Math.abs(s.summary.totalFound - 1400) < 1400 * 0.3, `hits ${s.summary.totalFound}`);
    assert.ok(Math.abs(s.summary.files - 600) < 600 * 0.3, `files ${s.summary.files}`);
    // Folder by folder: docs/ files were read and never matched, so docs/ is estimated below plugins/.
    const dirs = s.distribution.map((d) => d.dir);
    assert.deepEqual(dirs.slice(0, 2), ['core', 'plugins']);
    const docs = s.distribution.find((d) => d.dir === 'docs')?.hits ?? 0;
    assert.ok(docs < 100, `docs ${docs}`);
    assert.match(textOf(r), /^refused \(compound\): ~\d+ hits in ~\d+ files \(estimated: \d+ of 900 candidate files read\)/);
    // The same query gives the same numbers: the sample is fixed.
    const again = await t.call('search', { pattern: 'widget' }, fresh());
    assert.deepEqual(again.structuredContent, r.structuredContent);
  });

  it('stops at the first round when the share that matched puts both limits beyond doubt, before the files read prove it', async () => {
    const r = await t.call('search', { pattern: 'sprocket' }, fresh());
    const s = r.structuredContent as { status: string; reason: string; summary: { totalFound: number; files: number }; estimate?: { read: number; of: number } };
    assert.equal(s.status, 'refine');
    assert.equal(s.reason, 'compound');
    assert.deepEqual(s.estimate, { read: 128, of: 900 });
    assert.ok(Math.abs(s.summary.files - 300) < 300 * 0.3, `files ${s.summary.files}`);
    assert.ok(Math.abs(s.summary.totalFound - 300) < 300 * 0.3, `hits ${s.summary.totalFound}`);
    // Forced: every candidate read, the true counts.
    const forced = await t.call('search', { pattern: 'sprocket', force: true }, fresh());
    assert.equal((forced.structuredContent as { totalFound: number }).totalFound, 300);
  });

  it('counts the whole word again only when the sample leaves it possible that it passes', async () => {
    // 1 of core's 3 lines and plugins' one line hold "widget" whole: ~600 hits in ~600 files, far over both limits.
    const before = index.asked;
    const r = await t.call('search', { pattern: 'widget' }, fresh());
    assert.equal((r.structuredContent as { status: string }).status, 'refine');
    assert.equal(index.asked - before, 1, 'one scan: no whole-word count');
    assert.ok(!(r.structuredContent as { suggestions: { action: string }[] }).suggestions.some((s) => s.action === 'use_regex'));
  });

  it('asks the graph nothing for a refusal proved from a sample, and asks it for an answer', async () => {
    const real = t.app.graph;
    let asked = 0;
    t.app.graph = {
      ...real,
      definitions: (...args) => {
        asked++;
        return real.definitions(...args);
      },
    };
    try {
      assert.match(textOf(await t.call('search', { pattern: 'widget' }, fresh())), /estimated/);
      assert.equal(asked, 0);
      await t.call('search', { pattern: 'widget', force: true }, fresh());
      assert.ok(asked > 0);
    } finally {
      t.app.graph = real;
    }
  });

  it('neither reads nor estimates candidates the call excludes', async () => {
    const r = await t.call('search', { pattern: 'widget', exclude: ['plugins'] }, fresh());
    const s = r.structuredContent as { estimate?: { of: number }; distribution: { dir: string }[] };
    assert.equal(s.estimate?.of, 700);
    assert.ok(!s.distribution.some((d) => d.dir === 'plugins'), JSON.stringify(s.distribution));
  });

  it('reads every candidate when the gate will let the answer through: force, or the deadlock cap', async () => {
    const forced = await t.call('search', { pattern: 'widget', force: true }, fresh());
    assert.equal((forced.structuredContent as { totalFound: number }).totalFound, 1400);
    const session = fresh();
    for (let i = 0; i < 3; i++) assert.match(textOf(await t.call('search', { pattern: 'widget' }, session)), /estimated/);
    const opened = await t.call('search', { pattern: 'widget' }, session);
    assert.match(textOf(opened), /gate opened after repeated refusals/);
    assert.equal((opened.structuredContent as { totalFound: number }).totalFound, 1400);
  });

  it('reads every candidate when a call of the same session reaches the deadlock cap while this one samples', async () => {
    // Parallel calls of one session (an agent's parallel tool calls): both begin one refusal short of
    // the cap, both may sample; the one judged second is let through by the cap, and must answer in full.
    const session = fresh();
    for (let i = 0; i < 2; i++) assert.match(textOf(await t.call('search', { pattern: 'widget' }, session)), /estimated/);
    const both = await Promise.all([t.call('search', { pattern: 'widget' }, session), t.call('search', { pattern: 'widget' }, session)]);
    const opened = both.find((r) => /gate opened after repeated refusals/.test(textOf(r)));
    assert.ok(opened, both.map(textOf).join('\n---\n'));
    assert.equal((opened.structuredContent as { totalFound: number }).totalFound, 1400);
  });

  it('counts exactly when the sample cannot prove both limits broken', async () => {
    // 200 hits in 20 files: the file limit is never broken, so no sample proves a compound refusal.
    const gizmo = await t.call('search', { pattern: 'gizmo' }, fresh());
    const s = gizmo.structuredContent as { reason: string; summary: { totalFound: number; files: number }; estimate?: unknown };
    assert.equal(s.reason, 'volume');
    assert.equal(s.estimate, undefined);
    assert.deepEqual([s.summary.totalFound, s.summary.files], [200, 20]);
    // A caller's own hit cap above the total: only the file limit is broken.
    const wide = await t.call('search', { pattern: 'widget', max_hits: 2000 }, fresh());
    const w = wide.structuredContent as { reason: string; summary: { totalFound: number; files: number }; estimate?: unknown };
    assert.equal(w.reason, 'breadth');
    assert.equal(w.estimate, undefined);
    assert.deepEqual([w.summary.totalFound, w.summary.files], [1400, 600]);
  });

  it('without an index, counts every file but reads the lines of a sample only when the counts prove the refusal', async () => {
    const scope = { path: root, real: root, workdir: root, relative: '', exists: true };
    const req = { pattern: 'widget', literal: true, wordBoundary: false, ignoreCase: false, scope, exclude: [] };
    const deps = { ...t.app, textIndex: undefined };
    const proved = await scan(deps, { ...req, refuseAt: { files: 25, hits: 120 } });
    assert.equal(proved.sampled, true);
    assert.equal(proved.estimate, undefined);
    assert.deepEqual([proved.counts!.size, [...proved.counts!.values()].reduce((a, b) => a + b, 0)], [600, 1400]);
    const files = new Set(proved.hits.map((h) => h.file));
    assert.ok(files.size > 0 && files.size <= 48, `${files.size} files read for lines`);
    assert.ok([...files].some((f) => f.startsWith('plugins/')) && [...files].some((f) => f.startsWith('core/')), 'a sample spread over the folders');
    // Not proved (a caller's cap above the total): lines as before, from the first files in path order.
    const full = await scan(deps, { ...req, refuseAt: { files: 25, hits: 2000 } });
    assert.equal(full.sampled, undefined);
    assert.deepEqual(full, await scan(deps, req));
    t.app.textIndex = undefined;
    try {
      const gate = await t.call('search', { pattern: 'widget' }, fresh());
      assert.match(textOf(gate), /^refused \(compound\): 1400 hits in 600 files, /);
    } finally {
      t.app.textIndex = index;
    }
  });

  it('estimates nothing for locate, which judges definitions only', async () => {
    const r = await t.call('locate', { query: 'widget_init', kind: 'definition' }, fresh());
    assert.doesNotMatch(textOf(r), /estimated/);
  });
});

// The sample's whole-word share is judged with the word boundary the whole-word count scans with
// (ripgrep's: letters and digits of any script), not JavaScript's `\w`: `ügadget` holds no whole
// `gadget`, so a term found mostly inside such words may still pass as a whole word, and is counted.
describe('whole words in a refused sample, by the scan’s word boundary', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++) files[`sensors/s${i}.c`] = 'ügadget();\n/* ügadget */\nint ügadget_n;\n';
  files['sensors/whole.c'] = 'gadget();\n';
  let t: TestApp;
  let root: string;
  let asked = 0;
  before(() => {
    root = fixture(files);
    t = testApp(root, { graphBackend: 'none' });
    const all = Object.keys(files).sort();
    t.app.textIndex = {
      async candidates() {
        asked++;
        return { files: all, ruledOut: 0 };
      },
      touched() {},
      status: () => ({ state: 'ready' as const, indexed: all.length, total: all.length, bytes: 0 }),
    };
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  it('counts the whole word again when the sample’s matches sit inside longer words of another script', async () => {
    const r = await t.call('search', { pattern: 'gadget' }, createClientSession(crypto.randomUUID()));
    assert.equal((r.structuredContent as { status: string }).status, 'refine');
    assert.equal(asked, 2, 'the sampled scan, then the whole-word count');
  });
});

// Big candidates (generated tables, register headers) cost a sample most of its bytes: the index's
// catalogued sizes put them in the sample at a lower rate, and their unread ones are estimated apart.
describe('a sample that reads big candidates at a lower rate', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 900; i++) files[`src/f${i}.c`] = i % 3 ? 'int x;\n' : 'knob();\n';
  // 100 files the index says are 2 MB each, each with 5 hits (the sizes only order the sample).
  for (let i = 0; i < 100; i++) files[`gen/g${i}.h`] = 'knob\n'.repeat(5);
  const all = Object.keys(files).sort();
  const claimed = (f: string) => (f.startsWith('gen/') ? 2 << 20 : 100);
  let root: string;
  let t: TestApp;
  before(() => {
    root = fixture(files);
    t = testApp(root, { graphBackend: 'none' });
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  async function sample(sizeOf?: (f: string) => number) {
    const scope = { path: root, real: root, workdir: root, relative: '', exists: true };
    const textIndex: TextIndexReader = {
      async candidates() {
        return { files: all, ruledOut: 0, ...(sizeOf ? { sizeOf } : {}) };
      },
      touched() {},
      status: () => ({ state: 'ready' as const, indexed: all.length, total: all.length, bytes: 0 }),
    };
    const r = await scan({ ...t.app, textIndex }, { pattern: 'knob', literal: true, wordBoundary: false, ignoreCase: false, scope, exclude: [], refuseAt: { files: 25, hits: 120 } });
    assert.equal(r.sampled, true);
    return { read: r.estimate!.read, big: [...r.counts!.keys()].filter((f) => f.startsWith('gen/')).length, estimate: r.estimate! };
  }

  it('reads the big ones at the lower rate, and estimates the unread ones from the files read', async () => {
    const uniform = await sample();
    const sized = await sample(claimed);
    // √(100 B / 2 MB) is below 1/16: after k of the 900 small files, ⌊k / 900 × 100 / 16⌋ big ones.
    assert.ok(sized.big <= Math.floor((sized.read / 900) * (100 / 16)), `${sized.big} big of ${sized.read} read`);
    assert.ok(uniform.big >= uniform.read / 20, `a uniform sample reads about one in ten as big: ${uniform.big} of ${uniform.read}`);
    // Fewer than 16 big files read: the unread big ones take the rates of every file read — gen/'s,
    // all in one entry for the folder.
    const expectedBig = [...sized.estimate.expected].filter(([f]) => f.startsWith('gen/'));
    assert.deepEqual(expectedBig.map(([f]) => f), [unreadIn('gen')]);
    assert.ok(expectedBig[0]![1].hits > 0 && expectedBig[0]![1].files > 0 && expectedBig[0]![1].files <= 100 - sized.big);
  });
});

describe('the sample step after a round', () => {
  const rounds = Array.from({ length: 31 }, (_, i) => 128 + i * 64); // 128 … 2,048
  const refuseAt = { files: 50, hits: 100 };

  it('is the next one while nothing has matched, or when the rates say the next may prove it', () => {
    assert.equal(nextSampleStep(rounds, 0, 128, 0, 0, refuseAt), 1);
    assert.equal(nextSampleStep(rounds, 0, 128, 45, 95, refuseAt), 1);
  });

  it('jumps to where a sparse pattern would be proved, a quarter more for chance, at most four times what was read', () => {
    // 128 read, 30 files, 40 hits: 101 hits need ~323 files read, ~404 with the margin → the step at 448.
    assert.equal(rounds[nextSampleStep(rounds, 0, 128, 30, 40, refuseAt)], 448);
    // 5 files and 6 hits: far off, so at most 4 × 128 = 512 read next.
    assert.equal(rounds[nextSampleStep(rounds, 0, 128, 5, 6, refuseAt)], 512);
    // Among 5,000 candidates, 5 files and 6 hits in 128 say ~195 files and ~234 hits: twice those
    // limits, so beyondDoubt will likely clear them well before a proof — at most twice 128 read next.
    assert.equal(rounds[nextSampleStep(rounds, 0, 128, 5, 6, refuseAt, 5000)], 256);
    assert.equal(rounds[nextSampleStep(rounds, 0, 128, 5, 6, refuseAt, 2000)], 512, 'not among 2,000: ~94 hits');
    // Never past the last step.
    assert.equal(nextSampleStep(rounds, 29, 1984, 1, 1, refuseAt), 30);
    assert.equal(nextSampleStep(rounds, 30, 2048, 1, 1, refuseAt), 31);
  });
});
