// Ordered shutdown: hooks run newest first (sessions, then storage), each bounded in time, once.
import { settlesWithin } from '../time/within.ts';
export type ShutdownHook = () => void | Promise<void>;

export interface Lifecycle {
  onShutdown(hook: ShutdownHook): () => void;
  shutdown(reason: string): Promise<void>;
  readonly stopping: boolean;
}

export function createLifecycle(options: { hookTimeoutMs?: number; onError?: (error: unknown) => void } = {}): Lifecycle {
  const hooks: ShutdownHook[] = [];
  let done: Promise<void> | undefined;
  const timeoutMs = options.hookTimeoutMs ?? 5000;

  async function runHook(hook: ShutdownHook): Promise<void> {
    const run = Promise.resolve().then(hook);
    run.catch((error) => options.onError?.(error));
    await settlesWithin(run, timeoutMs);
  }

  return {
    get stopping() {
      return done !== undefined;
    },
    onShutdown(hook) {
      hooks.push(hook);
      return () => {
        const i = hooks.indexOf(hook);
        if (i >= 0) hooks.splice(i, 1);
      };
    },
    shutdown(_reason) {
      done ??= (async () => {
        for (const hook of hooks.splice(0).reverse()) await runHook(hook);
      })();
      return done;
    },
  };
}
