// The test command: builds the Node bundle, then runs the whole node:test suite under Node (via tsx)
// and under Deno (`deno test -A`). `--node` or `--deno` runs one of them.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { denoBinaryOrExit, findDenoBinary } from './lib/deno-binary.mjs';

const want = process.argv.slice(2);
const runNode = !want.includes('--deno') || want.includes('--node');
const runDeno = !want.includes('--node') || want.includes('--deno');
const filters = want.filter((a) => !a.startsWith('--'));

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'fixtures' ? [] : testFiles(p);
    return d.name.endsWith('.test.ts') ? [p] : [];
  });
}
const files = testFiles('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
// A filter that names no test file would leave both runners to run everything they find.
if (filters.length && !files.length) {
  console.error(`no test file matches ${filters.map((f) => JSON.stringify(f)).join(', ')} (test files are test/**/*.test.ts)`);
  process.exit(1);
}

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.slice(0, 4).join(' ')}${args.length > 4 ? ' …' : ''}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
  return r.status ?? 1;
}

// The deno binary itself (scripts/lib/deno-binary.mjs says where it comes from), found before anything runs;
// tests that start deno themselves (test/helpers/env.ts) take the same one.
// A fresh clone has none yet: the pinned one is fetched from the npm registry first (what the README's
// `npm ci && npm test` needs on a new machine).
if (runDeno && !findDenoBinary()) {
  console.log('no deno binary yet: fetching the pinned Deno into .cache/deno/ (scripts/fetch-test-tools.mjs deno)');
  spawnSync(process.execPath, ['scripts/fetch-test-tools.mjs', 'deno'], { stdio: 'inherit' });
}
const deno = runDeno ? denoBinaryOrExit() : undefined;
if (deno) process.env.DENO_BIN = deno;

let failed = 0;
failed += run('build', process.execPath, ['scripts/build.mjs']);
if (runNode) failed += run('node', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files]);
if (deno) failed += run('deno', deno, ['test', '-A', '--no-check', ...files]);
process.exit(failed ? 1 : 0);
