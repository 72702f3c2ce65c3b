import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { provesUnchanged, RACY_MS } from '../../src/textindex/file-identity.ts';

describe('whether a stat proves a file is the version the index took', () => {
  const takenAt = 1_700_000_000_000;
  const old = takenAt - 60_000;
  const row = { size: 10, mtime_ms: old, ctime_ms: old, ino: 7, taken_at: takenAt };
  const same = { size: 10, mtimeMs: old, ctimeMs: old, ino: 7 };

  it('proves it when size, mtime, ctime and inode are the ones recorded, well before the read', () => {
    assert.equal(provesUnchanged(row, same), true);
  });

  it('does not when the mtime was set back after an edit of the same size (the ctime moved)', () => {
    assert.equal(provesUnchanged(row, { ...same, ctimeMs: takenAt + 5000 }), false);
  });

  it('does not when the file was replaced by another of the same size and times (a rename over it)', () => {
    assert.equal(provesUnchanged(row, { ...same, ino: 8 }), false);
  });

  it('does not when the size or mtime differ', () => {
    assert.equal(provesUnchanged(row, { ...same, size: 11 }), false);
    assert.equal(provesUnchanged(row, { ...same, mtimeMs: old + 1 }), false);
  });

  it('does not when the file was written in the same timestamp tick as the read (an edit after it would keep every field)', () => {
    const racy = { ...row, mtime_ms: takenAt - 1, ctime_ms: takenAt - 1 };
    assert.equal(provesUnchanged(racy, { ...same, mtimeMs: takenAt - 1, ctimeMs: takenAt - 1 }), false);
    const settled = { ...row, mtime_ms: takenAt - RACY_MS - 1, ctime_ms: takenAt - RACY_MS - 1 };
    assert.equal(provesUnchanged(settled, { ...same, mtimeMs: takenAt - RACY_MS - 1, ctimeMs: takenAt - RACY_MS - 1 }), true);
  });

  it('does not for a row never read (taken_at 0)', () => {
    assert.equal(provesUnchanged({ ...row, taken_at: 0 }, same), false);
  });
});
