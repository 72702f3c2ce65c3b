import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileRow } from '../../src/code/store.ts';
import { TextProgress } from '../../src/code/text-progress.ts';
import type { TextWork } from '../../src/textindex/stage.ts';

function row(id: number, path: string): FileRow {
  return { id, path, size: 1, mtime_ms: 0, ctime_ms: 0, ino: 0, taken_at: 0, hash: '', language: null, lines: 0, parser: 0, version: 1, text_of: 0, text_doc: null, parsed_of: 0 };
}

function work(id: number, path: string): TextWork {
  return { id, path, abs: `/x/${path}`, size: 1, mtimeMs: 0, ctimeMs: 0, ino: 0, hash: '', version: 1, statChanged: true };
}

/** Whether a promise has settled after the event loop ran a few times. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the parse stage beside the text stage', () => {
  it('parses a file once the text stage has read it, at the version and hash it decided, and writes it once committed', async () => {
    const rows = [row(1, 'a.c'), row(2, 'b.c'), row(3, 'kept.c')];
    const progress = new TextProgress([work(1, 'a.c'), work(2, 'b.c')], rows);
    assert.equal(await progress.ready('kept.c'), true, 'a file the text stage does not read goes at once');
    assert.equal(progress.placeOf('kept.c'), -1);
    assert.equal(await progress.commit(-1), true, 'nothing to wait for');
    const b = progress.ready('b.c');
    assert.equal(await settled(b), false);
    progress.read({ id: 1, version: 2, hash: 'h1' });
    assert.equal(await settled(b), false, 'b.c comes after a.c in the text stage’s work');
    assert.equal(await progress.ready('a.c'), true);
    assert.deepEqual([rows[0]!.version, rows[0]!.hash, rows[0]!.text_of], [2, 'h1', 0], 'read, not committed');
    const written = progress.commit(progress.placeOf('a.c'));
    assert.equal(progress.isCommitted(progress.placeOf('a.c')), false);
    assert.equal(await settled(written), false, 'a file read but not committed is not written');
    progress.read({ id: 2, version: 1, hash: 'h2' });
    assert.equal(await b, true);
    assert.deepEqual([rows[1]!.version, rows[1]!.hash], [1, 'h2']);
    progress.taken([{ id: 1, version: 2, hash: 'h1' }]);
    assert.equal(await written, true);
    assert.equal(rows[0]!.text_of, 2);
    assert.equal(progress.isCommitted(progress.placeOf('b.c')), false, 'b.c is read, not committed');
    progress.taken([{ id: 2, version: 1, hash: 'h2' }]);
    progress.end();
    assert.equal(progress.placeOf('b.c'), -1, 'every file committed: its place is forgotten (behind the stage)');
    assert.equal(await progress.ready('b.c'), true);
    assert.equal(await progress.commit(progress.placeOf('a.c')), true);
  });

  it('does not parse a file the text stage never took: false when it stopped, its error when it failed', async () => {
    const stopped = new TextProgress([work(1, 'a.c'), work(2, 'b.c')], [row(1, 'a.c'), row(2, 'b.c')]);
    const waiting = stopped.ready('b.c');
    stopped.read({ id: 1, version: 2, hash: 'h' });
    const unwritten = stopped.commit(stopped.placeOf('a.c'));
    stopped.end();
    assert.equal(await waiting, false);
    assert.equal(await unwritten, false, 'read but never committed: its parse is not written');
    const failed = new TextProgress([work(1, 'a.c'), work(2, 'b.c')], [row(1, 'a.c'), row(2, 'b.c')]);
    failed.read({ id: 1, version: 1, hash: 'h' });
    failed.taken([{ id: 1, version: 1, hash: 'h' }]);
    const later = failed.ready('b.c');
    failed.end(new Error('disk full'));
    await assert.rejects(later, /disk full/);
    assert.equal(await failed.ready('a.c'), true, 'a file taken before the failure keeps its version');
    assert.equal(await failed.commit(failed.placeOf('a.c')), true);
  });

  it('gives the thread to the text stage only while the parse stage waits (for the worker or for the text stage)', async () => {
    const progress = new TextProgress([work(1, 'a.c')], [row(1, 'a.c')]);
    const paused = progress.pause();
    assert.equal(await settled(paused), false, 'the parse stage holds the thread');
    progress.yieldToText(true);
    assert.equal(await settled(paused), true);
    progress.yieldToText(false);
    const next = progress.pause();
    assert.equal(await settled(next), false);
    const waiting = progress.ready('a.c');
    assert.equal(await settled(next), true, 'a parse stage waiting for the text stage gives it the thread');
    progress.read({ id: 1, version: 1, hash: 'h' });
    assert.equal(await waiting, true);
    assert.equal(await settled(progress.pause()), false, 'and takes it back once the file is read');
    const committing = progress.commit(0);
    assert.equal(await settled(progress.pause()), true, 'a parse stage waiting for a commit gives the text stage the thread');
    progress.taken([{ id: 1, version: 1, hash: 'h' }]);
    assert.equal(await committing, true);
    assert.equal(await settled(progress.pause()), false, 'and takes it back once committed');
  });
});
