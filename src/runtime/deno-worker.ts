// Module workers on Deno: web `Worker`s with `type: 'module'` (they inherit the parent's permissions).
// An error a worker does not handle is reported here and stopped: left alone it would end the parent.
import type { ParentPort, WorkerHandle } from './types.ts';

interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export function startWorker(url: URL): WorkerHandle {
  const worker = new Worker(url.href, { type: 'module' });
  let exited = false;
  let onExit: (() => void) | undefined;
  const exit = new Promise<void>((resolve) => {
    onExit = resolve;
  });
  const stop = () => {
    if (exited) return;
    exited = true;
    worker.terminate();
    onExit?.();
  };
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer ?? []),
    onMessage: (listener) => worker.addEventListener('message', (e) => listener(e.data)),
    onError: (listener) => {
      const fail = (e: Event) => {
        e.preventDefault();
        const message = (e as ErrorEvent).message || 'the worker failed';
        stop();
        listener(new Error(message));
      };
      worker.addEventListener('error', fail);
      worker.addEventListener('messageerror', fail);
    },
    onExit: (listener) => void exit.then(listener),
    setBusy: () => undefined,
    async terminate() {
      stop();
      await exit;
    },
  };
}

export function parentPort(): ParentPort | undefined {
  const scope = globalThis as unknown as Partial<WorkerScope> & { WorkerGlobalScope?: unknown; document?: unknown };
  // Only inside a worker is the global scope a WorkerGlobalScope.
  if (typeof scope.WorkerGlobalScope === 'undefined' || !(globalThis instanceof (scope.WorkerGlobalScope as new () => object))) return undefined;
  const self = scope as WorkerScope;
  return {
    postMessage: (message, transfer) => self.postMessage(message, transfer ?? []),
    onMessage: (listener) => self.addEventListener('message', (e) => listener(e.data)),
  };
}

export function cpuCount(): number {
  return navigator.hardwareConcurrency || 1;
}
