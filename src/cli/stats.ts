// `ctxgate stats`: the status page's figures in the terminal, for stdio users (the usage rows are
// shared by every process on the project, so a separate process sees them all).
import type { StatusSnapshot } from '../app/status.ts';
import { formatBytes, formatUsage } from '../tools/context/usage-printer.ts';
import { describeTextIndex } from '../tools/gate/text-index-printer.ts';

function time(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * Text a tool call chose (an action name that failed validation) as it may reach a terminal: control
 * characters written as escapes, so no escape sequence (colours, a window title, a clipboard write)
 * that an agent put into a call runs in the user's terminal.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function formatStatsReport(s: StatusSnapshot): string {
  const lines = [`ctxgate stats — ${s.projectRoot}`, ...formatUsage(s.usage.project, s.usage.project, s.charsPerToken).map((l) => l.replace(/; this server: .*$/, ''))];
  const g = s.gate;
  const refused = g.refused.reduce((n, r) => n + r.count, 0);
  lines.push(`gate: ${g.answered} answered (${g.followed} right after a refusal) · ${refused} refused${refused ? ` (${g.refused.map((r) => `${printable(r.reason)} ${r.count}`).join(', ')})` : ''}`);
  if (s.recent.length) {
    lines.push('recent calls (UTC, newest first):');
    for (const c of s.recent) {
      const what = printable(c.action ? `${c.tool} ${c.action}` : c.tool);
      const outcome = printable(c.detail ? `${c.outcome} (${c.detail})` : c.outcome);
      lines.push(`  ${time(c.at)}  ${what.padEnd(20)} ${outcome.padEnd(18)} ${String(c.durationMs).padStart(6)} ms  reply ${formatBytes(c.replyBytes)}${c.savedBytes ? `, saved ${formatBytes(c.savedBytes)}` : ''}`);
    }
  }
  if ('error' in s.kb) lines.push(`knowledge base: cannot be read now (${s.kb.error})`);
  else lines.push(`knowledge base: ${s.kb.documents} documents, ${s.kb.chunks} chunks, ${formatBytes(s.kb.bytes)} of text; database ${formatBytes(s.kb.databaseBytes)} at ${s.kb.file}`);
  lines.push(`code search: ${s.codeSearch}`);
  lines.push(describeTextIndex(s.textIndex ?? undefined, s.codeIndex ?? undefined));
  lines.push('background jobs and open sessions belong to a running server: see its /status page');
  return lines.join('\n');
}
