// Child processes working on a database (test/helpers/db-child.ts), on this test's runtime
// ('same') or the other one ('other'), for the multi-process storage tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { denoExecutable, onDeno, repoRoot } from './env.ts';

const CHILD = path.join(repoRoot, 'test', 'helpers', 'db-child.ts');
const DENO = denoExecutable();

export type Which = 'same' | 'other';

function commandFor(which: Which): { command: string; args: string[] } {
  const deno = which === 'same' ? onDeno : !onDeno;
  return deno ? { command: DENO, args: ['run', '-A', CHILD] } : { command: 'node', args: ['--import', 'tsx', CHILD] };
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

