import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, type CodeIndexDeps, createCodeIndex, FIRST_PASS_DELAY_MS } from '../../src/code/index.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { RACY_MS } from '../../src/textindex/file-identity.ts';
import { type ChangedSince, createChangedSince } from '../../src/workspace/changed-since.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

type Events = { event: string; fields?: Record<string, unknown> }[];

const exec = createExecutor(runtime);
// One set of grammars for the file, as the server keeps one per process (src/app/bootstrap.ts): each
// set compiles every grammar it parses with again.
const grammars = createGrammars(runtime);
const findIn = (root: string): ChangedSince => createChangedSince({ runtime, exec, root, skipDirs: ['node_modules'] });

/**
 * A code index over `root` with its database in `dbFile`, the warm start's list from `changedSince`;
 * `more` by default has find's list used from the first file on (a fixture's few files would be
 * stat'ed one by one otherwise).
 */
function indexAt(root: string, dbFile: string, changedSince: ChangedSince | undefined, events: Events = [], more: Partial<CodeIndexDeps> = { listFromFiles: 0 }): CodeIndex {
  const logger: Logger = { log: (event, fields) => events.push({ event, fields }), file: undefined, close() {} };
  return createCodeIndex({
    fs: runtime.fs,
    grammars,
    logger,
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
    ...(changedSince ? { changedSince } : {}),
    ...more,
  });
}

/** An index of `files` built by a first process and closed; the second process's database file. */
async function builtEarlier(files: Record<string, string>): Promise<{ root: string; dbFile: string }> {
  const root = fixture(files);
  const data = fixture();
  dirs.push(root, data);
  const dbFile = path.join(data, 'code.db');
  const first = indexAt(root, dbFile, undefined);
  await first.refresh();
  await first.close();
  return { root, dbFile };
}

async function candidates(index: CodeIndex, pattern: string): Promise<string[] | undefined> {
  return (await index.text.candidates({ pattern, literal: true, ignoreCase: false }, ''))?.files;
}

const reconciled = (events: Events) => events.find((e) => e.event === 'code_index_reconciled')?.fields;

describe('the warm start from find\'s list of what changed', () => {
  it('finds every kind of change made while no server ran: a same-size same-mtime edit, a deleted file and folder, a new folder, a file in a folder that held none, a folder replaced by a file', async () => {
    const { root, dbFile } = await builtEarlier({
      'src/a.ts': 'export const alpha = 1;\n',
      'src/b.ts': 'export const beta_gone = 2;\n',
      'old/c.ts': 'export const gamma_gone = 3;\n',
      'keep/d.ts': 'export const delta = 4;\n',
      'empty/.keep': '',
      'swap/g.ts': 'export const swapped_out = 7;\n',
    });
    const a = path.join(root, 'src/a.ts');
    const before = statSync(a);
    writeFileSync(a, 'export const omega = 1;\n');
    assert.equal(statSync(a).size, before.size, 'the edit keeps the size');
    utimesSync(a, before.atime, before.mtime);
    rmSync(path.join(root, 'src/b.ts'));
    rmSync(path.join(root, 'old'), { recursive: true });
    mkdirSync(path.join(root, 'fresh/deep'), { recursive: true });
    writeFileSync(path.join(root, 'fresh/deep/e.ts'), 'export const epsilon_new = 5;\n');
    writeFileSync(path.join(root, 'empty/f.ts'), 'export const phi_new = 6;\n');
    rmSync(path.join(root, 'swap'), { recursive: true });
    writeFileSync(path.join(root, 'swap'), 'swapped_in = 8\n');
    const events: Events = [];
    const second = indexAt(root, dbFile, findIn(root), events);
    try {
      // The events say why, when the index could not answer (a sweep not trusted, an error).
      assert.deepEqual(await candidates(second, 'omega'), ['src/a.ts'], `the offline edit is found; events: ${JSON.stringify(events)}`);
      assert.equal(reconciled(events)?.by, 'listed', 'the sweep took find\'s list');
      assert.equal(reconciled(events)?.trusted, true);
      assert.deepEqual(await candidates(second, 'alpha'), [], 'the text the file no longer holds is not a candidate');
      assert.deepEqual(await candidates(second, 'beta_gone'), [], 'a deleted file is gone');
      assert.deepEqual(await candidates(second, 'gamma_gone'), [], 'the files of a deleted folder are gone');
      assert.deepEqual(await candidates(second, 'epsilon_new'), ['fresh/deep/e.ts'], 'a new folder\'s files are found');
      assert.deepEqual(await candidates(second, 'phi_new'), ['empty/f.ts'], 'a file added to a folder that held no catalogued file is found');
      assert.deepEqual(await candidates(second, 'swapped_in'), ['swap'], 'a file that replaced a folder is found');
      assert.deepEqual(await candidates(second, 'swapped_out'), [], 'the folder\'s files are gone');
      assert.deepEqual(await candidates(second, 'delta'), ['keep/d.ts']);
    } finally {
      await second.close();
    }
  });

  it('lets a slow sweep decide before the first pass starts: the pass does not run beside it', async () => {
    // On a loaded machine find took 2.4 s; the first pass (due 1 s after the first call) ran beside the
    // sweep, took the files the sweep had just indexed for changed (written within the racy window of
    // their stat), and the index sent searches to a scan until it had read them again.
    const { root, dbFile } = await builtEarlier({ 'src/a.ts': 'export const alpha = 1;\n', 'src/b.ts': 'export const beta = 2;\n' });
    writeFileSync(path.join(root, 'src/c.ts'), 'export const gamma_late = 3;\n');
    const find = findIn(root);
    const slowFind: ChangedSince = async (since, signal) => {
      await new Promise((r) => setTimeout(r, FIRST_PASS_DELAY_MS + 1500));
      return find(since, signal);
    };
    const events: Events = [];
    const second = indexAt(root, dbFile, slowFind, events);
    try {
      assert.deepEqual(await candidates(second, 'gamma_late'), ['src/c.ts'], JSON.stringify(events));
      const order = events.map((e) => e.event).filter((e) => e === 'code_index_start' || e === 'code_index_reconciled');
      assert.equal(order[0], 'code_index_reconciled', `the sweep ended before any pass began: ${order.join(', ')}`);
      // The first pass's moment has passed: a sweep that took every change counts as that pass.
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!events.some((e) => e.event === 'code_index_start'), 'no pass after a sweep that took every change');
    } finally {
      await second.close();
    }
  });

  it('looks at a folder moved in with its files as they were (find names only the folder) whole: a file of another identity is taken again, a new one found', async () => {
    const { root, dbFile } = await builtEarlier({
      'src/a/b/x.ts': 'export const before_move = 1;\n',
      'src/a/y.ts': 'export const why_gone = 2;\n',
      'src/z.ts': 'export const zeta = 3;\n',
    });
    // Made elsewhere, then moved over src/a: the same paths, other files.
    const elsewhere = fixture({ 'a/b/x.ts': 'export const after_move = 1;\n', 'a/b/w.ts': 'export const new_in_move = 4;\n' });
    dirs.push(elsewhere);
    rmSync(path.join(root, 'src/a'), { recursive: true });
    renameSync(path.join(elsewhere, 'a'), path.join(root, 'src/a'));
    // The moved files' ctimes are new here; on a real move of older files find names only src and src/a.
    const find = findIn(root);
    const oldInside: ChangedSince = async (since, signal) => (await find(since, signal))?.filter((p) => !p.startsWith('src/a/'));
    const events: Events = [];
    const second = indexAt(root, dbFile, oldInside, events);
    try {
      assert.deepEqual(await candidates(second, 'after_move'), ['src/a/b/x.ts'], 'the moved-in file of the same path is taken again');
      assert.equal(reconciled(events)?.by, 'listed');
      assert.deepEqual(await candidates(second, 'before_move'), [], 'the text of the file it replaced is gone');
      assert.deepEqual(await candidates(second, 'new_in_move'), ['src/a/b/w.ts'], 'a file only the moved folder holds is found');
      assert.deepEqual(await candidates(second, 'why_gone'), [], 'a file the moved folder lacks is gone');
      assert.deepEqual(await candidates(second, 'zeta'), ['src/z.ts']);
    } finally {
      await second.close();
    }
  });

  it('relists after a .gitignore edited in place while no server ran: a file it now ignores leaves the catalogue', async () => {
    const { root, dbFile } = await builtEarlier({ '.gitignore': 'build/\n', 'src/keep.ts': 'export const kept_one = 1;\n', 'src/gen.ts': 'export const gen_one = 2;\n' });
    // In place: the folder's entries do not change, only the file's ctime tells.
    writeFileSync(path.join(root, '.gitignore'), 'build/\nsrc/gen.ts\n');
    const events: Events = [];
    const second = indexAt(root, dbFile, findIn(root), events);
    try {
      await candidates(second, 'kept_one');
      assert.ok(reconciled(events)?.changed, 'the sweep saw the .gitignore');
      await second.refresh();
      assert.deepEqual(await candidates(second, 'gen_one'), [], 'the file it now ignores left the catalogue');
      assert.deepEqual(await candidates(second, 'kept_one'), ['src/keep.ts']);
    } finally {
      await second.close();
    }
  });

  it('starts find from the note of the last check when a server starts, before the database is open, and uses that list only when the database records no earlier check', async () => {
    for (const noteFrom of ['before', 'after'] as const) {
      const { root, dbFile } = await builtEarlier({ 'src/a.ts': 'export const alpha = 1;\n', 'src/b.ts': 'export const beta = 2;\n' });
      const a = path.join(root, 'src/a.ts');
      const before = statSync(a);
      writeFileSync(a, 'export const gamma = 1;\n');
      utimesSync(a, before.atime, before.mtime);
      const asked: number[] = [];
      const written: { at: number; files: number }[] = [];
      // 'after': a note later than the database's own record (a database put back from a copy) is not trusted.
      const at = noteFrom === 'before' ? Date.now() - 60_000 : Date.now() + 60_000;
      const changedSince: ChangedSince = (since, signal) => {
        asked.push(since);
        return findIn(root)(since, signal);
      };
      const second = indexAt(root, dbFile, changedSince, [], {
        listFromFiles: 0,
        databaseExists: () => true,
        checkedNote: { read: () => ({ at, files: 2 }), write: (note) => void written.push(note) },
      });
      try {
        assert.equal(second.warm(), true);
        assert.deepEqual(asked, [at - RACY_MS], 'find started from the note at once');
        assert.deepEqual(await candidates(second, 'gamma'), ['src/a.ts'], 'the offline edit is found');
        assert.deepEqual(await candidates(second, 'alpha'), []);
        assert.equal(asked.length, noteFrom === 'before' ? 1 : 2, noteFrom === 'before' ? 'the early list was used' : 'find ran again from the database\'s record');
        if (noteFrom === 'after') assert.ok(asked[1]! < at - RACY_MS);
        assert.equal(written.length, 1, 'the note of this check was written');
        assert.equal(written[0]!.files, 2);
      } finally {
        await second.close();
      }
    }
  });

  it('stats a small catalogue file by file: starting find would cost more', async () => {
    const { root, dbFile } = await builtEarlier({ 'src/a.ts': 'export const alpha = 1;\n' });
    writeFileSync(path.join(root, 'src/a.ts'), 'export const kappa = 1;\n');
    let asked = 0;
    const events: Events = [];
    // The catalogue's own size decides between stats and find here (no listFromFiles of the test's).
    const second = indexAt(
      root,
      dbFile,
      async (since, signal) => {
        asked++;
        return findIn(root)(since, signal);
      },
      events,
      {},
    );
    try {
      assert.deepEqual(await candidates(second, 'kappa'), ['src/a.ts']);
      assert.equal(reconciled(events)?.by, 'stats');
      assert.equal(asked, 0, 'find was not started');
    } finally {
      await second.close();
    }
  });

  it('falls back to a stat of every catalogued file where find cannot list (missing, failed)', async () => {
    const { root, dbFile } = await builtEarlier({ 'src/a.ts': 'export const alpha = 1;\n' });
    writeFileSync(path.join(root, 'src/a.ts'), 'export const sigma = 1;\n');
    const events: Events = [];
    const second = indexAt(root, dbFile, async () => undefined, events);
    try {
      assert.deepEqual(await candidates(second, 'sigma'), ['src/a.ts']);
      assert.equal(reconciled(events)?.by, 'stats');
    } finally {
      await second.close();
    }
  });
});
