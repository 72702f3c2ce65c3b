// What the status page and `ctxgate stats` show, gathered in one place: savings and calls from the
// usage rows (every process on the project), the gate's decisions, background jobs of this server,
// the knowledge base, how the code is searched, the calls being answered and the MCP sessions open.
import { describeIndexOnDisk, type IndexOnDisk } from '../code/index.ts';
import type { JobInfo } from '../exec/jobs.ts';
import type { GateDecisions, RecentCall, UsageTotals } from '../kb/usage.ts';
import type { KbStats } from '../kb/store.ts';
import type { TextIndexStatus } from '../textindex/types.ts';
import type { UserUsage } from '../users/user-usage.ts';
import type { CallInFlight } from '../time/foreground.ts';
import { VERSION } from '../version.ts';
import type { AppContext } from './context.ts';

/** An MCP session of the HTTP server, as the status page shows it. */
export interface SessionView {
  /** The start of its id (enough to tell sessions apart, of no use to anyone who would take it over). */
  id: string;
  /** The client's name and version as it gave them at initialize ('' before it did). */
  client: string;
  openedAt: number;
  lastSeenAt: number;
  /** active: a request in flight or a stream open; idle: nothing open; unused: initialized only; gone: the client hung up. */
  state: 'active' | 'idle' | 'unused' | 'gone';
  /** Requests in flight plus streams open. */
  open: number;
  /** When it closes unless the client comes back (none while active). */
  endsAt?: number;
}

export interface StatusSnapshot {
  at: number;
  version: string;
  projectRoot: string;
  startedAt: number;
  /** The MCP sessions open on this server (an HTTP server's; none for stdio or `ctxgate stats`), the oldest first. */
  sessions: SessionView[];
  /** This server's tool calls being answered now, the oldest first. */
  inFlight: CallInFlight[];
  usage: { project: UsageTotals; server: UsageTotals };
  /** Saved bytes per bucket over the charted span, oldest first (empty buckets included). */
  series: { at: number; savedBytes: number; calls: number }[];
  bucketMs: number;
  gate: GateDecisions;
  recent: RecentCall[];
  jobs: (JobInfo & { tail: string })[];
  kb: (KbStats & { file: string; sources: { label: string; kind: string; chunks: number; bytes: number }[] }) | { file: string; error: string };
  /** How the gate tools find code now: the code index's state and progress, the scan engine. */
  codeSearch: string;
  /** What the code index on disk holds (files, stale files, a build in progress and by whom); null when it cannot be read. */
  codeIndex: IndexOnDisk | null;
  /** The code text index: its state, coverage and size; null without one. */
  textIndex: TextIndexStatus | null;
  charsPerToken: number;
  /** On a team endpoint (Postgres): the project key, and calls and savings per user of it. */
  team?: { projectKey: string; users: UserUsage[]; error?: string };
}

const SERIES_BUCKETS = 24;

export interface StatusOptions {
  sessions: SessionView[];
  startedAt: number;
  now?: number;
  recentLimit?: number;
  /** A team endpoint's per-user figures (app/team.ts). */
  team?: { projectKey: string; usage(): Promise<UserUsage[]> };
}

export async function collectStatus(app: Pick<AppContext, 'kb' | 'usage' | 'jobs' | 'projectRoot' | 'runtime' | 'config' | 'processSessionId' | 'code' | 'textIndex' | 'foreground'>, options: StatusOptions): Promise<StatusSnapshot> {
  const now = options.now ?? Date.now();
  await app.usage.flush();
  const empty: UsageTotals = { calls: 0, errors: 0, refusals: 0, replyBytes: 0, savedBytes: 0, byBasis: [], byTool: [] };
  let usage = { project: empty, server: empty };
  let series: StatusSnapshot['series'] = [];
  let gate: GateDecisions = { answered: 0, refused: [], followed: 0 };
  let recent: RecentCall[] = [];
  let kbPart: StatusSnapshot['kb'];
  // The chart spans the last day, or less when the project's first call is more recent (at least an hour).
  let bucketMs = 3_600_000;
  try {
    const kb = await app.kb.get();
    usage = { project: await kb.usageTotals(), server: await kb.usageTotals({ processSession: app.processSessionId }) };
    gate = await kb.gateDecisions();
    recent = await kb.recentCalls(options.recentLimit ?? 20);
    const first = (await kb.firstCallSince(now - 24 * 3_600_000)) ?? now;
    const span = Math.min(24 * 3_600_000, Math.max(3_600_000, now - first));
    bucketMs = Math.ceil(span / SERIES_BUCKETS / 60_000) * 60_000;
    const start = Math.floor((now - span) / bucketMs) * bucketMs;
    const filled = new Map((await kb.savingsSeries(start, bucketMs)).map((b) => [b.at, b]));
    series = Array.from({ length: Math.floor((now - start) / bucketMs) + 1 }, (_, i) => filled.get(start + i * bucketMs) ?? { at: start + i * bucketMs, savedBytes: 0, calls: 0 });
    const sources = await kb.recentSources(10);
    kbPart = { ...(await kb.stats()), file: app.kb.file, sources };
  } catch (error) {
    kbPart = { file: app.kb.file, error: error instanceof Error ? error.message : String(error) };
  }
  const codeIndex = await app.code.onDisk().catch(() => undefined);
  const team = options.team ? await teamPart(options.team) : undefined;
  const jobs = app.jobs.list().map((j) => ({ ...j, tail: jobTail(app, j.id) }));
  return {
    at: now,
    version: VERSION,
    projectRoot: app.projectRoot,
    startedAt: options.startedAt,
    sessions: options.sessions,
    inFlight: app.foreground.inFlight(),
    usage,
    series,
    bucketMs,
    gate,
    recent,
    jobs,
    kb: kbPart,
    codeSearch: describeCodeSearch(app, codeIndex, app.runtime.pid),
    codeIndex: codeIndex ?? null,
    textIndex: app.textIndex?.status() ?? null,
    charsPerToken: app.config.estimation.charsPerToken,
    ...(team ? { team } : {}),
  };
}

async function teamPart(team: NonNullable<StatusOptions['team']>): Promise<NonNullable<StatusSnapshot['team']>> {
  try {
    return { projectKey: team.projectKey, users: await team.usage() };
  } catch (error) {
    return { projectKey: team.projectKey, users: [], error: error instanceof Error ? error.message : String(error) };
  }
}

function describeCodeSearch(app: Pick<AppContext, 'code' | 'config' | 'runtime'>, onDisk: IndexOnDisk | undefined, pid: number): string {
  const scan = `file scans with ${app.runtime.which('rg') ? 'ripgrep' : 'the built-in engine'}`;
  const backend = app.config.backend.graph;
  if (backend === 'none') return `${scan} only (graph backend: none)`;
  const s = app.code.status();
  // What this process does, else what the database holds (another process's build, or an earlier one's).
  const index =
    s.state === 'building' && s.total
      ? `code index building: ${s.done} of ${s.total} files looked at (answers parse the files they need meanwhile)`
      : s.state !== 'unavailable' && onDisk
        ? describeIndexOnDisk(onDisk, pid)
        : s.state === 'building'
      ? `code index building: ${s.done} of ${s.total} files looked at (answers come from scans meanwhile)`
      : s.state === 'ready'
        ? `code index ready (${s.total} files)`
        : s.state === 'unavailable'
          ? `code index unavailable${s.error ? ` (${s.error})` : ''}`
          : 'code index not built yet (it builds on the first gate call)';
  return `${index}; graph backend ${backend}; ${scan}`;
}

function jobTail(app: Pick<AppContext, 'jobs'>, id: string): string {
  try {
    return app.jobs.log({ id }, 5, 2000).text;
  } catch {
    return '';
  }
}
