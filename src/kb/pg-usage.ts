// Call records on Postgres: the same questions usage.ts answers on SQLite, asked of the shared
// calls table and only ever of this project's rows. Each row may name its user.
import type { Sql } from '../storage/postgres/connection.ts';
import { type CallRecord, type GateDecisions, RECENT_CALL_COLUMNS, type RecentCall, recentCallOf, toolTotalsOf, type SavingBasis, savedBytes, USAGE_RETENTION_MS, type UsageFilter, type UsageTotals } from './usage.ts';

function where(sql: Sql, projectKey: string, filter: UsageFilter) {
  return sql`project_key = ${projectKey}
    ${filter.processSession ? sql`AND process_session = ${filter.processSession}` : sql``}
    ${filter.since !== undefined ? sql`AND at >= ${filter.since}` : sql``}`;
}

export async function writeCallsPg(sql: Sql, projectKey: string, records: readonly CallRecord[], now = Date.now()): Promise<void> {
  if (!records.length) return;
  const rows = records.map((r) => ({
    project_key: projectKey,
    user_name: r.userName ?? null,
    at: r.at,
    process_session: r.processSession,
    client_session: r.clientSession,
    tool: r.tool,
    action: r.action ?? null,
    args: r.args ?? null,
    outcome: r.outcome,
    detail: r.detail ?? null,
    duration_ms: Math.round(r.durationMs),
    reply_bytes: r.replyBytes,
    raw_bytes: r.rawBytes ?? null,
    saved_bytes: savedBytes(r),
    basis: r.basis ?? null,
  }));
  await sql.begin(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) await tx`INSERT INTO calls ${tx(rows.slice(i, i + 1000))}`;
    await tx`DELETE FROM calls WHERE project_key = ${projectKey} AND at < ${now - USAGE_RETENTION_MS}`;
  });
}

export async function usageTotalsPg(sql: Sql, projectKey: string, filter: UsageFilter = {}): Promise<UsageTotals> {
  const w = where(sql, projectKey, filter);
  const [all] = await sql`SELECT count(*) AS calls, count(*) FILTER (WHERE outcome = 'error') AS errors, count(*) FILTER (WHERE outcome = 'refused') AS refusals,
    coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved FROM calls WHERE ${w}`;
  const byBasis = await sql`SELECT basis, count(*) AS calls, coalesce(sum(raw_bytes), 0) AS raw, coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved
    FROM calls WHERE ${w} AND basis IS NOT NULL GROUP BY basis ORDER BY saved DESC`;
  // percentile_disc(0.5) is the lower middle of an even count, as on SQLite.
  const byTool = await sql`SELECT tool, count(*) AS calls, count(*) FILTER (WHERE outcome = 'error') AS errors, count(*) FILTER (WHERE outcome = 'refused') AS refusals,
    coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved, percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50
    FROM calls WHERE ${w} GROUP BY tool ORDER BY calls DESC, tool`;
  return {
    calls: Number(all?.calls ?? 0),
    errors: Number(all?.errors ?? 0),
    refusals: Number(all?.refusals ?? 0),
    replyBytes: Number(all?.reply ?? 0),
    savedBytes: Number(all?.saved ?? 0),
    byBasis: byBasis.map((r) => ({ basis: String(r.basis) as SavingBasis, calls: Number(r.calls), rawBytes: Number(r.raw), replyBytes: Number(r.reply), savedBytes: Number(r.saved) })),
    byTool: byTool.map((r) => toolTotalsOf(r, Number(r.p50 ?? 0))),
  };
}

export async function gateDecisionsPg(sql: Sql, projectKey: string, filter: UsageFilter = {}): Promise<GateDecisions> {
  const w = where(sql, projectKey, filter);
  const [counts] = await sql`SELECT count(*) FILTER (WHERE outcome = 'ok') AS answered, count(*) FILTER (WHERE outcome = 'ok' AND detail = 'followed') AS followed
    FROM calls WHERE ${w} AND tool IN ('search', 'locate')`;
  const refused = await sql`SELECT coalesce(detail, '?') AS reason, count(*) AS n FROM calls WHERE ${w} AND tool IN ('search', 'locate') AND outcome = 'refused'
    GROUP BY reason ORDER BY n DESC, reason`;
  return { answered: Number(counts?.answered ?? 0), followed: Number(counts?.followed ?? 0), refused: refused.map((r) => ({ reason: String(r.reason), count: Number(r.n) })) };
}

export async function recentCallsPg(sql: Sql, projectKey: string, limit: number): Promise<RecentCall[]> {
  const rows = await sql`SELECT ${sql.unsafe(RECENT_CALL_COLUMNS)} FROM calls WHERE project_key = ${projectKey} ORDER BY id DESC LIMIT ${limit}`;
  return rows.map(recentCallOf);
}

export async function savingsSeriesPg(sql: Sql, projectKey: string, since: number, bucketMs: number): Promise<{ at: number; savedBytes: number; calls: number }[]> {
  const rows = await sql`SELECT (at / ${bucketMs}::bigint) * ${bucketMs}::bigint AS bucket, coalesce(sum(saved_bytes), 0) AS saved, count(*) AS calls
    FROM calls WHERE project_key = ${projectKey} AND at >= ${since} GROUP BY bucket ORDER BY bucket`;
  return rows.map((r) => ({ at: Number(r.bucket), savedBytes: Number(r.saved), calls: Number(r.calls) }));
}
