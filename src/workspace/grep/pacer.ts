// The main thread's side of a long search: the event loop gets a turn after every megabyte matched,
// so other calls run meanwhile, and the search ends at the next turn once cancelled.
import type { Pacer } from './matcher.ts';
import { stopped } from './scan-files.ts';

const YIELD_EVERY_CHARS = 1 << 20;

export function createPacer(signal: AbortSignal | undefined, control: Int32Array): Pacer {
  let left = YIELD_EVERY_CHARS;
  return {
    due(chars) {
      left -= chars;
      return left <= 0;
    },
    async turn() {
      left = YIELD_EVERY_CHARS;
      // setImmediate, not setTimeout(0): I/O and other calls get their turn either way, but a timer
      // costs 1–2 ms each (100 turns: 113 ms vs 1 ms on Node, 216 vs 4 on Deno, measured here).
      await new Promise((resolve) => setImmediate(resolve));
      return !signal?.aborted && !stopped(control);
    },
  };
}
