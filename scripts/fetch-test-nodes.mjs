// Installs the Node versions ctxgate supports (22 and 24) from the npm registry into .cache/nodes/<major>/,
// where the package test (test/e2e/package.test.ts) finds them. Run once after cloning, with network:
//   node scripts/fetch-test-nodes.mjs [22 24]
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];
const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
if (!os) throw new Error(`no node binary package for ${process.platform}`);
const pkg = `node-${os}-${process.arch}`;
const root = path.resolve(import.meta.dirname, '..');

let failed = 0;
for (const major of majors) {
  const dir = path.join(root, '.cache', 'nodes', major);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${major}`], { stdio: 'inherit' });
  if (r.status === 0) console.log(`Node ${major}: ${path.join(dir, 'node_modules', pkg, 'bin', 'node')}`);
  else failed++;
}
process.exit(failed ? 1 : 0);
