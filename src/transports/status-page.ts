// The /status page: one self-contained HTML document (inline CSS, one inline script, an inline SVG
// chart; no external assets), readable without script and on a narrow window. The script swaps in
// the freshly rendered body that /status/events sends, so the page and its updates share one renderer.
import type { SessionView, StatusSnapshot } from '../app/status.ts';
import { BASIS_MEANING } from '../kb/usage.ts';
import { formatBytes, tokens } from '../tools/context/usage-printer.ts';
import { describeTextIndex } from '../tools/gate/text-index-printer.ts';
import { shownArgs, shownLabel, shownTail } from './status-redact.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A job's or source's label, escaped; one that holds a credential is not quoted, as in the log. */
function label(text: string): string {
  return escapeHtml(shownLabel(text));
}

/** A call's argument summary (already redacted when it was made), judged once more before it is shown. */
function args(text: string): string {
  const shown = shownArgs(text);
  return !shown ? '—' : shown === text ? `<code>${escapeHtml(text)}</code>` : escapeHtml(shown);
}

/** A call's tool and action, as one name. */
function what(c: { tool: string; action?: string | null }): string {
  return escapeHtml(c.action ? `${c.tool} ${c.action}` : c.tool);
}

/** A job's newest output, escaped, each line that holds a credential replaced by why it is not shown. */
function tail(text: string): string {
  return escapeHtml(shownTail(text));
}

function time(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function table(caption: string, head: string[], rows: string[][], empty: string): string {
  if (!rows.length) return `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<div class="scroll"><table><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell, i) => (i === 0 ? `<th scope="row">${cell}</th>` : `<td>${cell}</td>`)).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

function chart(s: StatusSnapshot): string {
  const width = 480;
  const height = 120;
  const max = Math.max(1, ...s.series.map((b) => b.savedBytes));
  const barWidth = width / Math.max(1, s.series.length);
  const total = s.series.reduce((n, b) => n + b.savedBytes, 0);
  const label = `Bytes saved per ${duration(s.bucketMs)} over the last ${duration(s.bucketMs * s.series.length)}: ${formatBytes(total)} in all, at most ${formatBytes(max === 1 && !total ? 0 : max)} in one interval`;
  const bars = s.series
    .map((b, i) => {
      const h = Math.round((b.savedBytes / max) * (height - 16));
      return `<rect x="${(i * barWidth + 1).toFixed(1)}" y="${height - h}" width="${Math.max(1, barWidth - 2).toFixed(1)}" height="${h}"><title>${time(b.at)}: ${formatBytes(b.savedBytes)} saved, ${b.calls} calls</title></rect>`;
    })
    .join('');
  return `<figure><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}" preserveAspectRatio="none"><line x1="0" y1="${height - 0.5}" x2="${width}" y2="${height - 0.5}" class="axis"/>${bars}</svg><figcaption>${escapeHtml(label)}</figcaption></figure>`;
}

/** A team endpoint's calls and savings per user (Postgres only). */
function teamSection(s: StatusSnapshot): string {
  if (!s.team) return '';
  const cpt = s.charsPerToken;
  const problem = s.team.error ? `<p class="empty">${escapeHtml(`The per-user figures could not be read: ${s.team.error}`)}</p>` : '';
  const rows = s.team.users.map((u) => [
    u.user === null ? '<em>the server\'s own token</em>' : escapeHtml(u.user),
    String(u.calls),
    String(u.refusals),
    String(u.errors),
    formatBytes(u.replyBytes),
    tokens(u.savedBytes, cpt),
    time(u.lastAt),
  ]);
  return `
<section class="wide" aria-labelledby="h-team"><h2 id="h-team">People</h2>
<p>Every server of project <code>${escapeHtml(s.team.projectKey)}</code> records its calls in one database; each names the user whose token made it.</p>
${problem}${table('Calls and savings per user, the most saved first', ['user', 'calls', 'refused', 'errors', 'reply bytes', 'saved', 'last call (UTC)'], rows, 'No calls recorded for this project yet.')}
</section>`;
}

/** The page's body: everything that changes, rendered on the server for the page and for each update. */
export function renderStatusBody(s: StatusSnapshot): string {
  const cpt = s.charsPerToken;
  const p = s.usage.project;
  const savings = `
<section class="wide" aria-labelledby="h-savings"><h2 id="h-savings">Savings</h2>
<p class="big"><strong>${tokens(p.savedBytes, cpt)}</strong> kept out of replies (${formatBytes(p.savedBytes)}) over ${p.calls} calls in this project; this server: ${tokens(s.usage.server.savedBytes, cpt)} over ${s.usage.server.calls} calls.</p>
<p class="note">A call counts only what the agent would otherwise have received: an output or page kept out, hits trimmed to a budget, a block instead of a whole file. Indexing saves nothing by itself.</p>
${chart(s)}
${table('Savings by what they were compared with', ['kind', 'compared with', 'calls', 'would have sent', 'sent', 'saved'], p.byBasis.map((b) => [escapeHtml(b.basis), escapeHtml(BASIS_MEANING[b.basis] ?? ''), String(b.calls), formatBytes(b.rawBytes), formatBytes(b.replyBytes), tokens(b.savedBytes, cpt)]), 'Nothing saved yet.')}
${table('Calls by tool', ['tool', 'calls', 'refused', 'errors', 'median latency', 'reply bytes', 'saved'], p.byTool.map((t) => [escapeHtml(t.tool), String(t.calls), String(t.refusals), String(t.errors), duration(t.p50Ms), formatBytes(t.replyBytes), tokens(t.savedBytes, cpt)]), 'No tool calls yet.')}
</section>`;
  const g = s.gate;
  const gate = `
<section aria-labelledby="h-gate"><h2 id="h-gate">The gate</h2>
<p>${g.answered} answered (${g.followed} right after a refusal) · ${g.refused.reduce((n, r) => n + r.count, 0)} refused</p>
${table('Refusals by reason', ['reason', 'refusals'], g.refused.map((r) => [escapeHtml(r.reason), String(r.count)]), 'No refusals.')}
</section>`;
  const inFlight = `
<section class="wide" aria-labelledby="h-in-flight"><h2 id="h-in-flight">Calls in flight</h2>
${table(
  `${s.inFlight.length} being answered now, the oldest first`,
  ['started (UTC)', 'tool', 'arguments', 'running for', 'session'],
  s.inFlight.map((c) => [time(c.startedAt), what(c), args(c.args), duration(Math.max(0, s.at - c.startedAt)), `<code>${escapeHtml(c.session.slice(0, 8))}</code>`]),
  'No call is being answered now.',
)}
</section>`;
  const recent = `
<section class="wide" aria-labelledby="h-recent"><h2 id="h-recent">Recent calls</h2>
${table(
  'The newest calls first',
  ['time (UTC)', 'tool', 'arguments', 'outcome', 'latency', 'reply', 'saved'],
  s.recent.map((c) => [time(c.at), what(c), args(c.args), escapeHtml(c.detail ? `${c.outcome} (${c.detail})` : c.outcome), duration(c.durationMs), formatBytes(c.replyBytes), c.savedBytes ? formatBytes(c.savedBytes) : '—']),
  'No calls yet.',
)}
</section>`;
  const sessions = `
<section aria-labelledby="h-sessions"><h2 id="h-sessions">MCP sessions</h2>
<p>${escapeHtml(describeSessions(s.sessions))}</p>
${table(
  'The oldest first',
  ['session', 'client', 'state', 'opened (UTC)', 'closes'],
  s.sessions.map((x) => [`<code>${escapeHtml(x.id)}</code>`, escapeHtml(x.client.slice(0, 60) || '(not given)'), escapeHtml(sessionState(x, s.at)), time(x.openedAt), x.endsAt === undefined ? '—' : `in ${duration(Math.max(0, x.endsAt - s.at))} unless it comes back`]),
  'No MCP session is open.',
)}
</section>`;
  const jobs = `
<section aria-labelledby="h-jobs"><h2 id="h-jobs">Background jobs</h2>
${
  s.jobs.length
    ? s.jobs
        .map((j) => {
          const state = j.running ? 'running' : j.endedBy ? `ended (${j.endedBy})` : j.signal ? `killed by ${j.signal}` : `exit ${j.exit_code}`;
          return `<details${j.running ? ' open' : ''}><summary><code>${escapeHtml(j.id)}</code> · ${escapeHtml(state)} · ${duration(j.ageMs)} · ${label(j.label)}</summary><pre>${j.tail ? tail(j.tail) : '(no output yet)'}</pre></details>`;
        })
        .join('')
    : '<p class="empty">No background jobs on this server.</p>'
}
</section>`;
  const kb =
    'error' in s.kb
      ? `<section aria-labelledby="h-kb"><h2 id="h-kb">Knowledge base</h2><p class="warn">Cannot be read now: ${escapeHtml(s.kb.error)}</p></section>`
      : `
<section aria-labelledby="h-kb"><h2 id="h-kb">Knowledge base</h2>
<p>${s.kb.documents} documents, ${s.kb.chunks} chunks, ${formatBytes(s.kb.bytes)} of text; database ${formatBytes(s.kb.databaseBytes)} at <code>${escapeHtml(s.kb.file)}</code></p>
${table('Newest sources', ['source', 'kind', 'chunks', 'size'], s.kb.sources.map((x) => [label(x.label), escapeHtml(x.kind), String(x.chunks), formatBytes(x.bytes)]), 'Nothing indexed yet.')}
</section>`;
  const server = `
<section aria-labelledby="h-server"><h2 id="h-server">Server</h2>
<dl><dt>Project</dt><dd><code>${escapeHtml(s.projectRoot)}</code></dd><dt>Version</dt><dd>${escapeHtml(s.version)}</dd><dt>Up for</dt><dd>${duration(s.at - s.startedAt)}</dd><dt>MCP sessions</dt><dd>${escapeHtml(describeSessions(s.sessions))}</dd><dt>Code search</dt><dd>${escapeHtml(s.codeSearch)}</dd><dt>Text index</dt><dd>${escapeHtml(describeTextIndex(s.textIndex ?? undefined, s.codeIndex ?? undefined))}</dd></dl>
<p class="note">Updated ${time(s.at)} UTC.</p>
</section>`;
  return `${savings}${teamSection(s)}${inFlight}${gate}${jobs}${recent}${sessions}${kb}${server}`;
}

/** `3 open: 1 active, 1 idle, 1 client gone`. */
export function describeSessions(sessions: readonly SessionView[]): string {
  if (!sessions.length) return 'none open';
  const count = (state: SessionView['state']) => sessions.filter((x) => x.state === state).length;
  const parts = [`${count('active')} active`];
  if (count('idle')) parts.push(`${count('idle')} idle`);
  if (count('unused')) parts.push(`${count('unused')} not used since initialize`);
  if (count('gone')) parts.push(`${count('gone')} client gone`);
  return `${sessions.length} open: ${parts.join(', ')}`;
}

function sessionState(x: SessionView, at: number): string {
  if (x.state === 'active') return `active (${x.open} request${x.open === 1 ? '' : 's'} or stream${x.open === 1 ? '' : 's'} open)`;
  if (x.state === 'unused') return 'initialized, nothing since';
  if (x.state === 'gone') return `client hung up ${duration(Math.max(0, at - x.lastSeenAt))} ago`;
  return `idle for ${duration(Math.max(0, at - x.lastSeenAt))}`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--bar:#2f6fdd;--warn:#9a3412}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#30363d;--bar:#58a6ff;--warn:#fb923c}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:.75rem 1rem;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:baseline}
header h1{font-size:1.2rem;margin:0}#live{color:var(--muted);font-size:.85rem}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,26rem),1fr));gap:1rem;padding:1rem}
section{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem 1rem;min-width:0}.wide{grid-column:1/-1}h2{font-size:1.05rem}
.big{font-size:1.05rem}.note,.empty,caption,figcaption{color:var(--muted);font-size:.85rem}.warn{color:var(--warn)}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}caption{text-align:left;padding:.25rem 0}
th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid var(--line);white-space:nowrap}td{font-variant-numeric:tabular-nums}
svg{width:100%;height:7rem;display:block}rect{fill:var(--bar)}.axis{stroke:var(--line)}figure{margin:.5rem 0}
pre{overflow-x:auto;font-size:.8rem;background:color-mix(in srgb,var(--line) 30%,transparent);padding:.5rem;margin:.25rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
code{font-size:.85em}`;

/** The whole page; `nonce` lets exactly its one inline script run under the page's CSP. */
export function renderStatusPage(s: StatusSnapshot, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctxgate status — ${escapeHtml(s.projectRoot)}</title><style>${STYLE}</style></head>
<body><header><h1>ctxgate status</h1><span>${escapeHtml(s.projectRoot)}</span><span id="live" role="status" aria-live="polite">live updates starting…</span></header>
<main id="status">${renderStatusBody(s)}</main>
<script nonce="${nonce}">
(() => {
  const live = document.getElementById('live');
  const main = document.getElementById('status');
  const events = new EventSource('/status/events');
  events.addEventListener('update', (e) => { main.innerHTML = JSON.parse(e.data); live.textContent = 'live'; });
  events.onopen = () => { live.textContent = 'live'; };
  events.onerror = () => { live.textContent = 'reconnecting…'; };
})();
</script></body></html>`;
}

/** What a request without a valid cookie or token gets: why, and a form that takes the token by POST. */
export function renderLoginPage(problem: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>ctxgate status — sign in</title><style>${STYLE}</style></head>
<body><header><h1>ctxgate status</h1></header><main><section aria-labelledby="h-login"><h2 id="h-login">Sign in</h2>
<p>${escapeHtml(problem)}</p>
<p>Open the one-time link <code>ctxgate serve</code> printed, or paste the server's token (from its start-up lines, or the <code>http-token</code> file in its data dir):</p>
<form method="post" action="/status/login"><label for="token">Token</label> <input id="token" name="token" type="password" autocomplete="current-password" required> <button type="submit">Sign in</button></form>
</section></main></body></html>`;
}
