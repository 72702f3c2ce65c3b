import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { watchTreeDeno } from '../../src/runtime/tree-watch.ts';
import type { TreeWatcher } from '../../src/runtime/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

/** Resolves once `seen` holds every path wanted; rejects after a generous deadline. */
function waitFor(seen: Set<string>, wanted: string[], ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (wanted.every((w) => seen.has(w))) return resolve();
      if (Date.now() - started > ms) return reject(new Error(`not reported: ${wanted.filter((w) => !seen.has(w)).join(', ')}; seen: ${[...seen].join(', ')}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

describe(`the runtime's tree watch (${runtime.name})`, () => {
  let root: string;
  let watcher: TreeWatcher;
  const seen = new Set<string>();
  before(async () => {
    root = fixture({ 'src/a.ts': 'a\n', 'src/deep/b.ts': 'b\n', 'node_modules/x/index.js': 'x\n' });
    watcher = await runtime.watch(root, (paths) => {
        for (const p of paths) seen.add(p);
      },
      { skip: (rel) => rel === 'node_modules' || rel.startsWith('node_modules/') });
  });
  after(() => {
    watcher.close();
    removeDir(root);
  });

  it('reports an edited file in a nested folder, relative to the root', async () => {
    writeFileSync(path.join(root, 'src/deep/b.ts'), 'b edited\n');
    await waitFor(seen, ['src/deep/b.ts']);
  });

  it('follows a folder created later, with the files written into it', async () => {
    mkdirSync(path.join(root, 'src/new/inner'), { recursive: true });
    writeFileSync(path.join(root, 'src/new/inner/c.ts'), 'c\n');
    await waitFor(seen, ['src/new/inner/c.ts']);
    seen.clear();
    writeFileSync(path.join(root, 'src/new/inner/c.ts'), 'c again\n');
    await waitFor(seen, ['src/new/inner/c.ts']);
  });

  it('says nothing about a skipped folder', async () => {
    seen.clear();
    writeFileSync(path.join(root, 'node_modules/x/index.js'), 'x edited\n');
    writeFileSync(path.join(root, 'src/a.ts'), 'a edited\n');
    await waitFor(seen, ['src/a.ts']);
    assert.deepEqual([...seen].filter((p) => p.startsWith('node_modules/')), []);
  });

  it('reports nothing once closed', async () => {
    const quiet = new Set<string>();
    const w = await runtime.watch(root, (paths) => {
      for (const p of paths) quiet.add(p);
    });
    w.close();
    writeFileSync(path.join(root, 'src/a.ts'), 'a closed\n');
    writeFileSync(path.join(root, 'src/deep/b.ts'), 'b closed\n');
    // The still-open watcher sees the writes: by then the closed one would have too.
    await waitFor(seen, ['src/deep/b.ts']);
    assert.deepEqual([...quiet], []);
  });

  it('gives way while it sets up (a pause every few folders on Node), and watches every folder', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 70; i++) files[`d${String(i).padStart(2, '0')}/f.ts`] = 'x\n';
    const many = fixture(files);
    const got = new Set<string>();
    let pauses = 0;
    const w = await runtime.watch(many, (paths) => {
      for (const p of paths) got.add(p);
    }, {
      pause: async () => {
        pauses++;
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    try {
      // Deno watches the whole tree with one call: no walk to pause.
      if (runtime.name === 'node') assert.ok(pauses >= 2, `${pauses} pauses over 71 folders`);
      writeFileSync(path.join(many, 'd69/f.ts'), 'edited\n');
      writeFileSync(path.join(many, 'd00/f.ts'), 'edited\n');
      await waitFor(got, ['d69/f.ts', 'd00/f.ts']);
    } finally {
      w.close();
      removeDir(many);
    }
  });

  it('refuses to watch a folder that does not exist', async () => {
    await assert.rejects(runtime.watch(path.join(root, 'missing'), () => {}));
  });
});

describe("Deno's tree watch when handling an event fails", () => {
  it('ends the watch with the error, and settled() still settles (a query awaits it)', async () => {
    const root = fixture({ 'a.ts': 'a\n' });
    // Deno's watchFs as an iterable: one event, then nothing more until closed.
    let stop: () => void = () => undefined;
    const fake = () => ({
      close: () => stop(),
      async *[Symbol.asyncIterator]() {
        yield { kind: 'modify', paths: [path.join(root, 'a.ts')] };
        await new Promise<void>((resolve) => {
          stop = resolve;
        });
      },
    });
    const errors: string[] = [];
    const watcher = await watchTreeDeno(
      fake,
      root,
      () => {
        throw new Error('the listener failed');
      },
      { onError: (e) => errors.push(e.message) },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const settled = await Promise.race([watcher.settled().then(() => 'settled'), new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 5 s'), 5000)))]);
      assert.equal(settled, 'settled');
      assert.deepEqual(errors, ['the listener failed']);
    } finally {
      clearTimeout(timer);
      watcher.close();
      removeDir(root);
    }
  });
});
