// Installs what the end-to-end tests run against, from the npm registry, into .cache/ (gitignored):
//   .cache/nodes/<major>/  Node 22 and 24 (npm's node-<os>-<arch>): the package test runs on each
//   .cache/clients/        real clients: Claude Code's CLI (`claude mcp list`), the MCP Inspector, the Pi coding agent
//   .cache/deno/           Deno (npm's `deno`, its install script allowed here): what `npm test` runs the suite under
// Run once after cloning, with network: node scripts/fetch-test-tools.mjs [deno] [nodes] [clients]
// (no names: all three; --no-clients: deno and nodes). Tests that need a missing piece skip and say what to run.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DENO_VERSION } from './lib/deno-binary.mjs';

const root = path.resolve(import.meta.dirname, '..');
const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
if (!os) throw new Error(`no node binary package for ${process.platform}`);
const nodePackage = `node-${os}-${process.arch}`;

function npmInstall(dir, packages, nodeBin) {
  mkdirSync(dir, { recursive: true });
  // Run npm on the given Node (the clients need Node 22 or later, also for their install scripts).
  const env = nodeBin ? { ...process.env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}` } : process.env;
  const r = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', ...packages], { stdio: 'inherit', env });
  return r.status === 0;
}

const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wanted = (what) => (named.length ? named.includes(what) : what !== 'clients' || !process.argv.includes('--no-clients'));

let failed = 0;
if (wanted('deno')) {
  // Not a dev dependency (see scripts/lib/deno-binary.mjs); npm runs its install script here, which puts the binary in place.
  const dir = path.join(root, '.cache', 'deno');
  if (npmInstall(dir, [`deno@${DENO_VERSION}`])) console.log(`Deno ${DENO_VERSION}: ${path.join(dir, 'node_modules', 'deno', 'deno')}`);
  else failed++;
}
const nodes = {};
for (const major of wanted('nodes') ? ['22', '24'] : []) {
  const dir = path.join(root, '.cache', 'nodes', major);
  if (npmInstall(dir, [`${nodePackage}@${major}`])) {
    nodes[major] = path.join(dir, 'node_modules', nodePackage, 'bin', 'node');
    console.log(`Node ${major}: ${nodes[major]}`);
  } else failed++;
}
if (wanted('clients')) {
  const dir = path.join(root, '.cache', 'clients');
  if (npmInstall(dir, ['@anthropic-ai/claude-code', '@modelcontextprotocol/inspector', '@mariozechner/pi-coding-agent'], nodes['22'])) console.log(`clients: ${path.join(dir, 'node_modules', '.bin')}`);
  else failed++;
}
process.exit(failed ? 1 : 0);
