// ctx_kb reply text: index reports, search hits, fetches, stats and purges as the model reads them.
import type { FetchOutcome } from '../../kb/fetch.ts';
import type { IndexReport } from '../../kb/indexer.ts';
import type { StorePeers } from '../../kb/knowledge-store.ts';
import type { SearchResponse } from '../../kb/search.ts';
import type { KbStats, PurgeResult } from '../../kb/store.ts';
import { MAX_BODY_BYTES } from '../../net/fetch-url.ts';

export function formatIndexReport(r: IndexReport): string {
  if (r.busyBy) {
    const since = Math.max(0, Math.round((Date.now() - r.busyBy.since) / 1000));
    return [
      `${r.path} is being indexed right now by pid ${r.busyBy.pid} (started ${since} s ago), so this call did not index it again`,
      `what it has committed is searchable already: ctx_kb {"action":"search","query":"…"${r.path === '.' ? '' : `,"source":"${r.path}"`}}; call index again once it is done to pick up the rest`,
    ].join('\n');
  }
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

export function formatStats(s: KbStats, file: string, usage: string[]): string {
  return [
    `${s.documents} documents, ${s.chunks} chunks, ${s.bytes} bytes of text (database ${s.databaseBytes} bytes at ${file})`,
    ...usage,
    `session_id: ${s.sessionId}`,
  ].join('\n');
}

export function formatPurge(p: PurgeResult): string {
  const what =
    p.scope === 'session'
      ? `session ${p.sessionId}`
      : p.scope === 'team'
        ? "the team's whole knowledge base for this project (every checkout's documents)"
        : p.origin !== undefined
          ? `this checkout (${p.origin}): the documents it wrote last`
          : 'the whole knowledge base';
  const lines = [`${p.dryRun ? 'would delete' : 'deleted'} ${p.documents} documents (${p.chunks} chunks) from ${what}`];
  const left = p.remaining;
  if (left) {
    const by = left.byOrigin.slice(0, 5).map((o) => `${o.documents} from ${o.origin}`);
    const more = left.byOrigin.length > 5 ? `, and ${left.byOrigin.length - 5} more checkouts` : '';
    lines.push(`${p.dryRun ? 'would remain' : 'remaining'}: ${left.documents} documents (${left.chunks} chunks)${by.length ? `: ${by.join(', ')}${more}` : ''}`);
    if (p.scope === 'project' && left.documents > 0) lines.push(`other checkouts' documents were left alone; scope=team with confirm:true deletes every checkout's`);
  }
  return lines.join('\n');
}

export function formatFetch(outcomes: FetchOutcome[], source: string): string {
  return outcomes
    .map((o) => {
      if (o.error) return `✗ ${o.url}: ${o.error}`;
      const head = o.cached
        ? `${o.url}: cached copy (${o.chunks} chunks); pass force:true to fetch again`
        : `${o.url}: HTTP ${o.status}, ${o.bytes} bytes → ${o.chunks} chunks${o.title ? ` — "${o.title}"` : ''}`;
      const lines = [head];
      if (o.truncated) lines.push(`body truncated at ${MAX_BODY_BYTES / 1024 / 1024}MB: only the first 10 MB were indexed`);
      if (o.preview) lines.push(o.preview);
      lines.push(`search it: ctx_kb {"action":"search","query":"…","source":${JSON.stringify(o.url)}}`);
      return lines.join('\n');
    })
    .join('\n\n')
    .concat(outcomes.length > 1 ? `\n\n(source "${source}")` : '');
}

/** doctor's line about who else uses a team's knowledge base. */
export function describePeers(p: StorePeers | undefined): string {
  if (!p) return 'shared knowledge base: who else uses it is unknown (the database did not answer)';
  const minutes = Math.round(p.windowMs / 60_000);
  const checkouts = p.origins.map((o) => `${o.documents} from ${o.origin}${o.origin === p.origin ? ' (this checkout)' : ''}`).join(', ');
  return [
    `shared knowledge base: ${p.connections} ctxgate connection${p.connections === 1 ? '' : 's'} to the database (every project in it${p.hosts ? `; from ${p.hosts} address${p.hosts === 1 ? '' : 'es'}` : ''})`,
    `${p.servers} server${p.servers === 1 ? '' : 's'} recorded calls for this project in the last ${minutes} min`,
    `documents by checkout: ${checkouts || 'none yet'}`,
  ].join('; ');
}
