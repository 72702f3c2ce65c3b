// Foreground calls and background work: a count of the tool calls being answered, and a wait until
// there are none. Background work that would compete with an answer for the cores (the code index's
// first pass walks and reads the whole project) starts when the calls asking for it have answered.
// The calls that say what they are are listed too (the status page's calls in flight).

/** What a call in flight is, as the status page shows it. */
export interface CallDescription {
  tool: string;
  action?: string;
  /** The arguments in one short, redacted line. */
  args: string;
  /** The client session that made the call. */
  session: string;
}

export interface CallInFlight extends CallDescription {
  startedAt: number;
}

export interface Foreground {
  /** A call starts; the function returned says it ended (once; a second call does nothing). */
  begin(call?: CallDescription): () => void;
  /** Resolves once no call is running, or after `maxWaitMs` whatever is running. */
  quiet(maxWaitMs: number): Promise<void>;
  /** Calls running now. */
  readonly running: number;
  /** The described calls running now, the oldest first. */
  inFlight(): CallInFlight[];
}

export function createForeground(now: () => number = Date.now): Foreground {
  let running = 0;
  const waiting = new Set<() => void>();
  const described = new Set<CallInFlight>();
  return {
    get running() {
      return running;
    },
    // A Set keeps insertion order: the oldest call first.
    inFlight: () => [...described],
    begin(call) {
      running++;
      const entry = call ? { ...call, startedAt: now() } : undefined;
      if (entry) described.add(entry);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        running--;
        if (entry) described.delete(entry);
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
