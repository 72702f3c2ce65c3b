// Questions in words over definition blocks indexed without word positions (code.db schema 8), and
// the upgrade of an index whose blocks kept them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { searchBlocks } from '../../src/code/graph.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import { type CodeIndex, createCodeIndex } from '../../src/code/index.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../../src/code/schema.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});

function indexOf(files: Record<string, string>, dbFile?: string): { index: CodeIndex; dbFile: string; events: { event: string; fields?: Record<string, unknown> }[] } {
  const root = fixture(files);
  const data = fixture();
  dirs.push(root, data);
  const file = dbFile ?? path.join(data, 'code.db');
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { log: (event, fields) => events.push({ event, fields }), file: undefined, close() {} };
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars: createGrammars(runtime),
    logger,
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, file, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS }),
  });
  return { index, dbFile: file, events };
}

const FILES = {
  'src/retry.ts': [
    '/** Count each attempt. */',
    'export function countRetry(attempts: number[]) {',
    '  return attempts.length;',
    '}',
    '/** Retry until the count is reached. */',
    'export function loop(limit: number) {',
    '  return limit;',
    '}',
    'export class RetryCount {',
    '  total = 0;',
    '}',
    'export function drain(queue: string[]) {',
    '  const retry = queue.shift();',
    '  const count = queue.length;',
    '  return [retry, count].join(",");',
    '}',
    '',
  ].join('\n'),
};

const names = async (index: CodeIndex, question: string) => (await searchBlocks(index, question, () => true, 5))?.hits.map((h) => h.name);

describe('questions in words over definition blocks', () => {
  it('ranks the question as a phrase in a name, or all its words in a doc comment, above its words apart in a name and doc comment, and those above its words in a body', async () => {
    const { index } = indexOf(FILES);
    await index.refresh();
    assert.deepEqual(await names(index, 'retry count'), ['loop', 'RetryCount', 'countRetry', 'drain']);
    await index.close();
  });

  it('upgrades an index whose blocks kept word positions: every file parsed again, the same answers, the freed pages given back', async () => {
    const first = indexOf(FILES);
    await first.index.refresh();
    await first.index.close();
    // What schema 7 left: the blocks with positions (detail=full).
    const db = await openDatabase(runtime, first.dbFile, { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS });
    db.exec(
      "DROP TABLE code_blocks; CREATE VIRTUAL TABLE code_blocks USING fts5(name, signature, doc, body, content='', contentless_delete=1, tokenize='porter unicode61'); PRAGMA user_version=7;",
    );
    db.close();
    const again = indexOf(FILES, first.dbFile);
    await again.index.refresh();
    const store = await again.index.ready();
    assert.ok(store, 'the index is built');
    assert.equal(store.db.value('PRAGMA user_version'), 8);
    assert.match(String(store.db.value("SELECT sql FROM sqlite_schema WHERE name = 'code_blocks'")), /detail=column/);
    assert.equal(again.events.find((e) => e.event === 'code_index_done')?.fields?.parsed, 1, 'its file parsed again');
    assert.deepEqual(await names(again.index, 'retry count'), ['loop', 'RetryCount', 'countRetry', 'drain']);
    assert.equal(store.db.value('PRAGMA freelist_count'), 0, 'no free pages kept in the file');
    await again.index.close();
  });
});
