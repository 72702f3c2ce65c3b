// Deno implementation of the runtime shim: Deno's own APIs where they exist, `node:` compatibility
// (identical behaviour, checked on these machines) for the file system and standard streams.
import * as os from 'node:os';
import process from 'node:process';
import { processExists, realScriptPath, sha256Hex, sleepSync, which } from './common.ts';
import { nodeFs } from './node-fs.ts';
import { spawn } from './node-process.ts';
import { bootIdentity, listProcesses, processStartTime, signalProcess, ticksSinceBoot } from './procfs.ts';
import { watchTreeDeno } from './tree-watch.ts';
import { writeStderr, writeStdout } from './std-streams.ts';
import { cpuCount, parentPort, startWorker } from './deno-worker.ts';
import type { FetchHandler, HttpListener, ListenOptions, Runtime, ShutdownSignal } from './types.ts';

interface DenoServer {
  finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoNamespace {
  version: { deno: string };
  build: { os: string };
  pid: number;
  args: string[];
  mainModule: string;
  execPath(): string;
  cwd(): string;
  env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  exit(code: number): never;
  watchFs(path: string, options: { recursive: boolean }): AsyncIterable<{ kind: string; paths: string[] }> & { close(): void };
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
  serve(
    options: { hostname: string; port: number; onListen?: (addr: { hostname: string; port: number }) => void; onError?: (e: unknown) => Response },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
}

const Deno = (globalThis as unknown as { Deno: DenoNamespace }).Deno;

function listen(fetch: FetchHandler, options: ListenOptions): Promise<HttpListener> {
  return new Promise((resolve, reject) => {
    try {
      const server = Deno.serve(
        {
          hostname: options.hostname,
          port: options.port,
          onListen: (addr) =>
            resolve({
              hostname: addr.hostname,
              port: addr.port,
              close: async () => {
                // shutdown() waits for open SSE streams; cap the wait so a stuck client cannot block exit.
                await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
              },
            }),
        },
        fetch,
      );
    } catch (error) {
      reject(error);
    }
  });
}

export function createDenoRuntime(): Runtime {
  return {
    name: 'deno',
    version: Deno.version.deno,
    platform: Deno.build.os,
    pid: Deno.pid,
    execPath: Deno.execPath(),
    resolveModule(specifier) {
      try {
        return import.meta.resolve(specifier);
      } catch {
        return undefined;
      }
    },
    // Deno keeps compiled local modules in its own cache (DENO_DIR).
    cacheCompiledCode() {},
    mainScript: realScriptPath(Deno.mainModule),
    args: Deno.args,
    cwd: () => Deno.cwd(),
    homeDir: () => os.homedir(),
    env: { get: (name) => Deno.env.get(name), toObject: () => Deno.env.toObject() },
    fs: nodeFs,
    stdio: () => ({ stdin: process.stdin, stdout: process.stdout }),
    writeStdout,
    writeStderr,
    onSignal(signal: ShutdownSignal, handler: () => void) {
      Deno.addSignalListener(signal, handler);
      return () => Deno.removeSignalListener(signal, handler);
    },
    onStdinEnd(handler) {
      process.stdin.once('end', handler);
      process.stdin.once('close', handler);
    },
    listen,
    which: (command) => which(command, Deno.env.get('PATH')),
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
    watch: (root, onChange, options) => watchTreeDeno((r, o) => Deno.watchFs(r, o), root, onChange, options),
    sha256Hex,
    exit: (code) => Deno.exit(code),
  };
}
