// One code index build in a process of its own (for bench-code.ts: its peak RSS is the build's).
//   node --import tsx scripts/lib/build-code-index.ts ROOT DB_FILE   → one line of JSON
import { statSync } from 'node:fs';
import { createGrammars } from '../../src/code/grammars.ts';
import { createCodeIndex } from '../../src/code/index.ts';
import { CODE_MIGRATIONS } from '../../src/code/schema.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import { openDatabase } from '../../src/storage/database.ts';

const [root, dbFile] = [process.argv[2]!, process.argv[3]!];
const runtime = await loadRuntime();
const baselineMB = Math.round(process.memoryUsage().rss / 1e6);
const index = createCodeIndex({
  fs: runtime.fs,
  grammars: createGrammars(runtime),
  logger: { log: (event, fields) => { if (process.env.BENCH_VERBOSE && !event.endsWith('progress')) console.error(event, JSON.stringify(fields)); }, file: undefined, close() {} },
  workdirs: { dirs: [root] },
  root,
  scan: { excludeDirs: ['node_modules', '.codegraph'], respectGitignore: true },
  openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: ['synchronous=NORMAL'] }),
});
const started = performance.now();
await index.refresh();
const ms = performance.now() - started;
const cpu = process.cpuUsage();
await index.close();
console.log(
  JSON.stringify({ ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), baselineMB, dbMB: +(statSync(dbFile).size / 1e6).toFixed(1) }),
);
