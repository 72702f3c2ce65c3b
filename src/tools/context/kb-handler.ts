
import { AppError, ErrorCode, messageOf } from '../../errors.ts';
import { availableRuntimes } from '../../exec/programs.ts';
import { floodCheck, floodCompleted, floodError } from '../../kb/flood-guard.ts';
import { fetchMany } from '../../kb/fetch.ts';
import { currentFiles } from '../../kb/file-digest.ts';
import type { StorePeers } from '../../kb/knowledge-store.ts';
import { databaseBytes } from '../../kb/open.ts';
import { indexPath, MAX_FILE_BYTES } from '../../kb/indexer.ts';
import { resolveSafe } from '../../security/resolve-safe.ts';
import { databaseUse } from '../../storage/database-users.ts';
import { loadSqlite } from '../../storage/sqlite.ts';
import { describeTextIndex } from '../gate/text-index-printer.ts';
import { byAction, type ToolCallContext } from '../registry.ts';
import { describePeers, formatFetch, formatIndexReport, formatPurge, formatSearch, formatStats } from './kb-printer.ts';
import { formatUsage } from './usage-printer.ts';
import type { CtxKbArgs } from './kb.ts';

const SEARCH_LIMIT = 5;

// The ctxmode spec names fetch's `maxBytes`/`timeoutMs` and purge's `sessionId`/`dryRun` in camelCase
// (ctx_kb's only camelCase parameters; every other tool parameter is snake_case).

type Args = CtxKbArgs;

async function index(args: Args, ctx: ToolCallContext) {
  if (!args.path) throw new AppError(ErrorCode.InvalidArgument, 'index needs a path', { hint: "e.g. {action:'index', path:'docs'}" });
  const target = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, args.path);
  const kb = await ctx.app.kb.get();
  const report = await indexPath(ctx.app.runtime.fs, kb, target, {
    workdirs: ctx.app.workdirs,
    respectGitignore: ctx.app.config.scan.respectGitignore,
    signal: ctx.signal,
    progress: (done, total, message) => ctx.progress(done, total, message),
  });
  // Indexing saves nothing by itself: only a later answer that sends less than the source does.
  return { text: formatIndexReport(report), structured: { ...report } };
}

async function search(args: Args, ctx: ToolCallContext) {
  if (!args.query?.trim()) throw new AppError(ErrorCode.InvalidArgument, 'search needs a query', { hint: "e.g. {action:'search', query:'retry backoff'}" });
  const state = ctx.session.flood;
  const verdict = floodCheck(state, Date.now());
  if (verdict.kind === 'reject') throw floodError(verdict);
  const kb = await ctx.app.kb.get();
  const limit = verdict.kind === 'throttle' ? Math.ceil(SEARCH_LIMIT / 2) : SEARCH_LIMIT;
  const fs = ctx.app.runtime.fs;
  const result = await kb.search({ query: args.query, limit, source: args.source }, currentFiles(fs, MAX_FILE_BYTES));
  floodCompleted(state, Date.now());
  const note = verdict.kind === 'throttle' ? `(throttled: ${verdict.completed + 1} searches in 60 s, so fewer results; read the sources above instead of searching again)` : undefined;
  const text = formatSearch(args.query, result, note);
  return { text, structured: { ...result, throttled: verdict.kind === 'throttle' } };
}

async function fetchAction(args: Args, ctx: ToolCallContext) {
  const urls = requireOneOf(args.url, args.urls);
  const source = args.source ?? 'web';
  const outcomes = await fetchMany(ctx.app.kb, ctx.app.net, urls, {
    source,
    format: args.format ?? 'markdown',
    force: args.force ?? false,
    ttlMs: args.ttl ?? 24 * 3_600_000,
    timeoutMs: args.timeoutMs ?? 150_000,
    previewBytes: args.maxBytes ?? 2048,
    signal: ctx.signal,
  });
  const text = formatFetch(outcomes, source);
  if (outcomes.every((o) => o.error)) throw new AppError(ErrorCode.Unavailable, text, { hint: 'nothing was indexed' });
  const pageBytes = outcomes.reduce((n, o) => n + (o.textBytes ?? 0), 0);
  return { text, structured: { results: outcomes }, ...(pageBytes ? { saving: { rawBytes: pageBytes, basis: 'page kept out' as const } } : {}) };
}

async function stats(_args: Args, ctx: ToolCallContext) {
  await ctx.app.usage.flush();
  const kb = await ctx.app.kb.get();
  const s = await kb.stats();
  const project = await kb.usageTotals();
  const server = await kb.usageTotals({ processSession: ctx.app.processSessionId });
  const usage = formatUsage(project, server, ctx.app.config.estimation.charsPerToken);
  const textIndex = ctx.app.textIndex?.status();
  return {
    text: `${formatStats(s, ctx.app.kb.file, usage)}\n${describeTextIndex(textIndex)}`,
    structured: { ...s, session_id: s.sessionId, database: ctx.app.kb.file, usage: { project, server }, textIndex: textIndex ?? null },
  };
}

async function purge(args: Args, ctx: ToolCallContext) {
  if (args.confirm !== true) {
    throw new AppError(ErrorCode.InvalidArgument, 'purge needs confirm: true', { hint: 'purge deletes indexed documents; pass dryRun: true first to see how many' });
  }
  const kb = await ctx.app.kb.get();
  const scope = args.scope ?? 'project';
  const result = await kb.purge(scope, args.sessionId ?? kb.sessionId, args.dryRun ?? false);
  return { text: formatPurge(result), structured: { ...result } };
}

/** Creates both kinds of FTS5 index in memory, writes and finds a row: proves the build can. */
async function fts5SelfTest(): Promise<string | undefined> {
  try {
    const sqlite3 = await loadSqlite();
    const db = new sqlite3.oo1.DB(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE p USING fts5(b, tokenize='porter unicode61'); CREATE VIRTUAL TABLE t USING fts5(b, tokenize='trigram');");
      db.exec("INSERT INTO p(b) VALUES ('running handlers'); INSERT INTO t(b) VALUES ('OrderHandler');");
      const porter = db.selectValue("SELECT count(*) FROM p WHERE p MATCH 'handler'");
      const trigram = db.selectValue("SELECT count(*) FROM t WHERE b LIKE '%rhand%'");
      return porter === 1 && trigram === 1 ? undefined : 'FTS5 self-test found the wrong rows';
    } finally {
      db.close();
    }
  } catch (error) {
    return `FTS5 self-test failed: ${messageOf(error)}`;
  }
}

async function doctor(_args: Args, ctx: ToolCallContext) {
  const warnings: string[] = [];
  const fts = await fts5SelfTest();
  if (fts) warnings.push(fts);
  const runtimes = availableRuntimes(ctx.app.runtime);
  const missing = Object.entries(runtimes).filter(([, cmd]) => !cmd).map(([lang]) => lang);
  if (missing.length) warnings.push(`runtimes missing for: ${missing.join(', ')}`);
  const postgres = ctx.app.storage.backend === 'postgres';
  let storage: Record<string, unknown> = { database: ctx.app.kb.file, ...(postgres ? {} : { bytes: databaseBytes(ctx.app.runtime.fs, ctx.app.kb.file) }) };
  let peers: StorePeers | undefined;
  try {
    const kb = await ctx.app.kb.get();
    const s = await kb.stats();
    peers = await kb.peers();
    // On Postgres there is no file here: the size is that of the shared tables.
    storage = { ...storage, backend: kb.backend, documents: s.documents, schemaVersion: await kb.schemaVersion(), ...(kb.backend === 'postgres' ? { bytes: s.databaseBytes } : {}) };
  } catch (error) {
    warnings.push(`knowledge base unavailable: ${messageOf(error)}`);
  }
  // A SQLite file's users are this machine's processes; a team's database has connections and checkouts instead.
  const use = postgres ? undefined : databaseUse(ctx.app.runtime, ctx.app.kb.file);
  storage = { ...storage, ...(use ? { users: use.users, writer: use.writer ?? null } : { peers: peers ?? null }) };
  const textIndex = ctx.app.textIndex?.status();
  if (textIndex?.state === 'unavailable') warnings.push(`text index unavailable${textIndex.error ? `: ${textIndex.error}` : ''}`);
  const report = { fts5: fts ? 'failed' : 'ok', storage, runtimes, textIndex: textIndex ?? null, session_id: ctx.app.processSessionId, warnings };
  const text = [
    `FTS5: ${report.fts5}; database ${ctx.app.kb.file} (${storage.bytes} bytes${storage.documents === undefined ? '' : `, ${storage.documents} documents`})`,
    use
      ? `open in ${use.users.length} process${use.users.length === 1 ? '' : 'es'}: ${use.users.map((u) => `pid ${u.pid}${u.pid === ctx.app.runtime.pid ? ' (this one)' : ''}`).join(', ') || 'none'}`
      : describePeers(peers),
    describeTextIndex(textIndex),
    `runtimes: ${Object.entries(runtimes).map(([lang, cmd]) => `${lang}=${cmd ? cmd.split('/').pop() : 'missing'}`).join(' ')}`,
    `session_id: ${ctx.app.processSessionId}`,
    ...warnings.map((w) => `warning: ${w}`),
  ].join('\n');
  return { text, structured: report };
}

export const runCtxKb = byAction<Args>({ index, search, fetch: fetchAction, stats, purge, doctor });

export function requireOneOf(url: string | undefined, urls: string[] | undefined): string[] {
  if (url && urls?.length) throw new AppError(ErrorCode.InvalidArgument, 'pass url or urls, not both');
  const list = url ? [url] : (urls ?? []);
  if (!list.length) throw new AppError(ErrorCode.InvalidArgument, 'fetch needs url or urls', { hint: 'e.g. {action:"fetch", url:"https://example.com/docs"}' });
  return list;
}
