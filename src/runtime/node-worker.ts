// Module workers on Node: `worker_threads`. A worker's stdout is drained here, never passed through:
// the parent's stdout may be the MCP stdio transport.
import * as os from 'node:os';
import { parentPort as nodeParentPort, Worker } from 'node:worker_threads';
import type { ParentPort, WorkerHandle } from './types.ts';

/** tsx's loader, when this process runs TypeScript sources through it (tests, scripts). */
function tsxApi(): string | undefined {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
}

let compileCache: string | undefined;

/** The folder this process keeps compiled code in (cacheCompiledCode): workers started from now on use it too. */
export function useCompileCacheInWorkers(dir: string): void {
  compileCache = dir;
}

/**
 * A .ts worker (sources run through tsx): worker threads do not inherit `--import tsx`, so a small
 * bootstrap registers tsx in the worker before importing the module. Node versions that strip types
 * themselves run it directly when tsx is not there.
 */
function create(url: URL): Worker {
  const api = /\.m?ts$/.test(url.pathname) ? tsxApi() : undefined;
  if (!api && compileCache) {
    // A worker compiles its own modules: it keeps them in the process's cache too (node.ts).
    const bootstrap = `import('node:module').then((m) => { try { m.enableCompileCache?.(${JSON.stringify(compileCache)}); } catch {} return import(${JSON.stringify(url.href)}); });`;
    return new Worker(bootstrap, { eval: true, stdout: true });
  }
  if (!api) return new Worker(url, { stdout: true });
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { eval: true, stdout: true });
}

export function startWorker(url: URL): WorkerHandle {
  const worker = create(url);
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
