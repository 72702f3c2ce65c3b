// Runs a program's steps (compile, then run) as one unit: one result, the failure named.
import { classifyFailure, type FailureKind } from './failure.ts';
import type { Step } from './programs.ts';
import type { Executor } from './executor.ts';

/** Bytes kept per stream: the first and last 4 MiB; a runaway process cannot exhaust memory. */
export const RUN_OUTPUT_BYTES = 8 * 1024 * 1024;

export interface RunSpec {
  /** Unique name of this run's output in the knowledge base. */
  label: string;
  /** What ran, for the reply's first line ("python", "argv: ls -la", "go_test ./..."). */
  display: string;
  steps: Step[];
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  timeoutMs: number;
  signal?: AbortSignal;
  intent?: string;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** Bytes the last step wrote to stdout and stderr, including what the capture dropped. */
  outputBytes: number;
  /** Set when a compile step failed and the program did not run. */
  compileFailed: boolean;
  failure?: FailureKind;
}

export async function runSteps(exec: Executor, spec: RunSpec): Promise<RunResult> {
  const started = Date.now();
  let last: RunResult | undefined;
  for (const step of spec.steps) {
    const remaining = spec.timeoutMs - (Date.now() - started);
    const r = await exec.run({
      command: step.command,
      args: step.args,
      cwd: spec.cwd,
      env: spec.env,
      stdin: step.compile ? undefined : spec.stdin,
      timeoutMs: Math.max(1, remaining),
      signal: spec.signal,
      maxOutputBytes: RUN_OUTPUT_BYTES,
      keep: 'head-tail',
    });
    last = {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      cancelled: r.cancelled,
      truncated: r.truncated,
      durationMs: Date.now() - started,
      stdout: r.stdout,
      stderr: r.stderr,
      outputBytes: r.stdoutBytes + r.stderrBytes,
      compileFailed: Boolean(step.compile) && r.exitCode !== 0,
    };
    if (r.exitCode !== 0 || r.timedOut || r.cancelled) break;
  }
  const result = last!;
  const failure = result.cancelled ? undefined : classifyFailure(result);
  if (failure) result.failure = result.compileFailed && failure === 'runtime error' ? 'syntax error' : failure;
  return result;
}
