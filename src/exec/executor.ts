// Runs one process to completion with one result shape whether it succeeds or fails: a non-zero exit
// is data. Timeout or cancellation ends the whole process group (TERM, then KILL after a grace
// period); when the command is over, whatever it started ends with it, in its group or not (the
// tracker's marker); the executor ends every live command when the server shuts down.
import { AppError, ErrorCode } from '../errors.ts';
import type { ChildHandle, Runtime } from '../runtime/types.ts';
import { CappedOutput, HeadTailOutput } from './output.ts';
import { terminateGroup } from './terminate.ts';
import { settlesWithinLoopTime } from '../time/within.ts';
import { createProcessTracker, type ProcessTracker } from './tracker.ts';

export interface ExecRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept per stream (default 1 MiB); the rest is counted, not stored. */
  maxOutputBytes?: number;
  /** Which bytes to keep when a stream is longer: its start (default), or its start and end. */
  keep?: 'head' | 'head-tail';
  /** Sees raw stdout as it arrives; return true to stop the process (e.g. enough matches). */
  onStdout?: (chunk: Uint8Array) => boolean | undefined;
  /**
   * A program that starts no process of its own (ctxgate's find and ripgrep runs): its group is ended
   * as any command's, but it is not registered for the next server to end, and /proc is not searched
   * for processes it left (a scan of every process: ~50 ms of this thread on a machine with a few
   * dozen, at every run's end).
   */
  leavesNothing?: boolean;
}

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Stopped on purpose by onStdout. */
  stoppedEarly: boolean;
  truncated: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
}

export interface Executor {
  run(request: ExecRequest): Promise<ExecResult>;
  /** Ends every live command and what it started (server shutdown). */
  killAll(): Promise<void>;
  readonly liveCount: number;
}

/** A process cannot receive a NUL byte in its argv: say which argument, instead of failing inside spawn. */
export function checkArgv(command: string, args: readonly string[]): void {
  const i = [command, ...args].findIndex((a) => a.includes('\0'));
  if (i >= 0) throw new AppError(ErrorCode.InvalidArgument, `argv[${i}] contains a NUL byte`, { hint: 'a program cannot receive one in its arguments; pass the data through stdin or a file' });
}
/** How long to wait for the last output once the group is gone (in time the event loop had free). */
export const PIPE_DRAIN_MS = 1000;
const DEFAULT_MAX_OUTPUT = 1024 * 1024;

export function createExecutor(runtime: Runtime, tracker: ProcessTracker = createProcessTracker(runtime)): Executor {
  /** Each live command: how to stop it, and when it is completely over. */
  const live = new Map<ChildHandle, { stop: () => Promise<unknown>; over: Promise<unknown> }>();

  return {
    get liveCount() {
      return live.size;
    },
    async run(request) {
      if (request.signal?.aborted) throw new AppError(ErrorCode.Timeout, 'the call was cancelled before the process started');
      checkArgv(request.command, request.args);
      const started = Date.now();
      const tracked = request.leavesNothing ? undefined : tracker.begin(request.env);
      const child = runtime.spawn(request.command, request.args, { cwd: request.cwd, env: tracked?.env ?? request.env, stdin: request.stdin });
      if (tracked) tracker.started(tracked.marker, child.pid);
      const limit = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
      const capture = () => (request.keep === 'head-tail' ? new HeadTailOutput(Math.ceil(limit / 2), Math.floor(limit / 2)) : new CappedOutput(limit));
      const stdout = capture();
      const stderr = capture();
      let timedOut = false;
      let cancelled = false;
      let stoppedEarly = false;
      let stopping: Promise<boolean> | undefined;
      const stop = () => (stopping ??= terminateGroup(child, child.exited));
      let over!: () => void;
      live.set(child, { stop, over: new Promise<void>((resolve) => (over = resolve)) });

      child.onStdout((chunk) => {
        stdout.push(chunk);
        if (!stoppedEarly && request.onStdout?.(chunk)) {
          stoppedEarly = true;
          void stop();
        }
      });
      child.onStderr((chunk) => stderr.push(chunk));
      const timer = setTimeout(() => {
        timedOut = true;
        void stop();
      }, request.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        void stop();
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });

      const exit = await child.exited;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // The leader exited by itself: still end any grandchildren it left in its group (they would
      // be orphans, and they hold the output pipes open).
      if (!stopping) child.killGroup('SIGKILL');
      await stopping;
      // What left the group (setsid, a double fork) still carries the marker: it ends too, before we
      // wait for the pipes it may hold open.
      try {
        if (tracked) await tracker.finish(tracked.marker);
        await settlesWithinLoopTime(child.closed, PIPE_DRAIN_MS);
      } finally {
        live.delete(child);
        over();
      }

      if (exit.spawnError) {
        const missing = exit.spawnError === 'ENOENT';
        throw new AppError(missing ? ErrorCode.Unavailable : ErrorCode.Internal, missing ? `command '${request.command}' was not found` : `cannot start '${request.command}': ${exit.spawnError}`, {
          hint: missing ? `install ${request.command} or put it on PATH` : undefined,
        });
      }
      return {
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        cancelled,
        stoppedEarly,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutBytes: stdout.bytesSeen,
        stderrBytes: stderr.bytesSeen,
      };
    },
    async killAll() {
      await Promise.all([...live.values()].map(({ stop, over }) => Promise.all([stop(), over])));
    },
  };
}
