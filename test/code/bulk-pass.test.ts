// A pass with many new or changed files (a first build) tells the caller once, before its text stage:
// the server then tunes the runtime's heaps for a build (runtime.beginBulkWork) — not before, so a
// new server's first answers are not slowed by collecting, and not for a pass over a few edits.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { createInThreadParser } from '../../src/code/parse-pool.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { RACY_MS } from '../../src/textindex/file-identity.ts';
import { runtime } from '../helpers/env.ts';
import { testDir } from '../helpers/code-index.ts';

/** Files of a first build: text only (no grammar), so the pass is the catalogue and the text stage. */
function notes(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`notes/n${String(i).padStart(4, '0')}.txt`] = `note ${i}\n`;
  return files;
}

function indexOf(root: string, onBulkPass: () => void, seen: { warmed: string[]; events: string[] } = { warmed: [], events: [] }) {
  const dbFile = path.join(testDir(), 'code.db');
  const grammars = createGrammars(runtime);
  // The parser the pass is given, told apart when it is asked to start its workers (and when, among the pass's events).
  const parser = createInThreadParser(grammars);
  const warm = parser.warm.bind(parser);
  parser.warm = (upTo) => {
    seen.warmed.push(seen.events.includes('text_index_done') ? 'after the text stage' : 'before the text stage');
    warm(upTo);
  };
  return createCodeIndex({
    fs: runtime.fs,
    grammars,
    parser,
    logger: { log: (event) => seen.events.push(event), file: undefined, close() {} },
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: [], respectGitignore: true },
    onBulkPass,
    openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
  });
}

describe('a pass over many new files', () => {
  it('says so once, before it indexes them; a later pass over one edit does not', async () => {
    const root = testDir(notes(2000));
    // Past the racy window (RACY_MS): a file written just before a pass is looked at again by the next.
    await sleep(RACY_MS + 100);
    let called = 0;
    const index = indexOf(root, () => called++);
    try {
      await index.refresh();
      assert.equal(called, 1, 'a first build of 2,000 files is a bulk pass');
      writeFileSync(path.join(root, 'notes', 'n0001.txt'), 'note one, edited\n');
      await index.refresh();
      assert.equal(called, 1, 'one changed file is not');
    } finally {
      await index.close();
    }
  });

  it('is not said for a first build of a small project', async () => {
    const root = testDir(notes(30));
    let called = 0;
    const index = indexOf(root, () => called++);
    try {
      await index.refresh();
      assert.equal(called, 0);
    } finally {
      await index.close();
    }
  });

  it('starts the parse worker before the text stage whenever files to parse are new or changed, not for files no grammar reads', async () => {
    const root = testDir({ ...notes(5), 'src/a.ts': 'export function alpha() {}\n' });
    await sleep(RACY_MS + 100);
    const seen = { warmed: [] as string[], events: [] as string[] };
    const index = indexOf(root, () => undefined, seen);
    try {
      await index.refresh();
      assert.deepEqual(seen.warmed, ['before the text stage'], 'a first build with a .ts file');
      writeFileSync(path.join(root, 'notes', 'n0001.txt'), 'note one, edited\n');
      await index.refresh();
      assert.deepEqual(seen.warmed, ['before the text stage'], 'an edited note has nothing to parse');
      writeFileSync(path.join(root, 'src', 'a.ts'), 'export function alpha() { return 1; }\n');
      seen.events.length = 0;
      await index.refresh();
      assert.deepEqual(seen.warmed, ['before the text stage', 'before the text stage'], 'an edited .ts file has');
    } finally {
      await index.close();
    }
  });
});
