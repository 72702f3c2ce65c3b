// Gate benchmark on code nobody here wrote: for a set of symbols with known definition files, is the
// definition in locate's top 1 / top 3, and what did the answer cost in tokens compared with
// `rg -n SYMBOL` for the same question.
//
//   node --import tsx scripts/bench-gate.ts [effect|linux|all] [none|builtin]
//   BENCH_DATA_DIR=/tmp/x …   reuses a data folder (and its code index) across runs
//
// The backend defaults to none (file scans only, comparable with earlier runs); builtin builds the
// code index first and answers from it.
//
// Corpora: the `effect` package's TypeScript sources (npm install effect into /tmp/bench-effect) and
// the Linux 6.1 kernel (apt-get install linux-source-6.1; unpacked into /tmp/linux-full). Both are
// prepared on demand.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadRuntime } from '../src/runtime/index.ts';
import type { Runtime } from '../src/runtime/types.ts';
import type { GraphBackend } from '../src/config/schema.ts';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import { effectSources, linuxTree } from './lib/corpora.ts';

interface Corpus {
  name: string;
  root: () => string;
  /** symbol → acceptable definition files (relative to the root). */
  symbols: Record<string, string[]>;
}

const CORPORA: Corpus[] = [
  {
    name: 'effect',
    root() {
      const dir = effectSources();
      return dir;
    },
    symbols: {
      dual: ['Function.ts'],
      pipe: ['Function.ts'],
      flow: ['Function.ts'],
      absurd: ['Function.ts'],
      makeSemaphore: ['Effect.ts', 'internal/effect/circular.ts'],
      Deferred: ['Deferred.ts'],
      TestClock: ['TestClock.ts'],
      isChunk: ['Chunk.ts'],
      SortedMap: ['SortedMap.ts'],
      fromNullable: ['Either.ts', 'Effect.ts', 'Option.ts', 'internal/core-effect.ts'],
    },
  },
  {
    name: 'linux',
    root() {
      return linuxTree();
    },
    symbols: {
      vfs_read: ['fs/read_write.c'],
      kernel_clone: ['kernel/fork.c'],
      do_sys_open: ['fs/open.c'],
      tcp_sendmsg: ['net/ipv4/tcp.c'],
      ext4_fill_super: ['fs/ext4/super.c'],
      schedule: ['kernel/sched/core.c'],
      mutex_lock: ['kernel/locking/mutex.c', 'include/linux/mutex.h'],
      inode_permission: ['fs/namei.c'],
      list_add: ['include/linux/list.h'],
      kmalloc: ['include/linux/slab.h'],
      copy_from_user: ['include/linux/uaccess.h'],
      task_struct: ['include/linux/sched.h'],
      sk_buff: ['include/linux/skbuff.h'],
      printk: ['include/linux/printk.h'],
      alloc_pages: ['include/linux/gfp.h', 'mm/mempolicy.c'],
    },
  },
];

const tokens = (chars: number) => Math.ceil(chars / 3.5);

async function run(runtime: Runtime, corpus: Corpus, backend: GraphBackend): Promise<void> {
  const root = corpus.root();
  // BENCH_DATA_DIR keeps the data folder (and so a built code index) from one run to the next.
  const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-gate-'));
  const app = createAppContext({ ...runtime, env: { get: (n) => (n === 'CTXGATE_DATA_DIR' ? dataDir : runtime.env.get(n)), toObject: () => ({ ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir }) } }, { projectRoot: root, debug: false, graphBackend: backend });
  if (backend === 'builtin') {
    const started = performance.now();
    await app.code.refresh();
    console.log(`code index built in ${Math.round(performance.now() - started)} ms`);
  }
  const registry = createToolRegistry(TOOLS);
  const call = async (args: Record<string, unknown>) =>
    registry.call('locate', args, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });

  console.log(`\n${corpus.name} (backend ${backend}): ${root}`);
  console.log('symbol              top1 top3  locate tokens  rg -n tokens   saved   ms   (kind any: status, tokens)');
  let top1 = 0;
  let top3 = 0;
  let ours = 0;
  let theirs = 0;
  for (const [symbol, expected] of Object.entries(corpus.symbols)) {
    const started = performance.now();
    const r = await call({ query: symbol, kind: 'definition', max_results: 3 });
    const ms = performance.now() - started;
    const text = r.content.map((c) => c.text).join('\n');
    const results = ((r.structuredContent?.results ?? []) as { file: string }[]).map((x) => x.file);
    const rank = results.findIndex((f) => expected.includes(f));
    if (rank === 0) top1++;
    if (rank >= 0 && rank < 3) top3++;
    const any = await call({ query: symbol, kind: 'any' });
    const anyText = any.content.map((c) => c.text).join('\n');
    const rg = spawnSync('rg', ['--no-config', '-n', symbol, '.'], { cwd: root, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
    const rgTokens = tokens(rg.stdout.length);
    ours += tokens(text.length);
    theirs += rgTokens;
    console.log(
      `${symbol.padEnd(19)} ${rank === 0 ? 'yes ' : 'no  '} ${rank >= 0 && rank < 3 ? 'yes ' : 'no  '} ${String(tokens(text.length)).padStart(13)}  ${String(rgTokens).padStart(12)}  ${`${Math.round((1 - tokens(text.length) / Math.max(1, rgTokens)) * 100)}%`.padStart(6)} ${String(Math.round(ms)).padStart(5)}   (${String(any.structuredContent?.status ?? 'error')}, ${tokens(anyText.length)})${rank < 0 ? `  got: ${results.join(', ')}` : ''}`,
    );
  }
  const n = Object.keys(corpus.symbols).length;
  console.log(`${corpus.name}: top1 ${top1}/${n}, top3 ${top3}/${n}; locate answers ${ours} tokens in all vs ${theirs} for rg -n (${Math.round((1 - ours / theirs) * 100)}% fewer)`);
  await app.lifecycle.shutdown('bench done');
  if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
}

const which = process.argv[2] ?? 'all';
const backend = (process.argv[3] ?? 'none') as GraphBackend;
const runtime = await loadRuntime();
for (const corpus of CORPORA) if (which === 'all' || which === corpus.name) await run(runtime, corpus, backend);
