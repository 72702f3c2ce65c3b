// A file taken within a clock tick of its last write cannot be proved unchanged by its stat. When it
// is checked again and its stat is as recorded, its content decides: the same bytes keep it taken
// (no moment where it is a candidate of every query, nothing parsed again); other bytes are taken anew.
import assert from 'node:assert/strict';
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { codeIndexOf } from '../helpers/code-index.ts';

describe('checking a file taken in the tick of its last write', () => {
  it('keeps it taken when its bytes are the ones taken, and takes new bytes of the same size and mtime', async () => {
    const { root, index } = codeIndexOf({ 'a.ts': 'export const alpha = 1;\n', 'b.ts': 'export const beta = 2;\n' });
    // An mtime after the read proves nothing either (a clock ahead): taken within the racy window
    // however long the pass takes on a loaded machine.
    const abs = path.join(root, 'a.ts');
    utimesSync(abs, new Date(), new Date(Date.now() + 60_000));
    await index.refresh();
    const store = await index.ready();
    assert.ok(store);
    const row = () => store.file('a.ts')!;
    const gen = () => Number(store.db.value('SELECT gen FROM text_state WHERE id = 1'));
    const before = row();
    assert.equal(before.text_of, before.version);
    assert.ok(Math.max(before.mtime_ms, before.ctime_ms) >= before.taken_at - 2000, 'taken within the racy window');
    const genBefore = gen();

    assert.equal(await index.fresh(['a.ts']), 0, 'the same bytes: nothing changed');
    const after = row();
    assert.deepEqual([after.version, after.text_of, after.parsed_of, after.hash], [before.version, before.version, before.parsed_of, before.hash]);
    assert.equal(gen(), genBefore, 'never marked as changed (a mark moves the counter every reader follows)');
    assert.ok(after.taken_at >= before.taken_at);
    assert.deepEqual((await index.text.candidates({ pattern: 'alpha', literal: true, ignoreCase: false }, ''))?.files, ['a.ts']);

    // Same size, the mtime set back: the stat moved (ctime) and the content decides as before.
    const { atime, mtime } = statSync(abs);
    writeFileSync(abs, 'export const gamma = 1;\n');
    utimesSync(abs, atime, mtime);
    assert.equal(await index.fresh(['a.ts']), 1);
    assert.deepEqual((await index.text.candidates({ pattern: 'gamma', literal: true, ignoreCase: false }, ''))?.files, ['a.ts']);
    assert.deepEqual((await index.text.candidates({ pattern: 'alpha', literal: true, ignoreCase: false }, ''))?.files, []);
    assert.ok(row().version > before.version);
    await index.close();
  });
});
