// ctx_git reply text: status, diff and log as the model reads them.
import type { OmittedPath } from '../../vcs/diff-secrets.ts';
import { DIFF_MAX_BYTES, DIFF_MAX_LINES, type DiffOptions, type GitDiff, type GitStatus, type LogEntry } from '../../vcs/git.ts';

export function formatStatus(s: GitStatus): string {
  const lines = [`## ${s.branch}`, ...s.entries.map((e) => `${e.xy} ${e.from ? `${e.from} -> ` : ''}${e.path}`)];
  if (!s.entries.length) lines.push('(clean)');
  if (s.truncated) lines.push(`(truncated at ${DIFF_MAX_LINES} entries; pass a narrower cwd)`);
  return lines.join('\n');
}

export function formatDiff(d: GitDiff, options: DiffOptions): string {
  // Only secret-like files changed: "no changes" would be untrue.
  if (!d.diff.trim() && d.omitted.length) return 'nothing to show: every changed file is secret-like';
  if (!d.diff.trim()) return `no ${options.staged ? 'staged ' : ''}changes${options.path ? ` in ${options.path.relative}` : ''}`;
  const note = d.truncated ? `\n(diff truncated at ${DIFF_MAX_LINES} lines / ${DIFF_MAX_BYTES / 1024} KB; narrow it with path, or use stat: true for an overview)` : '';
  return d.diff.replace(/\n$/, '') + note;
}

const LISTED_OMISSIONS = 20;

/** Names the secret-like files a diff left out (issue 11), so their absence is not read as "unchanged". */
export function omittedNote(omitted: OmittedPath[]): string | undefined {
  if (!omitted.length) return undefined;
  const listed = omitted.slice(0, LISTED_OMISSIONS).map((o) => `${o.path} (${o.rule})`);
  const more = omitted.length > LISTED_OMISSIONS ? `, and ${omitted.length - LISTED_OMISSIONS} more` : '';
  return `left out ${omitted.length} secret-like file${omitted.length === 1 ? '' : 's'} (never shown or indexed): ${listed.join(', ')}${more}`;
}

/** Says which of the repository's filters did not run (issue 11), since files they convert may look changed. */
export function filterNote(filters: string[]): string | undefined {
  if (!filters.length) return undefined;
  return `repository filter${filters.length === 1 ? '' : 's'} ${filters.join(', ')} not run (ctx_git starts no program named by repository config); files they convert may show as changed`;
}

/** The reply with each note that applies on a line of its own, in parentheses. */
export function withNotes(text: string, ...notes: (string | undefined)[]): string {
  return [text, ...notes.filter(Boolean).map((n) => `(${n})`)].join('\n');
}

export function formatLog(entries: LogEntry[], oneline: boolean): string {
  if (!entries.length) return 'no commits';
  if (oneline) return entries.map((e) => `${e.hash} ${e.date} ${e.author}: ${e.subject}`).join('\n');
  return entries
    .map((e) => [`commit ${e.hash}`, `Author: ${e.author} <${e.email ?? ''}>`, `Date:   ${e.date}`, '', `    ${e.subject}`, ...(e.body ? ['', ...e.body.split('\n').map((l) => `    ${l}`)] : [])].join('\n'))
    .join('\n\n');
}
