// Text index benchmark on the Linux tree (issue 14): full build of the trigram index (list, diff,
// read + index, compaction) with peak RSS, index size against the source, candidates() latency for
// rare/common/absent literals and a regex, and the refresh after touching 10 files. The tree is
// copied to a temp folder first (the refresh writes to it; /tmp/linux-full stays untouched).
//
//   node --import tsx scripts/bench-textindex.ts [ROOT]      (default /tmp/linux-full/linux-source-6.1)
//   BENCH_IN_PLACE=1 …   index ROOT where it is, skipping the touch step's writes (no copy)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

const source = process.argv[2] ?? '/tmp/linux-full/linux-source-6.1';
const work = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-text-'));
const inPlace = process.env.BENCH_IN_PLACE === '1';
const root = inPlace ? source : path.join(work, 'tree');
try {
  if (!inPlace) {
    const started = performance.now();
    execFileSync('cp', ['-a', source, root]);
    console.error(`copied ${source} in ${Math.round(performance.now() - started)} ms`);
  }
  // Bundled the way dist/ctxgate.mjs is, so the peak RSS is the product's, not the tsx loader's.
  const bundle = path.join(import.meta.dirname, '..', 'dist', 'bench-build-text-index.mjs');
  execFileSync(process.execPath, ['-e', `require('esbuild').buildSync({ entryPoints: ['scripts/lib/build-text-index.ts'], outfile: ${JSON.stringify(bundle)}, bundle: true, platform: 'node', format: 'esm', external: ['@sqlite.org/sqlite-wasm', 'web-tree-sitter'], banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" }, logLevel: 'warning' })`], { cwd: path.join(import.meta.dirname, '..') });
  const load = loadavg()[0]!.toFixed(2);
  const out = execFileSync(process.execPath, [bundle, root, path.join(work, 'code.db'), inPlace ? '0' : '10'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  rmSync(bundle, { force: true });
  const r = JSON.parse(out.trim().split('\n').pop()!);
  console.log(JSON.stringify({ ...r, loadAvgBefore: load, loadAvgAfter: loadavg()[0]!.toFixed(2) }, null, 2));
} finally {
  rmSync(work, { recursive: true, force: true });
}
