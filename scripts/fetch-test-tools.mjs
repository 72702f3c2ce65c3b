// Installs what the end-to-end tests run against, from the npm registry, into .cache/ (gitignored):
//   .cache/nodes/<major>/  Node 22 and 24 (npm's node-<os>-<arch>): the package test runs on each
//   .cache/clients/        real clients: Claude Code's CLI (`claude mcp list`), the MCP Inspector, the Pi coding agent
// Run once after cloning, with network: node scripts/fetch-test-tools.mjs [--no-clients]
// Tests that need a missing piece skip and say what to run.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

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

let failed = 0;
const nodes = {};
for (const major of ['22', '24']) {
  const dir = path.join(root, '.cache', 'nodes', major);
  if (npmInstall(dir, [`${nodePackage}@${major}`])) {
    nodes[major] = path.join(dir, 'node_modules', nodePackage, 'bin', 'node');
    console.log(`Node ${major}: ${nodes[major]}`);
  } else failed++;
}
if (!process.argv.includes('--no-clients')) {
  const dir = path.join(root, '.cache', 'clients');
  if (npmInstall(dir, ['@anthropic-ai/claude-code', '@modelcontextprotocol/inspector', '@mariozechner/pi-coding-agent'], nodes['22'])) console.log(`clients: ${path.join(dir, 'node_modules', '.bin')}`);
  else failed++;
}
process.exit(failed ? 1 : 0);
