// Compact text forms of knowledge-base replies: what the model reads.
import type { IndexReport } from './indexer.ts';
import type { SearchResponse } from './search.ts';
import type { KbStats, PurgeResult } from './store.ts';

export function formatIndexReport(r: IndexReport): string {
  const lines = [`indexed ${r.indexed} file${r.indexed === 1 ? '' : 's'} from ${r.path} (${r.chunks} chunks, ${r.bytes} bytes)${r.unchanged ? `; ${r.unchanged} unchanged` : ''}`];
  for (const [reason, n] of Object.entries(r.skipped)) {
    const ex = r.examples[reason as keyof IndexReport['examples']] ?? [];
    lines.push(`skipped ${n} (${reason}): ${ex.join(', ')}${n > ex.length ? ', …' : ''}`);
  }
  if (r.capped) lines.push(r.capped);
  if (r.indexed || r.unchanged) lines.push(`search it: ctx_kb {"action":"search","query":"…"${r.path === '.' ? '' : `,"source":"${r.path}"`}}`);
  return lines.join('\n');
}

export function formatSearch(query: string, r: SearchResponse, note?: string): string {
  if (!r.hits.length) return `no matches for "${query}"${note ? `\n${note}` : ''}\ntry other words, or index more sources with ctx_kb index`;
  const head = r.corrected ? `no matches for "${query}"; showing "${r.corrected}"` : `${r.hits.length} result${r.hits.length === 1 ? '' : 's'} for "${query}"`;
  const blocks = r.hits.map((h, i) => {
    const where = h.lines ? `${h.label}:${h.lines[0]}-${h.lines[1]}` : h.label;
    const title = h.title && h.title !== h.label ? ` — ${h.title}` : '';
    const stale = h.stale ? ' [stale: changed since indexing; re-index it]' : '';
    return `${i + 1}. ${where}${title}${stale}\n${h.snippet.replace(/^/gm, '   ')}`;
  });
  return [head, ...blocks, ...(note ? [note] : [])].join('\n');
}

export function formatStats(s: KbStats, file: string): string {
  return [
    `${s.documents} documents, ${s.chunks} chunks, ${s.bytes} bytes of text (database ${s.databaseBytes} bytes at ${file})`,
    `kept out of context: ${s.bytesKeptOut} bytes; returned: ${s.bytesReturned} bytes; ~${s.estTokensSaved} tokens saved`,
    `session_id: ${s.sessionId}`,
  ].join('\n');
}

export function formatPurge(p: PurgeResult): string {
  const what = p.scope === 'project' ? 'the whole knowledge base' : `session ${p.sessionId}`;
  return `${p.dryRun ? 'would delete' : 'deleted'} ${p.documents} documents (${p.chunks} chunks) from ${what}`;
}
