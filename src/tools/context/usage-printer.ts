// The savings and usage figures as people and models read them (ctx_kb stats, `ctxgate stats`). Every
// saving names what it was compared with; indexing alone never counts.
import { BASIS_MEANING, type SavingBasis, type UsageTotals } from '../../kb/usage.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function calls(n: number): string {
  return `${n} call${n === 1 ? '' : 's'}`;
}

export function tokens(bytes: number, charsPerToken: number): string {
  return `~${Math.round(bytes / charsPerToken).toLocaleString('en-US')} tokens`;
}

/** Savings and calls, for the project (every process) and for this server. */
export function formatUsage(project: UsageTotals, server: UsageTotals, charsPerToken: number): string[] {
  if (!project.calls) return ['no tool calls recorded yet'];
  const lines = [
    `saved ${tokens(project.savedBytes, charsPerToken)} (${formatBytes(project.savedBytes)}) over ${calls(project.calls)} in this project; this server: ${tokens(server.savedBytes, charsPerToken)} over ${calls(server.calls)}`,
  ];
  for (const b of project.byBasis) {
    const meaning = BASIS_MEANING[b.basis as SavingBasis];
    lines.push(`  ${b.basis}${meaning ? ` (compared with ${meaning})` : ''}: ${b.calls} call${b.calls === 1 ? '' : 's'}, ${formatBytes(b.rawBytes)} → ${formatBytes(b.replyBytes)} in replies`);
  }
  lines.push(
    `by tool: ${project.byTool
      .map((t) => `${t.tool} ${t.calls}${t.savedBytes ? ` (saved ${tokens(t.savedBytes, charsPerToken)})` : ''}${t.refusals ? ` ${t.refusals} refused` : ''}${t.errors ? ` ${t.errors} errors` : ''}`)
      .join(' · ')}`,
  );
  return lines;
}
