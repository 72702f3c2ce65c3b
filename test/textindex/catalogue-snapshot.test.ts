// The text index's catalogue kept in a file for the next process (textindex/catalogue-snapshot.ts):
// used only for exactly the state of the database it was made from, and the same answers either way.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { type CatalogueEntry, catalogue } from '../../src/code/catalogue.ts';
import { syncCatalogue, textWork } from '../../src/code/catalogue-sync.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { CodeStore } from '../../src/code/store.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { type CatalogueRows, type CatalogueSnapshot, catalogueSnapshot, decodeSnapshot, encodeSnapshot, type SnapshotKey } from '../../src/textindex/catalogue-snapshot.ts';
import { type PathList, pathList, pathListJoined, pathListOf } from '../../src/textindex/path-list.ts';
import { createTextIndexReader, TEXT_EPOCH } from '../../src/textindex/reader.ts';
import { runTextStage } from '../../src/textindex/stage.ts';
import type { TextCandidates } from '../../src/textindex/types.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

const KEY: SnapshotKey = { epoch: 'ab12', schema: 9, gen: 41, maxId: 3 };
const all = (list: PathList) => Array.from({ length: list.length }, (_, i) => list.at(i));
const ROWS: CatalogueRows = { paths: pathListOf(['src/a.ts', 'naïve/日本.md', 'b.c']), docs: Int32Array.from([7, -1, 2]), taken: Uint8Array.from([1, 0, 1]), sizes: Uint32Array.from([120, 0, 4294967295]) };

describe('the catalogue snapshot file', () => {
  it('gives back the rows it was written with, only for the state it names', () => {
    const bytes = encodeSnapshot(KEY, ROWS);
    const back = decodeSnapshot(bytes, KEY)!;
    assert.deepEqual(all(back.paths), ['src/a.ts', 'naïve/日本.md', 'b.c']);
    assert.deepEqual([...back.docs], [...ROWS.docs]);
    assert.deepEqual([...back.taken], [...ROWS.taken]);
    assert.deepEqual([...back.sizes], [...ROWS.sizes]);
    for (const other of [{ epoch: 'ab13' }, { schema: 10 }, { gen: 42 }, { maxId: 4 }]) assert.equal(decodeSnapshot(bytes, { ...KEY, ...other }), undefined, JSON.stringify(other));
    assert.equal(decodeSnapshot(bytes.subarray(0, bytes.length - 1), KEY), undefined, 'cut short');
    assert.equal(decodeSnapshot(Uint8Array.from([...bytes, 0]), KEY), undefined, 'longer than it says');
    assert.equal(decodeSnapshot(new TextEncoder().encode('something else\n'), KEY), undefined);
    const empty = decodeSnapshot(encodeSnapshot(KEY, { paths: pathListOf([]), docs: new Int32Array(0), taken: new Uint8Array(0), sizes: new Uint32Array(0) }), KEY)!;
    assert.deepEqual(all(empty.paths), []);
    // A path holding a newline keeps its place: each path's end is written.
    const odd = decodeSnapshot(encodeSnapshot(KEY, { ...ROWS, paths: pathListOf(['a', 'odd\nname', 'c']) }), KEY)!;
    assert.deepEqual(all(odd.paths), ['a', 'odd\nname', 'c']);
    // The words are read in place when aligned, copied when the bytes sit at an odd offset.
    const shifted = new Uint8Array(bytes.length + 1).fill(7);
    shifted.set(bytes, 1);
    const moved = decodeSnapshot(shifted.subarray(1), KEY)!;
    assert.deepEqual([all(moved.paths), [...moved.docs], [...moved.sizes]], [all(ROWS.paths), [...ROWS.docs], [...ROWS.sizes]]);
    // A header whose numbers do not fit: no rows, no error.
    const badHead = new TextEncoder().encode(`ctxgate-catalogue 3\n${JSON.stringify({ ...KEY, n: 1, pathBytes: -13 })}  \n`);
    assert.equal(decodeSnapshot(badHead, KEY), undefined);
    // A name beginning with U+FEFF keeps it (not taken for a byte-order mark), alone or in a batch.
    const bom = decodeSnapshot(encodeSnapshot(KEY, { ...ROWS, paths: pathListOf(['\uFEFFa.c', 'b/\uFEFFc.c', 'd.c']) }), KEY)!;
    assert.deepEqual(all(bom.paths), ['\uFEFFa.c', 'b/\uFEFFc.c', 'd.c']);
    assert.deepEqual(pathListOf(['x', '\uFEFFa.c', 'y']).atAll([1, 2, 0]), ['\uFEFFa.c', 'y', 'x']);
    // A file of the format before (paths split on newlines, words interleaved) is not read.
    const before = new TextEncoder().encode(`ctxgate-catalogue 2\n${JSON.stringify({ ...KEY, n: 0, pathBytes: 0 })}\n`);
    assert.equal(decodeSnapshot(before, KEY), undefined);
  });

  it('makes a path string only when one is asked for, and marks a folder\'s files by their bytes', () => {
    const list = pathListJoined('src/a.ts\nsrc\nsrcs/b.ts\nsrc/日本/c.md\nlib/src/d.c', 5)!;
    assert.deepEqual(all(list), ['src/a.ts', 'src', 'srcs/b.ts', 'src/日本/c.md', 'lib/src/d.c']);
    assert.equal(list.at(3), list.at(3));
    assert.deepEqual(pathListJoined('a\nb/c\nd', 3)!.atAll([2, 0, 2]), ['d', 'a', 'd']);
    const odd = pathListOf(['x', 'new\nline', 'é/y']);
    assert.deepEqual(odd.atAll([2, 1, 0]), ['é/y', 'new\nline', 'x'], 'a path holding a newline, made on its own');
    const within = new Uint8Array(5);
    assert.equal(list.markUnder('src', within), 3);
    assert.deepEqual([...within], [1, 1, 0, 1, 0]);
    const deeper = new Uint8Array(5);
    assert.equal(list.markUnder('src/日本', deeper), 1);
    assert.deepEqual([...deeper], [0, 0, 0, 1, 0]);
    // A count that does not fit the text, ends that do not fit the bytes: no list.
    assert.equal(pathListJoined('a\nb', 3), undefined);
    assert.equal(pathListJoined('a\nb\nc', 2), undefined);
    assert.equal(pathList(new TextEncoder().encode('ab\ncd'), Uint32Array.of(2, 4)), undefined);
    assert.equal(pathList(new TextEncoder().encode('ab\ncd'), Uint32Array.of(3, 2)), undefined);
    assert.deepEqual(all(pathList(new TextEncoder().encode('ab\ncd'), Uint32Array.of(2, 5))!), ['ab', 'cd']);
  });

  it('is read in a new process instead of the table, and not once the catalogue changed', async () => {
    const root = fixture({ 'a.ts': 'const needle = 1;\n', 'b.ts': 'nothing here\n', 'c/d.md': 'a needle in prose\n' });
    const data = fixture();
    dirs.push(root, data);
    const db = await openDatabase(runtime, path.join(data, 'code.db'), { busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    const store = new CodeStore(db);
    const entries: CatalogueEntry[] = [];
    for await (const e of catalogue(runtime.fs, { dirs: [root] }, { root, excludeDirs: [], respectGitignore: true })) entries.push(e);
    await syncCatalogue(store, entries);
    await db.writeTransaction(() => {
      store.setMeta('catalogued', '1');
      store.setMeta(TEXT_EPOCH, 'e1');
    });
    await runTextStage(textWork(store, entries), { db, fs: runtime.fs });
    const file = path.join(data, 'code.db-catalogue');
    const reads: (CatalogueRows | undefined)[] = [];
    const writes: SnapshotKey[] = [];
    const real = catalogueSnapshot(runtime.fs, file);
    const spied: CatalogueSnapshot = {
      read: (key) => {
        const rows = real.read(key);
        reads.push(rows);
        return rows;
      },
      write: (key, rows) => {
        writes.push(key);
        real.write(key, rows);
      },
    };
    let quiet: () => void = () => {};
    const process = () => createTextIndexReader({ root, fs: runtime.fs, open: async () => db, current: () => db, state: () => 'ready', error: () => undefined, snapshot: { file: spied, whenQuiet: () => new Promise<void>((resolve) => (quiet = resolve)) } });
    const q = { pattern: 'needle', literal: true, ignoreCase: false };

    const sizes = (c: TextCandidates | undefined) => c?.files.map((f) => c.sizeOf?.(f));
    const first = await process().candidates(q, '');
    assert.deepEqual(first?.files, ['a.ts', 'c/d.md']);
    assert.deepEqual(sizes(first), [18, 18], 'each candidate with its catalogued size');
    assert.deepEqual([reads.length, reads[0], writes.length], [1, undefined, 0], 'no file yet: the table, written once the calls are answered');
    quiet();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(writes.length, 1);
    assert.equal(readFileSync(file).length > 0, true);

    const second = await process().candidates(q, '');
    assert.deepEqual(second?.files, ['a.ts', 'c/d.md']);
    assert.deepEqual(sizes(second), [18, 18], 'sizes from the file too');
    assert.equal(reads.length, 2);
    assert.ok(reads[1], 'a new process read the file');

    // A new file taken: the counter moves, the file no longer matches.
    writeFileSync(path.join(root, 'e.ts'), 'another needle\n');
    const more = [...entries];
    for await (const e of catalogue(runtime.fs, { dirs: [root] }, { root, excludeDirs: [], respectGitignore: true })) if (!more.some((m) => m.path === e.path)) more.push(e);
    await syncCatalogue(store, more);
    await runTextStage(textWork(store, more), { db, fs: runtime.fs });
    assert.deepEqual((await process().candidates(q, ''))?.files, ['a.ts', 'c/d.md', 'e.ts']);
    assert.equal(reads[2], undefined, 'the stale file is not used');

    // Another epoch (the index started again from nothing): not used either, whatever the counter says.
    quiet();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await db.writeTransaction(() => store.setMeta(TEXT_EPOCH, 'e2'));
    assert.deepEqual((await process().candidates(q, ''))?.files, ['a.ts', 'c/d.md', 'e.ts']);
    assert.equal(reads[3], undefined);
    db.close();
  });
});
