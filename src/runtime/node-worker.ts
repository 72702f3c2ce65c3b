// Module workers on Node: `worker_threads`. A worker's stdout is drained here, never passed through:
// the parent's stdout may be the MCP stdio transport.
import * as os from 'node:os';
import * as v8 from 'node:v8';
import { parentPort as nodeParentPort, Worker, workerData } from 'node:worker_threads';
import type { ParentPort, StartWorkerOptions, WorkerHandle } from './types.ts';

/**
 * tsx's loader, for a .ts worker on a Node that does not strip types itself (tests and scripts on an
 * older Node run through tsx). A Node that strips types runs the worker's sources directly.
 */
function tsxApi(): string | undefined {
  if ((process.features as { typescript?: unknown }).typescript) return undefined;
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
}

let compileCache: string | undefined;

/**
 * V8 flags this thread keeps that setting up another isolate undoes (V8 puts a young generation's
 * growth factor below 2 back to 2 whenever it sets up a heap, a worker's included): each worker is
 * handed them, and its runtime sets them again as it starts (node.ts).
 */
let keptFlags: readonly string[] = [];

/** The flags workers started from now on set again as they start (replacing the earlier list). */
export function keepFlagsInWorkers(flags: readonly string[]): void {
  keptFlags = [...flags];
}

/** In a worker: the flags the thread that started it kept; none on the main thread. */
export function flagsFromStarter(): readonly string[] {
  const flags = (workerData as { ctxgateFlags?: unknown } | null | undefined)?.ctxgateFlags;
  return Array.isArray(flags) ? flags.filter((f): f is string => typeof f === 'string') : [];
}

/** The folder this process keeps compiled code in (cacheCompiledCode): workers started from now on use it too. */
export function useCompileCacheInWorkers(dir: string): void {
  compileCache = dir;
}

/**
 * A worker that first imports `from` and runs `prelude` with it (as `m`), then imports the worker's
 * module: what must be set up in the thread before that module's own imports load.
 */
function bootstrapped(url: URL, from: string, prelude: string, limits: ResourceLimits): Worker {
  return new Worker(`import(${JSON.stringify(from)}).then((m) => { ${prelude} return import(${JSON.stringify(url.href)}); });`, { eval: true, ...workerOptions(limits) });
}

type ResourceLimits = { maxOldGenerationSizeMb?: number };

/** What every worker is started with: its stdout kept here, its heap limits, the flags to set again. */
function workerOptions(limits: ResourceLimits) {
  return { stdout: true, resourceLimits: limits, workerData: { ctxgateFlags: keptFlags } };
}

/**
 * A .ts worker under tsx: worker threads do not inherit `--import tsx`, so tsx is registered in the
 * worker first (see tsxApi). A bundled worker compiles its own modules: it keeps them in the process's compile
 * cache too (node.ts).
 */
function create(url: URL, options: StartWorkerOptions): Worker {
  const limits: ResourceLimits = options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : {};
  const api = /\.m?ts$/.test(url.pathname) ? tsxApi() : undefined;
  if (api) return bootstrapped(url, api, 'm.register();', limits);
  if (compileCache) return bootstrapped(url, 'node:module', `try { m.enableCompileCache?.(${JSON.stringify(compileCache)}); } catch {}`, limits);
  return new Worker(url, workerOptions(limits));
}

export function startWorker(url: URL, options: StartWorkerOptions = {}): WorkerHandle {
  // Read when the worker's heap is set up, on its thread before its modules run; the worker's runtime
  // then sets back the smaller minimum this thread kept (keptFlags). Once nothing is kept (bulk work,
  // node.ts), V8 sizes young generations itself.
  if (options.semiSpaceMb && keptFlags.length) v8.setFlagsFromString(`--min-semi-space-size=${options.semiSpaceMb}`);
  const worker = create(url, options);
  worker.stdout.resume();
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as never),
    onMessage: (listener) => void worker.on('message', listener),
    onError: (listener) => void worker.on('error', (e) => listener(e instanceof Error ? e : new Error(String(e)))),
    onExit: (listener) => void exit.then(listener),
    setBusy: (busy) => void (busy ? worker.ref() : worker.unref()),
    async terminate() {
      if (!exited) await worker.terminate();
      await exit;
    },
  };
}

export function parentPort(): ParentPort | undefined {
  const port = nodeParentPort;
  if (!port) return undefined;
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer as never),
    onMessage: (listener) => void port.on('message', listener),
  };
}

export function cpuCount(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}
