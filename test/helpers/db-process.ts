// Child processes working on a database (test/helpers/db-child.ts), on this test's runtime
// ('same') or the other one ('other'), for the multi-process storage tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atExit } from './at-exit.ts';
import { denoExecutable, onDeno, repoRoot } from './env.ts';

const CHILD = path.join(repoRoot, 'test', 'helpers', 'db-child.ts');
const DENO = denoExecutable();

export type Which = 'same' | 'other';

function commandFor(which: Which): { command: string; args: string[] } {
  const deno = which === 'same' ? onDeno : !onDeno;
  return deno ? { command: DENO, args: ['run', '-A', CHILD] } : { command: 'node', args: [bundledChild()] };
}

let bundled: string | undefined;

/**
 * The child for Node as one ES module, bundled from the sources by esbuild at the first start in this
 * test process (~0.2 s; always the current code). Started through tsx, each Node child cost ~1.4 s of
 * CPU (the loader transforming every module), bundled ~0.3 s — the storage tests start dozens.
 */
function bundledChild(): string {
  if (bundled) return bundled;
  const dir = mkdtempSync(path.join(tmpdir(), 'ctxgate-db-child-'));
  atExit(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'db-child.mjs');
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  // The banner gives bundled CommonJS code its require (esbuild's ESM output has none).
  const banner = "import { createRequire as __ctxgateRequire } from 'node:module'; const require = __ctxgateRequire(import.meta.url);";
  const r = spawnSync(esbuild, [CHILD, '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`, '--log-level=warning', `--banner:js=${banner}`], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`esbuild could not bundle ${CHILD}: ${r.stderr || r.error}`);
  // sqlite-wasm finds its .wasm beside the module that loads it (new URL('sqlite3.wasm', import.meta.url)).
  copyFileSync(path.join(repoRoot, 'node_modules', '@sqlite.org', 'sqlite-wasm', 'dist', 'sqlite3.wasm'), path.join(dir, 'sqlite3.wasm'));
  bundled = out;
  return out;
}

export function child(which: Which, ...args: string[]): string {
  const { command, args: base } = commandFor(which);
  const r = spawnSync(command, [...base, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return `${r.stderr}`.trim();
}

export interface Child {
  proc: ChildProcess;
  output(): string;
  waitFor(text: string | RegExp): Promise<string>;
  send(line: string): void;
  exited: Promise<number | null>;
}

export function startChild(which: Which, ...args: string[]): Child {
  return startChildUnder([], which, ...args);
}

/** Like startChild, the child started by a wrapper command (e.g. `unshare … --`). */
export function startChildUnder(wrapper: readonly string[], which: Which, ...args: string[]): Child {
  const { command: direct, args: base } = commandFor(which);
  const [command, ...line] = [...wrapper, direct, ...base, ...args] as [string, ...string[]];
  const proc = spawn(command, line, { cwd: repoRoot, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let err = '';
  const waiters: (() => void)[] = [];
  proc.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const find = (text: string | RegExp) => (typeof text === 'string' ? (err.includes(text) ? text : undefined) : text.exec(err)?.[0]);
  return {
    proc,
    output: () => err,
    exited,
    send: (line) => proc.stdin?.write(`${line}\n`),
    waitFor: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = find(text);
          if (found !== undefined) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve(found);
          }
        };
        waiters.push(check);
        check();
        void exited.then(() => {
          const found = find(text);
          if (found !== undefined) resolve(found);
          else reject(new Error(`child exited without '${text}': ${err}`));
        });
      }),
  };
}

