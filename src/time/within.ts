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

/** Resolves after `ms`; `unref`: the timer does not keep the process alive meanwhile (a wait before background work). */
export function sleep(ms: number, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (options.unref) (timer as { unref?: () => void }).unref?.();
  });
}
