// Clean-up when a test process ends, on both runtimes: Node's test files end with process 'exit';
// Deno's test runner ends without it and dispatches 'unload' instead.
import process from 'node:process';

const onDeno = 'Deno' in globalThis;

export function atExit(fn: () => void): void {
  if (onDeno) globalThis.addEventListener('unload', fn);
  else process.on('exit', fn);
}
