// One ticker for every open /status/events stream: each tick renders the status once and hands the
// same body to every subscriber whose last body differs, so ten open pages cost what one does. The
// ticker runs only while someone listens.

export interface StatusFeed {
  /** Calls `onBody` with the current body soon, then whenever it changes; returns the unsubscribe. */
  subscribe(onBody: (body: string) => void): () => void;
  /** Subscribers right now. */
  size(): number;
  close(): void;
}

export function createStatusFeed(render: () => Promise<string>, everyMs: number): StatusFeed {
  const subscribers = new Map<(body: string) => void, { last?: string }>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let current: string | undefined;
  let rendering: Promise<void> | undefined;

  function tick(): Promise<void> {
    // A tick that is still rendering when the next is due is not started twice.
    rendering ??= render()
      .then((body) => {
        current = body;
        for (const [onBody, seen] of subscribers) deliver(onBody, seen, body);
      })
      .catch(() => {
        // A render that failed this time is tried again at the next tick.
      })
      .finally(() => {
        rendering = undefined;
      });
    return rendering;
  }

  function deliver(onBody: (body: string) => void, seen: { last?: string }, body: string): void {
    if (seen.last === body) return;
    seen.last = body;
    onBody(body);
  }

  return {
    subscribe(onBody) {
      const seen: { last?: string } = {};
      subscribers.set(onBody, seen);
      if (!timer) {
        timer = setInterval(() => void tick(), everyMs);
        void tick();
      } else if (current !== undefined) {
        queueMicrotask(() => subscribers.has(onBody) && deliver(onBody, seen, current!));
      }
      return () => {
        subscribers.delete(onBody);
        if (subscribers.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
          current = undefined;
        }
      };
    },
    size: () => subscribers.size,
    close() {
      subscribers.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
