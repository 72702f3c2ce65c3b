// Runs a program's steps (compile, then run) as one unit and turns the outcome into a reply: small
// output verbatim, large output indexed into the knowledge base (the output policy), failures named.
import { keepOutOfContext } from '../kb/output-policy.ts';
import type { AppContext } from '../app/context.ts';
import type { ToolReply } from '../tools/registry.ts';
import { classifyFailure, type FailureKind } from './classify.ts';
import type { Step } from './programs.ts';

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
  /** Set when a compile step failed and the program did not run. */
  compileFailed: boolean;
  failure?: FailureKind;
}

export async function runSteps(app: AppContext, spec: RunSpec): Promise<RunResult> {
  const started = Date.now();
  let last: RunResult | undefined;
  for (const step of spec.steps) {
    const remaining = spec.timeoutMs - (Date.now() - started);
    const r = await app.exec.run({
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
      compileFailed: Boolean(step.compile) && r.exitCode !== 0,
    };
    if (r.exitCode !== 0 || r.timedOut || r.cancelled) break;
  }
  const result = last!;
  const failure = result.cancelled ? undefined : classifyFailure(result);
  if (failure) result.failure = result.compileFailed && failure === 'runtime error' ? 'syntax error' : failure;
  return result;
}

export function statusLine(spec: Pick<RunSpec, 'display'>, r: RunResult): string {
  const end = r.timedOut ? 'timed out' : r.cancelled ? 'cancelled' : r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
  const parts = [end, `${r.durationMs} ms`, spec.display];
  if (r.compileFailed) parts.push('compile step failed');
  if (r.failure) parts.push(r.failure);
  return parts.join(' · ');
}

/** A run's streams as the reply shows them: labelled, trailing newline dropped. */
export function combinedOutput(r: Pick<RunResult, 'stdout' | 'stderr'>): string {
  const parts: string[] = [];
  if (r.stdout) parts.push(`stdout:\n${r.stdout.replace(/\n$/, '')}`);
  if (r.stderr) parts.push(`stderr:\n${r.stderr.replace(/\n$/, '')}`);
  return parts.join('\n');
}

/** The reply for one finished run, following the output policy. */
export async function replyForRun(app: AppContext, spec: RunSpec, r: RunResult): Promise<ToolReply> {
  const status = statusLine(spec, r);
  const body = combinedOutput(r);
  const structured = {
    label: spec.label,
    exit_code: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    truncated: r.truncated,
    durationMs: r.durationMs,
    ...(r.failure ? { failure: r.failure } : {}),
  };
  const indexed = await keepOutOfContext(app, { label: spec.label, kind: 'run', summary: status, text: body, intent: spec.intent });
  if (indexed) return { text: indexed.text, structured: { ...structured, ...indexed.structured } };
  const note = r.truncated ? '\n(output longer than 8 MB per stream: the middle was omitted)' : '';
  return { text: `${status}${body ? `\n${body}` : '\n(no output)'}${note}`, structured };
}
