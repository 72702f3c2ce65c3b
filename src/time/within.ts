// Racing a promise against a timer, the one way: the timer is always cleared, so a settled race
// never keeps the process alive, and an abort signal can end the wait early.

/** True when `promise` settles within `ms` (a rejection counts as settled), false when time runs out or `signal` aborts first. */
export async function settlesWithin(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
        if (signal) {
          onAbort = () => resolve(false);
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** How much of a wait one loop turn may count at most (see settlesWithinLoopTime). */
const TURN_MS = 25;

/**
 * Like settlesWithin, but `ms` counts only time in which the event loop was free to deliver the
 * settlement: the wait goes in short timer steps, and a step that took far longer (the loop was busy
 * with other work) counts as two steps. A settlement that needs I/O (a pipe's end) is not lost to a
 * deadline that passed while the loop could not read it: libuv runs timers before I/O in each turn.
 */
export async function settlesWithinLoopTime(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  const done = promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let counted = 0; counted < ms; ) {
    const before = Date.now();
    if (await settlesWithin(done, TURN_MS)) return true;
    counted += Math.min(Date.now() - before, 2 * TURN_MS);
  }
  return settled;
}

/** Resolves after `ms`; `unref`: the timer does not keep the process alive meanwhile (a wait before background work). */
export function sleep(ms: number, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (options.unref) (timer as { unref?: () => void }).unref?.();
  });
}
