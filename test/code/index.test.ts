import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, symlinkSync, utimesSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { definitionAt, findDefinitions, searchBlocks, usesOf } from '../../src/code/graph.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, createCodeIndex, PARSER_VERSION } from '../../src/code/index.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { createExecutor } from '../../src/exec/executor.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { acquireLease } from '../../src/storage/lease.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';
import { eventually } from '../helpers/process.ts';

const dirs: string[] = [];
// One set of grammars for the file, as the server keeps one per process (src/app/bootstrap.ts): each
// set compiles every grammar it parses with again.
const grammars = createGrammars(runtime);
after(() => {
  for (const d of dirs) removeDir(d);
});

function indexOf(files: Record<string, string>, options: { dbFile?: string; git?: boolean; root?: string } = {}): { root: string; index: CodeIndex; events: { event: string; fields?: Record<string, unknown> }[]; dbFile: string } {
  const root = options.root ?? fixture(files);
  if (options.git) commitAll(root);
  const data = fixture();
  dirs.push(root, data);
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { log: (event, fields) => events.push({ event, fields }), file: undefined, close() {} };
  const dbFile = options.dbFile ?? path.join(data, 'code.db');
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars,
    logger,
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
    ...(options.git ? { git: { runtime, exec: createExecutor(runtime) } } : {}),
  });
  return { root, index, events, dbFile };
}

function commitAll(root: string): void {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
  for (const args of [['init', '-q', '-b', 'main'], ['add', '.'], ['commit', '-q', '-m', 'init']]) execFileSync('git', args, { cwd: root, env });
}

/** The catalogue's paths, sorted. */
async function catalogued(index: CodeIndex): Promise<string[]> {
  const store = await index.ready();
  assert.ok(store, 'the index is built');
  return store.files().map((f) => f.path).sort();
}

const done = (events: { event: string; fields?: Record<string, unknown> }[]) => events.filter((e) => e.event === 'code_index_done').map((e) => e.fields!);

describe('the code index', () => {
  it('is built in the background on first use; until then it does not answer', async () => {
    const { index } = indexOf({ 'src/a.ts': 'export function alpha() {\n  return 1;\n}\n' });
    assert.equal(await index.ready(), undefined);
    assert.equal(index.status().state, 'building');
    await index.refresh();
    assert.ok(await index.ready());
    assert.deepEqual((await findDefinitions(index, 'alpha'))?.map((d) => `${d.file}:${d.start}-${d.end}`), ['src/a.ts:1-3']);
    await index.close();
  });

  it('re-reads only files whose size or mtime changed, and re-parses only those whose content changed', async () => {
    const { root, index, events } = indexOf({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n', 'c.py': 'def c():\n    pass\n' });
    await index.refresh();
    assert.equal(done(events)[0]!.parsed, 3);
    await index.refresh();
    assert.equal(done(events)[1]!.parsed, 0, 'nothing changed: nothing parsed');
    utimesSync(path.join(root, 'a.ts'), new Date(), new Date(Date.now() + 5000));
    writeFileSync(path.join(root, 'b.ts'), 'export const b = 3;\n');
    await index.refresh();
    assert.equal(done(events)[2]!.parsed, 1, 'a.ts was only touched; b.ts changed');
    await index.close();
  });

  it('parses a changed file at the version the text stage committed: the pass after parses nothing', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
    const { root, index, events } = indexOf(files);
    await index.refresh();
    assert.equal(done(events)[0]!.parsed, 40);
    writeFileSync(path.join(root, 'src/m3.py'), 'def renamed_three():\n    return 3\n');
    writeFileSync(path.join(root, 'src/m37.py'), 'def renamed_thirty_seven():\n    return 37\n');
    await index.refresh();
    assert.equal(done(events)[1]!.parsed, 2);
    const store = await index.ready();
    assert.ok(store);
    assert.deepEqual(
      store.files().filter((f) => f.parsed_of !== f.version || f.text_of !== f.version),
      [],
      'every file parsed and indexed at its current version',
    );
    assert.equal((await findDefinitions(index, 'renamed_thirty_seven'))?.length, 1);
    assert.deepEqual(await findDefinitions(index, 'f37'), []);
    await index.refresh();
    assert.equal(done(events)[2]!.parsed, 0, 'nothing changed since: nothing parsed again');
    await index.close();
  });

  it('drops deleted files and picks up new ones on the next pass', async () => {
    const { root, index } = indexOf({ 'a.ts': 'export function gone() {}\n' });
    await index.refresh();
    unlinkSync(path.join(root, 'a.ts'));
    writeFileSync(path.join(root, 'b.ts'), 'export function fresh() {}\n');
    await index.refresh();
    assert.deepEqual(await findDefinitions(index, 'gone'), []);
    assert.equal((await findDefinitions(index, 'fresh'))?.length, 1);
    await index.close();
  });

  it('gives the pages of deleted files back: code.db shrinks after most files are deleted and the next pass', async () => {
    // 60 files (code.db ~1 MB), 55 of them deleted: the pages given back still halve the file and more.
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) {
      const lines = Array.from({ length: 40 }, (_, j) => `export function f${i}x${j}(arg${j}: number): number {\n  const local${i}y${j} = arg${j} * ${j};\n  return g${i}z${j}(local${i}y${j});\n}`);
      files[`src/m${i}.ts`] = `${lines.join('\n')}\n`;
    }
    const { root, index, dbFile } = indexOf(files);
    await index.refresh();
    const full = statSync(dbFile).size;
    for (let i = 5; i < 60; i++) unlinkSync(path.join(root, `src/m${i}.ts`));
    await index.refresh();
    assert.deepEqual(await catalogued(index), Array.from({ length: 5 }, (_, i) => `src/m${i}.ts`).sort());
    const size = statSync(dbFile).size;
    assert.ok(size < full / 2, `code.db ${size} bytes after, ${full} before`);
    assert.equal((await findDefinitions(index, 'f3x7'))?.length, 1, 'what is left still answers');
    await index.close();
  });

  it('takes a warm start\'s sweep as its first pass: a new process does not list every file again right after its first answer', async () => {
    const { root, index, dbFile } = indexOf({ 'a.ts': 'export const alpha = "needle";\n', 'b.ts': 'export const beta = 2;\n' });
    await index.refresh();
    await index.close();
    const events: string[] = [];
    let timerAsked!: () => void;
    const asked = new Promise<void>((resolve) => {
      timerAsked = resolve;
    });
    const second = createCodeIndex({
      fs: runtime.fs,
      grammars,
      logger: { log: (event) => void events.push(event), file: undefined, close() {} },
      workdirs: { dirs: [root] },
      root,
      scan: { excludeDirs: ['node_modules'], respectGitignore: true },
      openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
      // The first pass waits for the calls being answered: this says when it asked.
      whenQuiet: async () => timerAsked(),
    });
    assert.deepEqual((await second.text.candidates({ pattern: 'needle', literal: true, ignoreCase: false }, ''))?.files, ['a.ts']);
    assert.ok(events.includes('code_index_reconciled'), 'the warm start swept the catalogue');
    // The first-pass timer does not hold the process open: this does, until it has asked.
    const alive = setInterval(() => undefined, 1000);
    await asked.finally(() => clearInterval(alive));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    await second.close();
    assert.ok(!events.includes('code_index_start'), `no pass followed the sweep (${events.join(', ')})`);
  });

  it('never answers from a stale parse: a file edited since indexing is parsed again before it is used', async () => {
    const { root, index } = indexOf({ 'a.ts': 'export function target() {\n  return 1;\n}\n' });
    await index.refresh();
    writeFileSync(path.join(root, 'a.ts'), '// moved down\n\n\nexport function target() {\n  helper();\n  return 2;\n}\n');
    assert.deepEqual((await findDefinitions(index, 'target'))?.map((d) => [d.start, d.end]), [[4, 7]]);
    const at = await definitionAt(index, 'a.ts', 5);
    assert.equal(at?.name, 'target');
    unlinkSync(path.join(root, 'a.ts'));
    assert.deepEqual(await findDefinitions(index, 'target'), []);
    await index.close();
  });

  it('skips ignored, secret-like and documentation files as sources of definitions', async () => {
    const { index } = indexOf({
      '.gitignore': 'build/\n',
      'build/out.js': 'function kmalloc() {}\n',
      '.env': 'KEY=1\n',
      'docs/ChangeLog': 'kmalloc() now zeroes\n',
      'docs/guide.md': '# kmalloc\n',
      'mm/slab.c': 'void *kmalloc(int size)\n{\n\treturn 0;\n}\n',
    });
    await index.refresh();
    assert.deepEqual((await findDefinitions(index, 'kmalloc'))?.map((d) => d.file), ['mm/slab.c']);
    await index.close();
  });

  it('resolves imports so that a call through an import is told apart from a same-named function', async () => {
    const { index } = indexOf({
      'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
      'src/other.ts': 'export function add(x: string) {\n  return x;\n}\n',
      'src/main.ts': "import { add } from './math';\nexport function main() {\n  return add(1, 2);\n}\n",
    });
    await index.refresh();
    const uses = await usesOf(index, 'add');
    const call = uses?.uses.find((u) => u.kind === 'call');
    assert.equal(call?.file, 'src/main.ts');
    assert.equal(call?.caller?.name, 'main');
    assert.equal(call?.certainty, 'imported');
    await index.close();
  });

  it('is built by one process at a time: while another holds the build lease, it uses what exists', async () => {
    const { index, events, dbFile } = indexOf({ 'a.ts': 'export const a = 1;\n' });
    await index.refresh();
    await index.close();
    const other = await openDatabase(runtime, dbFile, { busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    const held = await acquireLease(other, 'code-index', 60_000);
    assert.ok(held.ok);
    const again = indexOf({ 'b.ts': 'export const b = 2;\n' }, { dbFile });
    await again.index.refresh();
    assert.ok(again.events.some((e) => e.event === 'code_index_built_elsewhere'));
    assert.equal(done(again.events).length, 0, 'no pass of its own');
    if (held.ok) await held.lease.release();
    other.close();
    await again.index.close();
    assert.equal(done(events).length, 1);
  });

  it('starts again from nothing when its database was built for another folder', async () => {
    const first = indexOf({ 'a.ts': 'export function alpha() {}\n' });
    await first.index.refresh();
    assert.equal((await findDefinitions(first.index, 'alpha'))?.length, 1);
    await first.index.close();
    const other = indexOf({ 'b.ts': 'export function beta() {}\n' }, { dbFile: first.dbFile });
    await other.index.refresh();
    assert.deepEqual(await findDefinitions(other.index, 'alpha'), []);
    assert.equal((await findDefinitions(other.index, 'beta'))?.length, 1);
    await other.index.close();
  });

  it('parses every file again when its database was written by an older extraction: Python docstrings reach questions in words', async () => {
    const files = { 'billing/ledger.py': 'def settle(entries):\n    """Reconcile every unpaid invoice against the bank statement."""\n    return entries\n' };
    const question = 'reconcile every unpaid invoice';
    const first = indexOf(files);
    await first.index.refresh();
    assert.deepEqual((await searchBlocks(first.index, question, () => true, 5))?.hits.map((h) => h.name), ['settle']);
    await first.index.close();
    // What extraction version 5 left: no docstring in any block, and its version in the meta and the catalogue.
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    db.exec(
      "INSERT INTO code_blocks(code_blocks) VALUES ('delete-all'); INSERT INTO code_blocks (rowid, name, signature, doc, body) SELECT d.id, n.name, d.signature, '', '' FROM code_defs d JOIN code_names n ON n.id = d.name_id; UPDATE code_files SET parser = 5; UPDATE code_meta SET value = '5' WHERE key = 'parser'",
    );
    db.close();
    const again = indexOf(files, { dbFile: first.dbFile });
    await again.index.refresh();
    assert.deepEqual((await searchBlocks(again.index, question, () => true, 5))?.hits.map((h) => h.name), ['settle']);
    assert.equal((await again.index.ready())?.meta('parser'), String(PARSER_VERSION));
    await again.index.close();
  });

  it('finds the locals of an index written before it kept them: the schema is upgraded and every file parsed again', async () => {
    const files = { 'src/escape.ts': 'export function escape(input: string) {\n  const escapedId = input\n  return escapedId\n}\n' };
    const first = indexOf(files);
    // What schema 4 and an extraction before locals left: no table of locals (nor the call resolution columns of schema 6).
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= 4) });
    db.exec(`INSERT INTO code_meta (key, value) VALUES ('root', '${first.root.replaceAll("'", "''")}'), ('parser', '6'), ('complete', '1')`);
    db.close();
    const again = indexOf(files, { dbFile: first.dbFile });
    await again.index.refresh();
    const found = await findDefinitions(again.index, 'escapedId', undefined, { locals: true });
    assert.deepEqual(
      found?.map((d) => [d.file, d.line, d.local?.kind, d.local?.in?.name]),
      [['src/escape.ts', 2, 'local', 'escape']],
    );
    // Without asking for locals, definitions alone.
    assert.deepEqual(await findDefinitions(again.index, 'escapedId'), []);
    await again.index.close();
  });

  it('upgrades an index of schema 6: its rows are dropped and every file parsed again into names stored once, and a reference counts two calls on one line', async () => {
    const files = { 'src/steps.ts': 'export function twice(x: number) {\n  return step(step(x));\n}\nexport function step(y: number) {\n  const bumped = y + 1;\n  return bumped;\n}\n' };
    const first = indexOf(files);
    // Schema 6 as its store wrote it, by a parse of today's version: names as text in every row.
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= 6), pragmas: CODE_DB_PRAGMAS });
    const size = statSync(path.join(first.root, 'src/steps.ts')).size;
    db.exec(`
      INSERT INTO code_files (id, path, size, mtime_ms, hash, language, lines, parser, version, text_of, parsed_of) VALUES (1, 'src/steps.ts', ${size}, 0, '', 'typescript', 7, ${PARSER_VERSION}, 1, 0, 1);
      INSERT INTO code_defs (id, file_id, name, kind, signature, start_line, name_line, end_line, exported, bodiless) VALUES (1, 1, 'stale', 'function', 'function stale()', 1, 1, 3, 1, 0);
      INSERT INTO code_refs (name, kind, file_id, line, def_id) VALUES ('gone', 'call', 1, 2, 1);
      INSERT INTO code_locals (name, file_id, line, kind, def_id) VALUES ('old', 1, 2, 'local', 1);
      INSERT INTO code_meta (key, value) VALUES ('root', '${first.root.replaceAll("'", "''")}'), ('parser', '${PARSER_VERSION}'), ('complete', '1');
    `);
    db.close();
    const again = indexOf(files, { root: first.root, dbFile: first.dbFile });
    // The first session after the upgrade: the index is not trusted until every file is parsed again,
    // and the files an answer rests on are parsed on demand.
    assert.equal(await again.index.ready(), undefined);
    const early = await again.index.onDemand(['src/steps.ts']);
    assert.deepEqual(early?.definitionsNamed('step').map((d) => [d.path, d.name_line, d.kind]), [['src/steps.ts', 4, 'function']]);
    await again.index.refresh();
    const store = await again.index.ready();
    assert.equal(store?.db.value('PRAGMA user_version'), CODE_MIGRATIONS.at(-1)?.version);
    assert.deepEqual(await findDefinitions(again.index, 'stale'), []);
    assert.deepEqual((await findDefinitions(again.index, 'step'))?.map((d) => [d.file, d.line, d.kind, d.signature]), [['src/steps.ts', 4, 'function', 'function step(y: number)']]);
    assert.deepEqual(store?.referencesNamed('gone', ['call']), []);
    assert.deepEqual(
      store?.referencesNamed('step', ['call']).map((r) => [r.path, r.line, r.kind, r.n, r.def_name]),
      [['src/steps.ts', 2, 'call', 2, 'twice']],
    );
    assert.deepEqual(store?.localsNamed('bumped').map((l) => [l.path, l.line, l.kind, l.def_name, l.def_kind, l.def_start, l.def_end]), [['src/steps.ts', 5, 'local', 'step', 'function', 4, 7]]);
    assert.deepEqual(store?.localsNamed('old'), []);
    await again.index.close();
  });

  it('stores a name once however many files carry it, and a file parsed again after an edit finds both its known and its new names', async () => {
    const { root, index } = indexOf({
      'a.ts': 'export function alpha(count: number) {\n  const shared = beta(count);\n  return shared;\n}\n',
      'b.ts': 'export function beta(count: number) {\n  const shared = count + 1;\n  return alpha(shared);\n}\n',
    });
    await index.refresh();
    const store = await index.ready();
    assert.ok(store, 'the index is built');
    const names = () => (store.db.all('SELECT name FROM code_names ORDER BY name') as { name: string }[]).map((r) => r.name);
    const before = names();
    assert.equal(new Set(before).size, before.length, 'each name once');
    assert.ok(before.includes('alpha') && before.includes('beta') && before.includes('shared'));
    writeFileSync(path.join(root, 'a.ts'), 'export function alpha(count: number) {\n  const shared = beta(count);\n  return gamma(shared);\n}\nexport function gamma(v: number) {\n  return beta(v);\n}\n');
    await index.refresh();
    const after = names();
    assert.deepEqual(after.filter((n) => !before.includes(n)), ['gamma', 'v'], 'only the new names are added');
    assert.deepEqual((await findDefinitions(index, 'gamma'))?.map((d) => [d.file, d.line, d.signature]), [['a.ts', 5, 'function gamma(v: number)']]);
    assert.deepEqual(store.referencesNamed('beta', ['call']).map((r) => [r.path, r.line, r.def_name]).sort(), [['a.ts', 2, 'alpha'], ['a.ts', 6, 'gamma']]);
    assert.deepEqual(store.referencesNamed('alpha', ['call']).map((r) => [r.path, r.line, r.def_name]), [['b.ts', 3, 'beta']]);
    assert.deepEqual(store.localsNamed('shared').map((l) => [l.path, l.line, l.def_name]).sort(), [['a.ts', 2, 'alpha'], ['b.ts', 2, 'beta']]);
    await index.close();
  });

  it('keeps its own schema version and refuses to touch an index written by a newer ctxgate', async () => {
    const first = indexOf({ 'a.ts': 'export const a = 1;\n' });
    await first.index.refresh();
    await first.index.close();
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    db.exec('PRAGMA user_version=99');
    db.close();
    const again = indexOf({ 'a.ts': 'export const a = 1;\n' }, { dbFile: first.dbFile });
    assert.equal(await again.index.ready(), undefined);
    assert.equal(again.index.status().state, 'unavailable');
    assert.ok(again.events.some((e) => e.event === 'code_index_unavailable'));
    await again.index.close();
  });
});

for (const listing of ['walk', 'git'] as const) {
  describe(`files reported as touched, with the catalogue listed by ${listing === 'git' ? 'git ls-files' : 'a walk'}`, () => {
    it('enter the catalogue only when a listing would take them: ignored files (also by a .gitignore in a subfolder) and symlinks stay out', async () => {
      const { root, index } = indexOf(
        { '.gitignore': 'build/\n*.log\n', 'src/.gitignore': 'gen/\n', 'src/a.ts': 'export function alpha() {}\n' },
        { git: listing === 'git' },
      );
      await index.refresh();
      mkdirSync(path.join(root, 'build'));
      mkdirSync(path.join(root, 'src', 'gen'));
      writeFileSync(path.join(root, 'build', 'out.ts'), 'export function fromBuild() {}\n');
      writeFileSync(path.join(root, 'trace.log'), 'fromLog\n');
      writeFileSync(path.join(root, 'src', 'gen', 'types.ts'), 'export function fromGen() {}\n');
      writeFileSync(path.join(root, 'src', 'late.ts'), 'export function fromLate() {}\n');
      symlinkSync(path.join(root, 'src', 'late.ts'), path.join(root, 'src', 'link.ts'));
      const all = ['build/out.ts', 'trace.log', 'src/gen/types.ts', 'src/late.ts', 'src/link.ts'];
      index.text.touched(all);
      const store = (await index.ready())!;
      // All five are judged in the same run: once the new file is in and parsed, the others have been turned away.
      const parsed = () => {
        const row = store.file('src/late.ts');
        return row !== undefined && row.parsed_of === row.version;
      };
      assert.ok(await eventually(parsed), 'the new file enters the catalogue');
      assert.deepEqual(await catalogued(index), ['src/a.ts', 'src/late.ts']);
      assert.equal((await findDefinitions(index, 'fromLate'))?.length, 1);
      assert.deepEqual(await findDefinitions(index, 'fromBuild'), []);
      assert.deepEqual(await findDefinitions(index, 'fromGen'), []);
      assert.equal(await index.fresh(all), 0, 'asked again, nothing changes');
      assert.deepEqual(await catalogued(index), ['src/a.ts', 'src/late.ts']);
      // The files turned away stop being candidates of every text query too.
      const named = await index.text.candidates({ pattern: 'from', literal: true, ignoreCase: false }, '');
      assert.deepEqual(named?.files, ['src/late.ts']);
      await index.close();
    });

    it('follow an edited .gitignore: files it now ignores leave the catalogue, files it no longer ignores enter it', async () => {
      const { root, index } = indexOf(
        { '.gitignore': '*.log\n', 'notes.log': 'n\n', 'src/a.ts': 'export function alpha() {}\n', 'src/old.ts': 'export function fromOld() {}\n' },
        { git: listing === 'git' },
      );
      await index.refresh();
      assert.deepEqual(await catalogued(index), ['src/a.ts', 'src/old.ts']);
      // Listed by the rules on disk: a search may take the catalogue's verdicts (no .gitignore tested).
      const verdicts = async (i: CodeIndex) => (await i.text.candidates({ pattern: 'from', literal: true, ignoreCase: false }, ''))?.catalogued;
      assert.equal((await verdicts(index))?.('src/old.ts'), true);
      writeFileSync(path.join(root, '.gitignore'), 'src/old.ts\n');
      index.text.touched(['.gitignore']);
      assert.equal(await verdicts(index), undefined, 'a .gitignore touched: the walk judges again');
      const store = (await index.ready())!;
      assert.ok(await eventually(() => store.file('src/old.ts') === undefined && store.file('notes.log') !== undefined), 'a listing follows the new rules');
      assert.deepEqual(await catalogued(index), ['notes.log', 'src/a.ts']);
      assert.deepEqual(await findDefinitions(index, 'fromOld'), []);
      let again = false;
      for (const until = Date.now() + 20_000; !again && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) again = (await verdicts(index)) !== undefined;
      assert.ok(again, 'listed since the change: the verdicts hold again');
      // A change another process saw (its time in the database) counts until a listing begun after it.
      await store.db.writeTransaction(() => store.db.exec(`UPDATE code_meta SET value = '${Date.now() + 60_000}' WHERE key = 'rules_changed_at'`));
      assert.equal(await verdicts(index), undefined);
      await index.close();
    });
  });
}
