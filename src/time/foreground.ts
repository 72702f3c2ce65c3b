// Foreground calls and background work: a count of the tool calls being answered, and a wait until
// there are none. Background work that would compete with an answer for the cores (the code index's
// first pass walks and reads the whole project) starts when the calls asking for it have answered.

export interface Foreground {
  /** A call starts; the function returned says it ended (once; a second call does nothing). */
  begin(): () => void;
  /** Resolves once no call is running, or after `maxWaitMs` whatever is running. */
  quiet(maxWaitMs: number): Promise<void>;
  /** Calls running now. */
  readonly running: number;
}

export function createForeground(): Foreground {
  let running = 0;
  const waiting = new Set<() => void>();
  return {
    get running() {
      return running;
    },
    begin() {
      running++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        running--;
        if (running > 0) return;
        for (const wake of [...waiting]) wake();
      };
    },
    quiet(maxWaitMs) {
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, maxWaitMs);
        (timer as { unref?: () => void }).unref?.();
        waiting.add(wake);
      });
    },
  };
}
