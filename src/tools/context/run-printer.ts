// ctx_run reply text: how a run ended, its output, or where its output went (the output policy).
import type { RunResult, RunSpec } from '../../exec/execute.ts';
import type { ToolReply } from '../registry.ts';
import { keepOutOfContext, type OutputStore } from './output-policy.ts';

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
export async function replyForRun(store: OutputStore, spec: RunSpec, r: RunResult): Promise<ToolReply> {
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
  const indexed = await keepOutOfContext(store, { label: spec.label, kind: 'run', summary: status, text: body, intent: spec.intent, producedBytes: r.truncated ? r.outputBytes : undefined });
  if (indexed) return { ...indexed, structured: { ...structured, ...indexed.structured } };
  const note = r.truncated ? '\n(output longer than 8 MB per stream: the middle was omitted)' : '';
  return { text: `${status}${body ? `\n${body}` : '\n(no output)'}${note}`, structured };
}
