// What the tools ask of the knowledge base, whichever backend holds it: the embedded SQLite file
// (sqlite-store.ts, one machine) or a team's Postgres (pg-store.ts). Asynchronous because Postgres
// is; the SQLite side answers from its synchronous calls, at the same speed as before.
import type { LeaseResult } from '../storage/lease.ts';
import type { SearchRequest, SearchResponse, StatFn } from './search.ts';
import type { KbStats, PurgeResult, SourceInput, SourceRow } from './store.ts';
import type { CallRecord, GateDecisions, RecentCall, UsageFilter, UsageTotals } from './usage.ts';

export interface RecentSource {
  label: string;
  kind: string;
  chunks: number;
  bytes: number;
}

/** Who else uses a team's knowledge base (Postgres): what doctor can say instead of a file's processes. */
export interface StorePeers {
  /** ctxgate's connections to the database (every project in it), by pg_stat_activity. */
  connections: number;
  /** The client addresses among them (unix-socket and hidden ones not counted). */
  hosts: number;
  /** Server processes that recorded calls for this project in the last `windowMs`. */
  servers: number;
  windowMs: number;
  /** This project's documents by the checkout that wrote them, most first (at most 5). */
  origins: { origin: string; documents: number }[];
  /** This checkout. */
  origin: string;
}

export interface KnowledgeStore {
  readonly backend: 'sqlite' | 'postgres';
  /** Where it lives, fit to print: the database file, or the Postgres URL without its password. */
  readonly where: string;
  /** This server process's session (purge scope=session, stats). */
  readonly sessionId: string;

  source(key: string): Promise<SourceRow | undefined>;
  /** The body of a source's first chunk (a cached page's preview). */
  firstChunkBody(sourceId: number): Promise<string | undefined>;
  /** Inserts or replaces a source and all its chunks, atomically. */
  save(input: SourceInput): Promise<SourceRow>;
  /** Saves several sources in one transaction (all or none); `during` runs inside it (a lease renewal). */
  saveAll(inputs: readonly SourceInput[], during?: () => void): Promise<void>;
  remove(key: string): Promise<boolean>;
  /**
   * A lease on indexing one folder, so two processes do not index it twice at once. Only an
   * optimisation: saving is consistent without it (one transaction per batch of sources).
   */
  indexLease(name: string, ttlMs: number): Promise<LeaseResult>;
  stats(): Promise<KbStats>;
  /**
   * project: on SQLite the whole knowledge base; on Postgres the documents this checkout wrote
   * (another checkout's stay). team (Postgres only): every document of the project. session: the
   * documents that server process wrote.
   */
  purge(scope: 'project' | 'session' | 'team', sessionId: string, dryRun: boolean): Promise<PurgeResult>;
  search(req: SearchRequest, stat?: StatFn): Promise<SearchResponse>;
  recentSources(limit: number): Promise<RecentSource[]>;

  writeCalls(records: readonly CallRecord[]): Promise<void>;
  usageTotals(filter?: UsageFilter): Promise<UsageTotals>;
  gateDecisions(filter?: UsageFilter): Promise<GateDecisions>;
  recentCalls(limit: number): Promise<RecentCall[]>;
  savingsSeries(since: number, bucketMs: number): Promise<{ at: number; savedBytes: number; calls: number }[]>;
  /** The time of the first call at or after `since`, if any. */
  firstCallSince(since: number): Promise<number | undefined>;
  /** Postgres: who else uses the shared knowledge base; SQLite: undefined (doctor reads the file's users). */
  peers(): Promise<StorePeers | undefined>;
  /** The schema version(s), for doctor. */
  schemaVersion(): Promise<number>;

  close(): Promise<void>;
}
