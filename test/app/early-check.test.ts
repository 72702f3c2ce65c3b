// A stdio server's warm start begun when the process starts (app/early-check.ts): with the note of an
// earlier whole check of a big index, find's list of what changed is started before the app exists,
// and the app's code index answers from it — a file edited while no server ran (same size, same
// mtime) is still seen by the first search, and the old text is gone.
import assert from 'node:assert/strict';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createAppContext } from '../../src/app/bootstrap.ts';
import { createClientSession } from '../../src/app/context.ts';
import { checkedNoteFile } from '../../src/app/checked-note.ts';
import { startEarlyCheck } from '../../src/app/early-check.ts';
import { readSettings } from '../../src/app/settings.ts';
import { readConfigFile } from '../../src/config/load.ts';
import { warmStart } from '../../src/app/warm-start.ts';
import { projectDataDir } from '../../src/config/paths.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { createToolRegistry } from '../../src/tools/registry.ts';
import { LIST_FROM_FILES } from '../../src/workspace/changed-since.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';
import { textOf } from '../helpers/app.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

describe('the warm start begun when a stdio server starts', () => {
  it('starts find from the note of a big index\'s last check before the app exists; the first search sees a same-size same-mtime edit made while no server ran', { skip: runtime.which('find') === undefined }, async () => {
    const root = fixture({ 'src/a.ts': 'export const alpha_word = 1;\n', 'src/b.ts': 'export const beta_word = 2;\n' });
    const data = fixture();
    dirs.push(root, data);
    const rt = withEnv(runtime, { CTXGATE_DATA_DIR: data, CTXGATE_CONFIG: undefined, CTXMODE_CONFIG: undefined });
    const options = { projectRoot: root, debug: false };
    const checkedAt = Date.now() - 5_000;
    const first = createAppContext(rt, options);
    const buildFrom = Date.now();
    await first.code.refresh();
    await first.lifecycle.shutdown('built');
    const noteFile = checkedNoteFile(projectDataDir(rt, root));
    // The complete pass left the note of its listing (when it began, the files it holds), as a sweep does.
    const left = JSON.parse(readFileSync(noteFile, 'utf8')) as { at: number; files: number };
    assert.equal(left.files, 2);
    assert.ok(left.at >= buildFrom && left.at <= Date.now(), JSON.stringify(left));

    // The note of a small index: nothing starts early.
    assert.equal(startEarlyCheck(rt, readSettings(rt, options, readConfigFile)), undefined);
    writeFileSync(noteFile, JSON.stringify({ at: checkedAt, files: LIST_FROM_FILES - 1 }));
    assert.equal(startEarlyCheck(rt, readSettings(rt, options, readConfigFile)), undefined);

    // While no server runs: an edit that keeps the size and the mtime.
    const a = path.join(root, 'src/a.ts');
    const before = statSync(a);
    writeFileSync(a, 'export const gamma_word = 1;\n');
    utimesSync(a, before.atime, before.mtime);
    assert.equal(statSync(a).size, before.size);

    // The note claims a big index: find starts now, before the app is built.
    writeFileSync(noteFile, JSON.stringify({ at: checkedAt, files: LIST_FROM_FILES }));
    const settings = readSettings(rt, options, readConfigFile);
    const earlyList = startEarlyCheck(rt, settings);
    assert.ok(earlyList, 'find started');
    assert.equal(earlyList.root, root);
    assert.ok(earlyList.since < checkedAt, 'from a moment before the check (a coarse clock\'s tick)');
    const app = createAppContext(rt, options, settings, { earlyList });
    warmStart(app);
    const registry = createToolRegistry(TOOLS);
    const session = createClientSession('early');
    const search = async (pattern: string) => textOf(await registry.call('search', { pattern }, { app, session, signal: new AbortController().signal, progress: async () => undefined }));
    try {
      assert.match(await search('gamma_word'), /^1 hit\nsrc\/a\.ts\n {2}1: export const gamma_word/, 'the offline edit is found');
      assert.match(await search('alpha_word'), /^no exact match for "alpha_word"/, 'the old text is gone');
      assert.match(await search('beta_word'), /^1 hit\nsrc\/b\.ts\n/);
      const log = readFileSync(path.join(app.dataDir, 'ctxgate.log'), 'utf8');
      const sweep = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.event === 'code_index_reconciled');
      assert.equal(sweep?.by, 'listed', 'the sweep checked find\'s list');
      assert.equal(sweep?.early, true, 'the list started before the app was used');
      // src/a.ts, and src/b.ts too when it was written within a clock tick of its indexing (racy: taken again).
      assert.ok(Number(sweep?.changed) >= 1, JSON.stringify(sweep));
    } finally {
      await app.lifecycle.shutdown('done');
    }
  });
});
