// The deno executable the test runner, the benchmarks and the tests start: not an npm dependency, since a
// `deno` entry in package.json makes `deno task` run that package's Node launcher (which does not pass
// signals on) and makes a Deno-only `deno install` download a second Deno. In this order:
//   $DENO_BIN; .cache/deno/ (scripts/fetch-test-tools.mjs puts the pinned version there); `deno` on PATH;
//   node_modules/deno/deno, left by an install made before the dependency was dropped.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/** The Deno version CI and the test runner use (scripts/fetch-test-tools.mjs installs it). */
export const DENO_VERSION = '2.9.6';

const root = path.resolve(import.meta.dirname, '..', '..');

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir || dir.includes(`${path.sep}node_modules${path.sep}`)) continue; // an npm bin link is the launcher
    const file = path.join(dir, process.platform === 'win32' ? `${name}.exe` : name);
    if (existsSync(file) && executable(file)) return file;
  }
  return undefined;
}

/** The deno binary, or undefined when there is none (see denoBinaryOrExit for the message). */
export function findDenoBinary() {
  const exe = process.platform === 'win32' ? 'deno.exe' : 'deno';
  const candidates = [process.env.DENO_BIN, path.join(root, '.cache', 'deno', 'node_modules', 'deno', exe), onPath('deno'), path.join(root, 'node_modules', 'deno', exe)];
  return candidates.find((file) => file && existsSync(file) && executable(file));
}

export const NO_DENO = `no deno binary: run \`node scripts/fetch-test-tools.mjs deno\` (puts Deno ${DENO_VERSION} into .cache/deno/), install Deno (https://deno.com), or set DENO_BIN`;

export function denoBinaryOrExit() {
  const deno = findDenoBinary();
  if (deno) return deno;
  console.error(NO_DENO);
  process.exit(1);
}
