// Node.js implementation of the runtime shim.
import * as nodeModule from 'node:module';
import * as os from 'node:os';
import process from 'node:process';
import * as v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { processExists, realScriptPath, sha256Hex, sleepSync, which } from './common.ts';
import { nodeFs } from './node-fs.ts';
import { cpuCount, flagsFromStarter, keepFlagsInWorkers, parentPort, startWorker, useCompileCacheInWorkers } from './node-worker.ts';
import { spawn } from './node-process.ts';
import { bootIdentity, listProcesses, processStartTime, signalProcess, ticksSinceBoot } from './procfs.ts';
import { watchTreeNode } from './tree-watch.ts';
import { writeStderr, writeStdout } from './std-streams.ts';
import type { FetchHandler, HttpListener, ListenOptions, Runtime, ShutdownSignal } from './types.ts';

async function listen(fetch: FetchHandler, options: ListenOptions): Promise<HttpListener> {
  const { serve } = await import('@hono/node-server');
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: options.hostname, port: options.port }, (info) => {
      resolve({
        hostname: info.address,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            // Open SSE streams would keep close() waiting forever.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}

/**
 * WebAssembly functions (SQLite's, RE2's, tree-sitter's) start on V8's baseline code and are
 * recompiled optimized on background threads once they have run enough. With V8's default budget that
 * happened to hundreds of SQLite's functions within a new server's first second — ~0.1 s of CPU taken
 * from its first answer and the finds it waits for, on a 2-core machine. Ten times the budget: what
 * runs hot for longer (an index build, a session's searches) is still optimized, a second later.
 */
const WASM_TIERING_BUDGET = 130_000_000;

/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent (its own choice is
 * up to 4× when the program allocates fast). A code index build allocates fast on the main thread
 * and in the parse worker, and V8's choice kept ~100 MB of garbage in each: the Linux tree's build
 * peaked at 680 MB RSS, with 25% at 562 MB, and took less CPU (618 s against 660: fewer pages touched).
 * Set when a build begins (beginBulkWork), not at start: a new server's heap grows from nothing
 * to ~50 MB in its first second, and at 25% it collected far more often then — its first search on
 * the Linux tree took 364 ms against 322 without (median of five alternated runs of eight servers).
 */
const HEAP_GROWING_PERCENT = 25;
/**
 * Young generations (V8's nurseries) stay small: semi-spaces of this many MB (the parse worker's are
 * larger: parse-pool.ts), where V8 doubles one whenever enough of its objects survive, up to 16 MB,
 * and keeps it — over a minute of work every heap gets there. Most of a server's life is short calls;
 * a small project's whole build (`effect`, 363 files, no bulk pass) peaks at 201–216 MB RSS with
 * this against 261–279 MB without (alternated runs of scripts/lib/build-code-index.ts), for a few
 * per cent more build time. A bulk pass (beginBulkWork) lets them grow: the Linux tree's main thread
 * spent ~11% more CPU with a small one.
 */
const SEMI_SPACE_MB = 2;

function delayWasmTierUp(): void {
  setFlag(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

function setFlag(flag: string): void {
  try {
    v8.setFlagsFromString(flag);
  } catch {
    // a V8 without the flag: its default
  }
}

/**
 * Process-wide flags, read each time a young generation would grow (every heap's) and when a heap is
 * set up (a worker's). Setting up a worker's heap puts the growth factor back to 2, so the worker sets
 * them again as its runtime starts, as handed to it by its starter: none once bulk work has begun.
 */
function keepYoungGenerationsSmall(): void {
  const flags = isMainThread ? ['--semi-space-growth-factor=1', `--min-semi-space-size=${SEMI_SPACE_MB}`] : flagsFromStarter();
  for (const flag of flags) setFlag(flag);
  keepFlagsInWorkers(flags);
}

export function createNodeRuntime(): Runtime {
  delayWasmTierUp();
  keepYoungGenerationsSmall();
  return {
    name: 'node',
    version: process.versions.node,
    platform: process.platform,
    pid: process.pid,
    execPath: process.execPath,
    resolveModule(specifier) {
      try {
        return import.meta.resolve(specifier);
      } catch {
        return undefined;
      }
    },
    beginBulkWork() {
      // Process-wide: read at every heap's next limit, the running workers' too.
      setFlag(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
      // V8's own young generation sizing again (its defaults: growth factor 2, minimum computed).
      setFlag('--semi-space-growth-factor=2');
      setFlag('--min-semi-space-size=0');
      keepFlagsInWorkers([]);
    },
    cacheCompiledCode(dir) {
      // Node 22.1+. A cache that cannot be written or read is not used (enableCompileCache returns why).
      // A namespace import: Node 20, which lacks it, would refuse a named one at link time.
      const { enableCompileCache } = nodeModule as { enableCompileCache?: (dir: string) => unknown };
      if (!enableCompileCache) return;
      try {
        const folder = dir();
        const { status } = (enableCompileCache(folder) ?? {}) as { status?: number };
        const known = (nodeModule as { constants?: { compileCacheStatus?: Record<string, number> } }).constants?.compileCacheStatus;
        if (known && (status === known.ENABLED || status === known.ALREADY_ENABLED)) useCompileCacheInWorkers(folder);
      } catch {
        // no cache this time
      }
    },
    mainScript: realScriptPath(process.argv[1]),
    args: process.argv.slice(2),
    cwd: () => process.cwd(),
    homeDir: () => os.homedir(),
    env: {
      get: (name) => process.env[name],
      toObject: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    },
    fs: nodeFs,
    stdio: () => ({ stdin: process.stdin, stdout: process.stdout }),
    writeStdout,
    writeStderr,
    onSignal(signal: ShutdownSignal, handler: () => void) {
      process.on(signal, handler);
      return () => void process.off(signal, handler);
    },
    onStdinEnd(handler) {
      process.stdin.once('end', handler);
      process.stdin.once('close', handler);
    },
    listen,
    which: (command) => which(command, process.env.PATH),
    spawn,
    // node:http, node:https (and TLS) and node:dns load with the first fetch, not at start.
    resolveHost: async (hostname) => (await import('./node-http.ts')).resolveHost(hostname),
    httpRequest: async (options) => (await import('./node-http.ts')).httpRequest(options),
    processStartTime,
    processExists,
    listProcesses,
    ticksSinceBoot,
    bootIdentity,
    signalProcess,
    sleepSync,
    cpuCount,
    startWorker,
    parentPort,
    watch: watchTreeNode,
    sha256Hex,
    exit: (code) => process.exit(code),
  };
}
