import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfig } from '../../src/config/defaults.ts';
import { BIG_FILE_BYTES, beyondDoubt, estimateUnread, sampleOrder, sampleSteps, unreadIn } from '../../src/retrieval/estimate.ts';
import { createRefusalCounter, gate } from '../../src/retrieval/gatekeeper.ts';
import type { ResultItem } from '../../src/retrieval/types.ts';
import { formatRefine } from '../../src/tools/gate/refine-printer.ts';
import { seededRandom } from '../../scripts/lib/seeded.ts';

const files = Array.from({ length: 500 }, (_, i) => `dir${i % 7}/sub${i % 3}/file${i}.c`);

describe('sampling candidates to prove a refusal', () => {
  it('reads candidates in one fixed order whatever order the index gave them in, each once', () => {
    const order = sampleOrder(files);
    assert.deepEqual([...order].sort(), [...files].sort());
    assert.deepEqual(sampleOrder([...files].reverse()), order);
    assert.notDeepEqual(order.slice(0, 50), [...files].sort().slice(0, 50), 'not path order: a prefix spreads over the folders');
    const firstFolders = new Set(order.slice(0, 50).map((f) => f.split('/')[0]));
    assert.equal(firstFolders.size, 7);
    // Two names of one hash (FNV-1a of f6059 and of f264602, f6058 and f264603): side by side, in name order, whatever the input order.
    const colliding = ['f6059', 'f264602', 'f6058', 'f264603', ...files];
    const byHash = sampleOrder(colliding);
    assert.deepEqual(sampleOrder([...colliding].reverse()), byHash);
    for (const [a, b] of [['f264602', 'f6059'], ['f264603', 'f6058']] as const) assert.equal(byHash.indexOf(b), byHash.indexOf(a) + 1, `${a} then ${b}`);
  });

  it('reads big candidates at a lower rate, each size class a uniform sample of its own, the big ones left over last', () => {
    // 1,000 files of 8 KB and 40 of 2 MB: the big ones are sampled at √(8 KB / 2 MB) = 1/16 of the others' rate.
    const small = Array.from({ length: 1000 }, (_, i) => `src/s${i}.c`);
    const big = Array.from({ length: 40 }, (_, i) => `gen/b${i}.h`);
    const sizes = new Map<string, number>([...small.map((f) => [f, 8 << 10] as const), ...big.map((f) => [f, 2 << 20] as const)]);
    const order = sampleOrder([...big, ...small], (f) => sizes.get(f));
    assert.deepEqual([...order].sort(), [...small, ...big].sort(), 'each once');
    assert.deepEqual(sampleOrder([...small, ...big].reverse(), (f) => sizes.get(f)), order, 'whatever order the index gave');
    const bigIn = (n: number) => order.slice(0, n).filter((f) => f.startsWith('gen/')).length;
    assert.equal(bigIn(399), 0, 'the first big one once its share is a whole file: after 400 small ones');
    assert.equal(bigIn(520), 1, 'half the small ones read: 40 × ½ × 1/16 = 1.25 big ones');
    assert.equal(bigIn(1002), 2, 'all the small ones read: 40/16 = 2.5 big ones');
    assert.ok(order.slice(1002).every((f) => f.startsWith('gen/')), 'then the big ones');
    assert.deepEqual(
      order.filter((f) => f.startsWith('src/')),
      sampleOrder(small),
      'the small ones in the order they have alone',
    );
    // An unknown size counts as small; without big files, or without sizes, the plain order.
    assert.deepEqual(sampleOrder(small, (f) => (f.endsWith('7.c') ? undefined : 100)), sampleOrder(small));
    assert.deepEqual(sampleOrder([...small, ...big]), sampleOrder([...big, ...small]));
    // Sizes close together: about the same rate for both (never above).
    const even = new Map([...small.map((f) => [f, BIG_FILE_BYTES - 1] as const), ...big.map((f) => [f, BIG_FILE_BYTES] as const)]);
    const evenOrder = sampleOrder([...small, ...big], (f) => even.get(f));
    const evenBig = evenOrder.slice(0, 520).filter((f) => f.startsWith('gen/')).length;
    assert.ok(evenBig >= 19 && evenBig <= 20, `${evenBig} of 20`);
  });

  it('estimates each size class from its own files read, or from all files read while it has few', () => {
    // Read: 20 small files in src/ (1 hit each), 16 big ones in src/ (10 hits each); unread: one of each.
    const small = Array.from({ length: 20 }, (_, i) => `src/s${i}.c`);
    const big = Array.from({ length: 16 }, (_, i) => `src/b${i}.h`);
    const isBig = (f: string) => f.includes('/b');
    const counts = new Map([...small.map((f) => [f, 1] as const), ...big.map((f) => [f, 10] as const)]);
    // Both unread files are src/'s: one entry for the folder, each class's rate added up.
    const expected = estimateUnread([...small, ...big], counts, ['src/sx.c', 'src/bx.h'], isBig);
    assert.deepEqual([...expected.keys()], [unreadIn('src')]);
    assert.equal(expected.get(unreadIn('src'))!.hits, 1 + 10);
    // Without strata both get the folder's mean.
    const mixed = estimateUnread([...small, ...big], counts, ['src/sx.c', 'src/bx.h']);
    assert.ok(Math.abs(mixed.get(unreadIn('src'))!.hits - (2 * (20 + 160)) / 36) < 1e-9);
    // 15 big ones read: too few to speak for their class, every file read does.
    const fewer = estimateUnread([...small, ...big.slice(1)], counts, ['src/sx.c', 'src/bx.h'], isBig);
    assert.ok(Math.abs(fewer.get(unreadIn('src'))!.hits - (1 + (20 + 150) / 35)) < 1e-9);
  });

  it('looks at the sample from the minimum on, batch by batch, leaving a third of the candidates unread', () => {
    const sizes = { batch: 64, min: 128, max: 2048 };
    assert.deepEqual(sampleSteps(150, sizes), []);
    assert.deepEqual(sampleSteps(192, sizes), [128]);
    assert.deepEqual(sampleSteps(500, sizes), [128, 192, 256, 320]);
    assert.equal(sampleSteps(100_000, sizes).at(-1), 2048);
  });

  it('expects of a folder\'s unread files what its files read held, drawn toward the parent folder while few of them were read', () => {
    // 40 files read: src/ (20, each 2 hits), docs/ (16, none match), lib/ (4, each 5 hits).
    const read = [...Array.from({ length: 20 }, (_, i) => `src/s${i}.c`), ...Array.from({ length: 16 }, (_, i) => `docs/d${i}.txt`), ...Array.from({ length: 4 }, (_, i) => `lib/l${i}.c`)];
    const counts = new Map([...read.filter((f) => f.startsWith('src/')).map((f) => [f, 2] as const), ...read.filter((f) => f.startsWith('lib/')).map((f) => [f, 5] as const)]);
    const expected = estimateUnread(read, counts, ['src/x.c', 'docs/y.txt', 'lib/z.c', 'new/w.c', 'src/deep/v.c']);
    const whole = 60 / 40; // hits per file read over the sample
    const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
    near(expected.get(unreadIn('src'))!.hits, (40 + 8 * whole) / 28);
    near(expected.get(unreadIn('docs'))!.hits, (0 + 8 * whole) / 24);
    near(expected.get(unreadIn('lib'))!.hits, (20 + 8 * whole) / 12);
    near(expected.get(unreadIn('new'))!.hits, whole); // a folder nothing was read from: the whole sample
    near(expected.get(unreadIn('src/deep'))!.hits, (0 + 8 * ((40 + 8 * whole) / 28)) / 8);
    assert.ok(expected.get(unreadIn('docs'))!.hits < whole / 2, 'a folder whose 16 files read never matched is estimated low');
    near(expected.get(unreadIn('src'))!.files, (20 + 8 * (24 / 40)) / 28);
    assert.equal(estimateUnread(read, new Map(), ['src/x.c']).size, 0, 'nothing matched: nothing expected');
  });
});

describe('what a sample shows the candidates hold beyond doubt', () => {
  const population = (n: number) => Array.from({ length: n }, (_, i) => `d${i % 13}/f${i}.c`);

  it('bounds the matching files from the share read, counts one hit per unread one, and claims nothing from a handful read', () => {
    const all = population(3000);
    const order = sampleOrder(all);
    // Every third file read matches, twice: 43 of the first 128.
    const counts = new Map(order.slice(0, 128).flatMap((f, i) => (i % 3 === 0 ? [[f, 2] as const] : [])));
    const least = beyondDoubt(order, 128, counts);
    const matched = counts.size;
    assert.equal(matched, 43);
    // Below the share read (1,008 of 3,000 at 43/128), above the files read that matched.
    assert.ok(least.files > 400 && least.files < 1008, `files ${least.files}`);
    assert.equal(least.hits, 86 + least.files - matched, 'the hits read, and one for each unread matching file');
    // Under 64 files read: only what was read.
    assert.deepEqual(beyondDoubt(order, 48, new Map([...counts].filter(([f]) => order.indexOf(f) < 48))), { files: 16, hits: 32 });
    assert.deepEqual(beyondDoubt(order, 128, new Map()), { files: 0, hits: 0 });
    // A handful of matches says little: 4 of 128 read among 20,000 (a normal approximation claimed
    // ≥ 140 files here, and 100 matching files gave that one time in 200).
    const wide = sampleOrder(population(20000));
    const few = beyondDoubt(wide, 128, new Map(wide.slice(0, 4).map((f) => [f, 1] as const)));
    assert.ok(few.files >= 4 && few.files < 100, `files ${few.files}`);
  });

  it('is under the truth but rarely: 1,000 random candidate lists, a few percent matching, a sample of 128', () => {
    const random = seededRandom(20261203);
    let over = 0;
    let cleared = 0;
    // Lists of 2,000–6,000 candidates (ordered once per size: the matching ones are the random part).
    const orders = new Map<number, string[]>();
    for (let round = 0; round < 1000; round++) {
      const size = 2000 + 500 * Math.floor(random() * 9);
      if (!orders.has(size)) orders.set(size, sampleOrder(population(size)));
      const order = orders.get(size)!;
      const share = 0.01 + random() * 0.1;
      const matching = new Set(order.filter(() => random() < share));
      const counts = new Map(order.slice(0, 128).flatMap((f) => (matching.has(f) ? [[f, 1] as const] : [])));
      const least = beyondDoubt(order, 128, counts);
      if (least.files > matching.size) over++;
      if (least.files > 25 && least.hits > 120) cleared++;
    }
    assert.ok(over <= 2, `${over} of 1,000 bounds over the truth`);
    assert.ok(cleared > 100, `${cleared} of 1,000 would refuse after 128 files`);
  });

  it('bounds each size class on its own: a big class barely read counts only what it read', () => {
    const small = Array.from({ length: 2000 }, (_, i) => `src/s${i}.c`);
    const big = Array.from({ length: 200 }, (_, i) => `gen/b${i}.h`);
    const sizes = new Map<string, number>([...small.map((f) => [f, 8 << 10] as const), ...big.map((f) => [f, 4 << 20] as const)]);
    const isBig = (f: string) => (sizes.get(f) ?? 0) >= BIG_FILE_BYTES;
    const order = sampleOrder([...small, ...big], (f) => sizes.get(f));
    // Every big file read matches; a fifth of the small ones do.
    const read = 256;
    const counts = new Map(order.slice(0, read).flatMap((f, i) => (isBig(f) || i % 5 === 0 ? [[f, 1] as const] : [])));
    const bigRead = order.slice(0, read).filter(isBig).length;
    assert.ok(bigRead > 0 && bigRead < 64, `${bigRead} big files read`);
    const least = beyondDoubt(order, read, counts, isBig);
    const smallOnly = beyondDoubt(order.filter((f) => !isBig(f)), read - bigRead, new Map([...counts].filter(([f]) => !isBig(f))));
    assert.equal(least.files, smallOnly.files + bigRead, 'the big class adds the files it read, no share of its 200');
  });
});

describe('the gate with a refusal proved from a sample', () => {
  const config = defaultConfig();
  // 40 files read, 30 of them matching with 5 hits each (150 hits): past maxFiles and maxHits.
  const read = Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'drivers' : 'fs'}/r${i}.c`);
  const counts = new Map(read.slice(0, 30).map((f) => [f, 5]));
  const items: ResultItem[] = [...counts.keys()].map((file, i) => ({ file, line: i + 1, text: 'spin_lock(&x);', matchIndex: 0, kind: 'call', source: 'fileio', score: 0.8 }));
  // 360 unread: 300 under drivers, 60 under sound (a folder the sample never reached).
  const unread = [...Array.from({ length: 300 }, (_, i) => `drivers/u${i}.c`), ...Array.from({ length: 60 }, (_, i) => `sound/u${i}.c`)];
  const estimate = { read: 40, of: 400, expected: new Map(unread.map((f) => [f, { hits: 3.75, files: 0.75 }])) };

  it('refuses with totals and a distribution that count the unread files at the sample rate, and says they are estimates', () => {
    const d = gate({ items, counts, estimate, capped: true, force: false, query: 'spin_lock', scope: '', shape: 'symbol', regex: false }, config, createRefusalCounter());
    assert.equal(d.pass, false);
    if (d.pass) return;
    const e = d.envelope;
    assert.equal(e.reason, 'compound');
    // 150 read + 360 × 3.75 = 1,500 hits; 30 + 360 × 0.75 = 300 files.
    assert.equal(e.summary.totalFound, 1500);
    assert.equal(e.summary.files, 300);
    assert.deepEqual(e.estimate, { read: 40, of: 400 });
    assert.deepEqual(
      e.distribution.map((x) => [x.dir, x.hits]),
      [
        ['drivers', 75 + 1125],
        ['sound', 225],
        ['fs', 75],
      ],
    );
    const text = formatRefine(e, false);
    assert.match(text, /^refused \(compound\): ~1500 hits in ~300 files \(estimated: 40 of 400 candidate files read\)/);
    assert.match(text, /^where \(estimated\): drivers 1200 · sound 225 · fs 75$/m);
  });

  it('prints exact counts without a tilde when every candidate was read', () => {
    const d = gate({ items, counts, capped: true, force: false, query: 'spin_lock', scope: '', shape: 'symbol', regex: false }, config, createRefusalCounter());
    assert.ok(!d.pass);
    if (d.pass) return;
    assert.equal(d.envelope.estimate, undefined);
    assert.match(formatRefine(d.envelope, false), /^refused \(compound\): 150 hits in 30 files, /);
  });
});
