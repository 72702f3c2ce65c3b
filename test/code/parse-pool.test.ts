import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { findDefinitions, usesOf } from '../../src/code/graph.ts';
import { createGrammars } from '../../src/code/grammars.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { createParsePool, type ParsePool, parseInThread } from '../../src/code/parse-pool.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import type { Logger } from '../../src/logging/logger.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { createWorkerPool } from '../../src/workers/pool.ts';
import { bundledWorkerPool } from '../helpers/bundle.ts';
import { fixture, onDeno, removeDir, runtime } from '../helpers/env.ts';

const dirs: string[] = [];
const pools: ParsePool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.close()));
  for (const d of dirs) removeDir(d);
});

const FILES: Record<string, string> = {
  'src/pay.ts': "import { retry } from './retry.ts';\n/** Charges a card. */\nexport function charge(amount: number) {\n  return retry(() => amount);\n}\n",
  'src/retry.ts': 'export function retry<T>(fn: () => T): T {\n  return fn();\n}\n',
  'lib/util.py': 'def helper(x):\n    return x\n\nclass Box:\n    def open(self):\n        return helper(1)\n',
  'cmd/main.go': 'package main\n\nfunc main() {\n\trun()\n}\n\nfunc run() {}\n',
  'kern/alloc.c': '#include "alloc.h"\n\nstatic int kalloc(int n)\n{\n\treturn n;\n}\n\nint use(void)\n{\n\treturn kalloc(2);\n}\n',
};

async function indexWith(parser: ParsePool | undefined, events: string[] = []) {
  const root = fixture(FILES);
  const data = fixture();
  dirs.push(root, data);
  const logger: Logger = { log: (event) => events.push(event), file: undefined, close() {} };
  const grammars = createGrammars(runtime);
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars,
    ...(parser ? { parser } : {}),
    logger,
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, path.join(data, 'code.db'), { exclusive: false, busyTimeoutMs: 2000, migrations: CODE_MIGRATIONS }),
  });
  await index.refresh();
  return index;
}

async function answers(index: Awaited<ReturnType<typeof indexWith>>) {
  const out: Record<string, unknown> = {};
  for (const name of ['charge', 'retry', 'helper', 'open', 'run', 'kalloc']) {
    out[name] = {
      defs: (await findDefinitions(index, name))?.map((d) => `${d.file}:${d.start}-${d.end} ${d.kind} ${d.signature}`),
      uses: (await usesOf(index, name))?.uses.map((u) => `${u.file}:${u.line} ${u.kind} in ${u.caller?.name}`),
    };
  }
  return out;
}

describe('parsing in workers', () => {
  it('builds the same code index in workers as in this thread, for every language', async () => {
    const pool = createParsePool(runtime, createGrammars(runtime), { workers: 2 });
    pools.push(pool);
    const inWorkers = await indexWith(pool);
    assert.equal(pool.mode(), 'workers');
    const inThread = await indexWith(undefined);
    const a = await answers(inWorkers);
    assert.deepEqual(a, await answers(inThread));
    assert.deepEqual((a.charge as { defs: string[] }).defs, ['src/pay.ts:2-5 function function charge(amount: number)']);
    assert.deepEqual((a.kalloc as { uses: string[] }).uses, ['kern/alloc.c:10 call in use']);
    await inWorkers.close();
    await inThread.close();
  });

  it('builds the index in this thread when workers cannot start, and says so in the log', async () => {
    const events: string[] = [];
    const grammars = createGrammars(runtime);
    const pool = createParsePool(
      {
        ...runtime,
        startWorker: () => {
          throw new Error('no threads here');
        },
      },
      grammars,
      { workers: 2, onEvent: (event) => events.push(event) },
    );
    pools.push(pool);
    const index = await indexWith(pool);
    assert.equal(pool.mode(), 'in-thread');
    assert.ok(events.includes('worker_pool_in_thread'));
    assert.deepEqual((await findDefinitions(index, 'retry'))?.map((d) => d.file), ['src/retry.ts']);
    await index.close();
  });

  it('keeps a file whose parse fails in the catalogue without symbols, and indexes the rest', async () => {
    const grammars = createGrammars(runtime);
    let calls = 0;
    const pool = createWorkerPool({
      start: () => {
        throw new Error('in this thread');
      },
      size: 0,
      queueLimit: 2,
      jobTimeoutMs: 1000,
      fallback: (job: Parameters<typeof parseInThread>[1]) => (++calls === 1 ? Promise.reject(new Error('the worker running this job crashed')) : parseInThread(grammars, job)),
    }) as unknown as ParsePool;
    const events: string[] = [];
    const index = await indexWith(pool, events);
    assert.ok(events.includes('code_index_file_error'));
    const defs = await Promise.all(['charge', 'retry', 'helper', 'run', 'kalloc'].map(async (n) => ((await findDefinitions(index, n)) ?? []).length));
    assert.equal(defs.filter((n) => n === 0).length, 1, 'one file lost its symbols, the others kept theirs');
    await index.close();
  });

  it('parses UTF-8 bytes as it parses their text, and counts the lines', async () => {
    const grammars = createGrammars(runtime);
    const text = `${FILES['kern/alloc.c']!}/* café */\nint naïve;\n`;
    const fromText = await parseInThread(grammars, { language: 'c', text, path: 'kern/alloc.c' });
    const fromBytes = await parseInThread(grammars, { language: 'c', bytes: new TextEncoder().encode(text), path: 'kern/alloc.c' });
    assert.deepEqual(fromBytes, fromText);
    assert.equal(fromText.lines, 14);
    assert.match(fromText.parsed.rows.names, /naïve/);
  });

  it('parses in a worker started from the bundle (dist/parse-worker.mjs), grammars loaded inside it', { skip: onDeno && 'the bundle is for Node; Deno starts src/code/parse-worker.ts' }, async () => {
    const pool = bundledWorkerPool('parse-worker.mjs');
    pools.push(pool as unknown as ParsePool);
    const { parsed } = (await pool.run({ language: 'c', text: FILES['kern/alloc.c']! })) as Awaited<ReturnType<typeof parseInThread>>;
    const names = JSON.parse(parsed.rows.names) as [string, number][];
    assert.deepEqual(
      (JSON.parse(parsed.rows.defs) as number[][]).map((d) => names[d[0]!]?.[0]),
      ['kalloc', 'use'],
    );
    assert.deepEqual(parsed.imports, [{ line: 1, source: 'alloc.h' }]);
    // Bytes cross to the worker and are decoded there.
    const fromBytes = (await pool.run({ language: 'c', bytes: new TextEncoder().encode(FILES['kern/alloc.c']!) })) as Awaited<ReturnType<typeof parseInThread>>;
    assert.deepEqual(fromBytes.parsed, parsed);
    assert.equal(fromBytes.lines, 12);
    assert.equal(pool.mode(), 'workers');
  });
});
