// A code index over fixture files, as the code tests build it: the index the server would open
// (grammars, the fixture as its one workdir, node_modules left out, .gitignore followed), its code.db
// in a fresh data folder. Each test file's indexes are closed and its folders removed when it ends.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after } from 'node:test';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, createCodeIndex } from '../../src/code/index.ts';
import type { CodeStore } from '../../src/code/store.ts';
import { PARSER_VERSION } from '../../src/code/index-shared.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from './env.ts';

const dirs: string[] = [];
const indexes: CodeIndex[] = [];
after(async () => {
  for (const i of indexes) await i.close();
  for (const d of dirs) removeDir(d);
});

/** A folder made for this test file, removed when it ends. */
export function testDir(files: Record<string, string> = {}): string {
  const dir = fixture(files);
  dirs.push(dir);
  return dir;
}

/** An unrefreshed code index of `root` (made from `files`, or an existing folder), with code.db at `dbFile` or in a new data folder. */
export function codeIndexOf(files: Record<string, string> | { root: string }, dbFile?: string): { root: string; index: CodeIndex } {
  const root = 'root' in files && typeof files.root === 'string' ? files.root : testDir(files as Record<string, string>);
  const db = dbFile ?? path.join(testDir(), 'code.db');
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars: createGrammars(runtime),
    logger: { log() {}, file: undefined, close() {} },
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, db, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
  });
  indexes.push(index);
  return { root, index };
}

/** codeIndexOf, refreshed once: every file of the fixture indexed. */
export async function builtIndex(files: Record<string, string> | { root: string }, dbFile?: string): Promise<CodeIndex> {
  const { index } = codeIndexOf(files, dbFile);
  await index.refresh();
  return index;
}

/** builtIndex over an existing code.db (an upgraded one, say), with the store its pass left ready. */
export async function rebuiltIndex(root: string, dbFile: string): Promise<{ index: CodeIndex; store: CodeStore }> {
  const index = await builtIndex({ root }, dbFile);
  const store = await index.ready();
  assert.ok(store, 'the index opens');
  return { index, store };
}

/**
 * A code.db as schema `version` left it, in a fresh folder: one C file `file` of `root`, catalogued
 * and parsed (version 1, id 1), the index complete; the caller writes its rows in that schema's form.
 */
export async function indexAtSchema(version: number, root: string, file: string): Promise<{ db: Database; dbFile: string }> {
  const dbFile = path.join(testDir(), 'code.db');
  const db = await openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS.filter((m) => m.version <= version), pragmas: CODE_DB_PRAGMAS });
  db.exec(`INSERT INTO code_files (id, path, size, mtime_ms, hash, language, lines, parser, version, text_of, parsed_of) VALUES (1, '${file}', 1, 0, '', 'c', 10, ${PARSER_VERSION}, 1, 0, 1);
    INSERT INTO code_meta (key, value) VALUES ('root', '${root.replaceAll("'", "''")}'), ('parser', '${PARSER_VERSION}'), ('complete', '1');`);
  return { db, dbFile };
}
