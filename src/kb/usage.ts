// What each tool call did, kept in the project database so every process on the project adds to one
// record: when, which tool and session, how it ended, how long it took, how big its reply was, and —
// only where the agent would otherwise have received more — what it saved and compared with what.
// Indexing saves nothing by itself; a refusal is a decision, not a saving. ctx_kb stats, the /status
// page and `ctxgate stats` all read these rows.
import type { Database } from '../storage/database.ts';
import type { KbHandle } from './open.ts';

/** What a saving was measured against. */
export type SavingBasis = 'output kept out' | 'page kept out' | 'rg -n output' | 'block instead of file';

/** What each basis compares a reply with, in words (`ctxgate stats`, the status page). */
export const BASIS_MEANING: Record<SavingBasis, string> = {
  'output kept out': 'the whole output of a command, listing, diff or job log, indexed or spooled instead',
  'page kept out': 'the text of a fetched page, indexed instead',
  'rg -n output': 'what rg -n with the same pattern, scope and exclusions would have printed',
  'block instead of file': 'the whole file, where read answered with its outline and first part',
};

export type CallOutcome = 'ok' | 'error' | 'refused';

export interface CallRecord {
  at: number;
  /** Who made the call, where the server knows people (team endpoint on Postgres); kept there only. */
  userName?: string;
  processSession: string;
  clientSession: string;
  tool: string;
  action?: string;
  /** The arguments in one short, redacted line (logging/arg-summary.ts). */
  args?: string;
  outcome: CallOutcome;
  /** Refusal reason, error code, or 'followed' for a gated answer that came right after a refusal. */
  detail?: string;
  durationMs: number;
  replyBytes: number;
  /** What the agent would have received otherwise (only with a basis). */
  rawBytes?: number;
  basis?: SavingBasis;
}

/** Rows older than this are dropped when new ones are written. */
export const USAGE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const USAGE_MIGRATION_SQL = `
  CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    process_session TEXT NOT NULL,
    client_session TEXT NOT NULL,
    tool TEXT NOT NULL,
    action TEXT,
    outcome TEXT NOT NULL,
    detail TEXT,
    duration_ms INTEGER NOT NULL,
    reply_bytes INTEGER NOT NULL,
    raw_bytes INTEGER,
    saved_bytes INTEGER NOT NULL DEFAULT 0,
    basis TEXT
  );
  CREATE INDEX calls_at ON calls(at);
`;

/** Each call's arguments in one short, redacted line, so calls of one tool can be told apart. */
export const USAGE_ARGS_MIGRATION_SQL = 'ALTER TABLE calls ADD COLUMN args TEXT;';

export function savedBytes(record: Pick<CallRecord, 'rawBytes' | 'replyBytes' | 'basis'>): number {
  return record.basis && record.rawBytes !== undefined ? Math.max(0, record.rawBytes - record.replyBytes) : 0;
}

/** Writes the records in one transaction, waiting (without blocking) while another process writes. */
export async function writeCalls(db: Database, records: readonly CallRecord[], now = Date.now()): Promise<void> {
  if (!records.length) return;
  await db.writeTransaction(() => {
    for (const r of records) {
      db.run(
        'INSERT INTO calls (at, process_session, client_session, tool, action, args, outcome, detail, duration_ms, reply_bytes, raw_bytes, saved_bytes, basis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [r.at, r.processSession, r.clientSession, r.tool, r.action ?? null, r.args ?? null, r.outcome, r.detail ?? null, Math.round(r.durationMs), r.replyBytes, r.rawBytes ?? null, savedBytes(r), r.basis ?? null],
      );
    }
    db.run('DELETE FROM calls WHERE at < ?', [now - USAGE_RETENTION_MS]);
  });
}

export interface UsageTotals {
  calls: number;
  errors: number;
  refusals: number;
  replyBytes: number;
  savedBytes: number;
  /** Calls that saved something, by what they were compared with. */
  byBasis: { basis: SavingBasis; calls: number; rawBytes: number; replyBytes: number; savedBytes: number }[];
  byTool: { tool: string; calls: number; errors: number; refusals: number; replyBytes: number; savedBytes: number; p50Ms: number }[];
}

export interface UsageFilter {
  processSession?: string;
  since?: number;
}

function where(filter: UsageFilter): { sql: string; bind: (string | number)[] } {
  const parts: string[] = [];
  const bind: (string | number)[] = [];
  if (filter.processSession) {
    parts.push('process_session = ?');
    bind.push(filter.processSession);
  }
  if (filter.since !== undefined) {
    parts.push('at >= ?');
    bind.push(filter.since);
  }
  return { sql: parts.length ? ` WHERE ${parts.join(' AND ')}` : '', bind };
}

export function usageTotals(db: Database, filter: UsageFilter = {}): UsageTotals {
  const w = where(filter);
  const all =
    db.get(
      `SELECT count(*) AS calls, coalesce(sum(outcome = 'error'), 0) AS errors, coalesce(sum(outcome = 'refused'), 0) AS refusals, coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved FROM calls${w.sql}`,
      w.bind,
    ) ?? {};
  const byBasis = db
    .all(
      `SELECT basis, count(*) AS calls, coalesce(sum(raw_bytes), 0) AS raw, coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved FROM calls${w.sql}${w.sql ? ' AND' : ' WHERE'} basis IS NOT NULL GROUP BY basis ORDER BY saved DESC`,
      w.bind,
    )
    .map((r) => ({ basis: String(r.basis) as SavingBasis, calls: Number(r.calls), rawBytes: Number(r.raw), replyBytes: Number(r.reply), savedBytes: Number(r.saved) }));
  const medians = medianDurations(db, w);
  const byTool = db
    .all(
      `SELECT tool, count(*) AS calls, coalesce(sum(outcome = 'error'), 0) AS errors, coalesce(sum(outcome = 'refused'), 0) AS refusals, coalesce(sum(reply_bytes), 0) AS reply, coalesce(sum(saved_bytes), 0) AS saved FROM calls${w.sql} GROUP BY tool ORDER BY calls DESC`,
      w.bind,
    )
    .map((r) => toolTotalsOf(r, medians.get(String(r.tool)) ?? 0));
  return { calls: Number(all.calls ?? 0), errors: Number(all.errors ?? 0), refusals: Number(all.refusals ?? 0), replyBytes: Number(all.reply ?? 0), savedBytes: Number(all.saved ?? 0), byBasis, byTool };
}

/** The median latency of each tool (the lower middle of an even count), in one pass over the rows. */
function medianDurations(db: Database, w: { sql: string; bind: (string | number)[] }): Map<string, number> {
  const rows = db.all(
    `SELECT tool, duration_ms FROM (SELECT tool, duration_ms, row_number() OVER (PARTITION BY tool ORDER BY duration_ms) AS i, count(*) OVER (PARTITION BY tool) AS n FROM calls${w.sql}) WHERE i = (n + 1) / 2`,
    w.bind,
  );
  return new Map(rows.map((r) => [String(r.tool), Number(r.duration_ms)]));
}

export interface GateDecisions {
  answered: number;
  refused: { reason: string; count: number }[];
  /** Gated answers that came right after a refusal in the same client session. */
  followed: number;
}

export function gateDecisions(db: Database, filter: UsageFilter = {}): GateDecisions {
  const w = where(filter);
  const gated = `${w.sql}${w.sql ? ' AND' : ' WHERE'} tool IN ('search', 'locate')`;
  const answered = Number(db.value(`SELECT count(*) FROM calls${gated} AND outcome = 'ok'`, w.bind) ?? 0);
  const followed = Number(db.value(`SELECT count(*) FROM calls${gated} AND outcome = 'ok' AND detail = 'followed'`, w.bind) ?? 0);
  const refused = db
    .all(`SELECT coalesce(detail, '?') AS reason, count(*) AS n FROM calls${gated} AND outcome = 'refused' GROUP BY reason ORDER BY n DESC`, w.bind)
    .map((r) => ({ reason: String(r.reason), count: Number(r.n) }));
  return { answered, refused, followed };
}

export interface RecentCall {
  at: number;
  tool: string;
  action: string | null;
  /** The arguments in one short, redacted line ('' for calls recorded before they were kept). */
  args: string;
  outcome: CallOutcome;
  detail: string | null;
  durationMs: number;
  replyBytes: number;
  savedBytes: number;
  /** What the agent would have received otherwise, and what that was (null: no saving measured). */
  rawBytes?: number | null;
  basis?: SavingBasis | null;
}

export function recentCalls(db: Database, limit: number): RecentCall[] {
  return db.all(`SELECT ${RECENT_CALL_COLUMNS} FROM calls ORDER BY id DESC LIMIT ?`, [limit]).map(recentCallOf);
}

/** A per-tool row (tool, calls, errors, refusals, reply, saved) as the totals show it, on either backend. */
export function toolTotalsOf(r: Record<string, unknown>, p50Ms: number): UsageTotals['byTool'][number] {
  return { tool: String(r.tool), calls: Number(r.calls), errors: Number(r.errors), refusals: Number(r.refusals), replyBytes: Number(r.reply), savedBytes: Number(r.saved), p50Ms };
}

/** The columns a recent call is read from, on either backend. */
export const RECENT_CALL_COLUMNS = 'at, tool, action, args, outcome, detail, duration_ms, reply_bytes, saved_bytes, raw_bytes, basis';

/** A calls row (RECENT_CALL_COLUMNS) as a RecentCall; numbers may arrive as strings or bigints (Postgres). */
export function recentCallOf(r: Record<string, unknown>): RecentCall {
  return {
    at: Number(r.at),
    tool: String(r.tool),
    action: r.action === null ? null : String(r.action),
    args: r.args === null ? '' : String(r.args),
    outcome: String(r.outcome) as CallOutcome,
    detail: r.detail === null ? null : String(r.detail),
    durationMs: Number(r.duration_ms),
    replyBytes: Number(r.reply_bytes),
    savedBytes: Number(r.saved_bytes),
    rawBytes: r.raw_bytes === null ? null : Number(r.raw_bytes),
    basis: r.basis === null ? null : (String(r.basis) as SavingBasis),
  };
}

/** Saved bytes per time bucket (oldest first), for the chart. */
export function savingsSeries(db: Database, since: number, bucketMs: number): { at: number; savedBytes: number; calls: number }[] {
  return db
    .all('SELECT (at / ?) * ? AS bucket, coalesce(sum(saved_bytes), 0) AS saved, count(*) AS calls FROM calls WHERE at >= ? GROUP BY bucket ORDER BY bucket', [bucketMs, bucketMs, since])
    .map((r) => ({ at: Number(r.bucket), savedBytes: Number(r.saved), calls: Number(r.calls) }));
}

export interface UsageRecorder {
  record(call: CallRecord): void;
  /** Writes what is buffered; never throws (a record is not worth failing anything over). */
  flush(): Promise<void>;
}

/**
 * Buffers call records and writes them in one transaction a moment later (one lock per burst of
 * calls, not per call), and at shutdown. The knowledge base opens on the first write.
 */
export function createUsageRecorder(kb: KbHandle, options: { delayMs?: number; onError?: (error: unknown) => void } = {}): UsageRecorder {
  let buffer: CallRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const delay = options.delayMs ?? 1000;

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = buffer;
    buffer = [];
    writing = writing.then(async () => {
      if (!batch.length) return;
      try {
        await (await kb.get()).writeCalls(batch);
      } catch (error) {
        options.onError?.(error);
      }
    });
    return writing;
  }

  return {
    record(call) {
      buffer.push(call);
      // A runaway buffer (the database unreachable for long) keeps only the newest records.
      if (buffer.length > 10_000) buffer = buffer.slice(-5_000);
      timer ??= setTimeout(() => void flush(), delay);
    },
    flush,
  };
}
