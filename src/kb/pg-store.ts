// The knowledge base on a team's Postgres: the KnowledgeStore interface over the shared tables
// (pg-schema.ts), every query limited to this project's key. Saving a source is one transaction
// under an advisory lock on (project key, source key): a reader never sees half a document, a
// writer killed mid-way leaves nothing behind, and concurrent writers of one source end with one
// whole version (the last to commit). Above the per-source locks sits one lock per project: every
// save and removal holds it shared, a purge holds it alone — a purge deletes many sources at once,
// and taking each one's lock would fill Postgres's lock table (64 per connection by default) on a
// big project, while taking none let a purge and an indexer lock rows in opposite orders (deadlock).
//
// Each source names its origin, the checkout that wrote it last (host and folder). Command outputs
// are this checkout's own: stored under a key that ends with the origin, so the same label on two
// machines keeps both (a re-run here still replaces its own), and labelled with it, so a hit says
// where it came from. A purge of the project removes this checkout's sources; the whole team's
// knowledge base goes only with scope=team.
import type { PgDatabase, TransactionSql } from '../storage/postgres/connection.ts';
import { advisoryXactLock, advisoryXactLockShared, advisoryXactLocks } from '../storage/postgres/locks.ts';
import type { KnowledgeStore } from './knowledge-store.ts';
import { KB_PG_COMPONENT } from './pg-schema.ts';
import { searchPostgres } from './pg-search.ts';
import { SAME_PATHS, type SharedPaths } from './shared-paths.ts';
import { addWords, vocabularyOf } from './pg-vocabulary.ts';
import { gateDecisionsPg, recentCallsPg, savingsSeriesPg, usageTotalsPg, writeCallsPg } from './pg-usage.ts';
import type { PurgeResult, SourceInput, SourceKind, SourceRow } from './store.ts';

/** Rows per INSERT (the protocol allows 65 535 parameters; a chunk row has 7). */
const INSERT_ROWS = 1000;

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function sourceRow(r: Record<string, unknown>): SourceRow {
  return {
    id: Number(r.id),
    key: String(r.key),
    kind: String(r.kind) as SourceKind,
    label: String(r.label),
    path: r.path === null ? null : String(r.path),
    mtime_ms: numberOrNull(r.mtime_ms),
    size: numberOrNull(r.size),
    digest: r.digest === null || r.digest === undefined ? null : String(r.digest),
    session_id: String(r.session_id),
    indexed_at: Number(r.indexed_at),
    chunk_count: Number(r.chunk_count),
    bytes: Number(r.bytes),
  };
}

/** How far back doctor looks for servers that recorded calls. */
const PEER_WINDOW_MS = 15 * 60_000;

/** The namespace of the per-project lock (source locks use the project key as theirs). */
const PROJECT_LOCK = 'ctxgate.kb.project';

const SOURCE_COLUMNS = 'id, key, kind, label, path, mtime_ms, size, digest, session_id, indexed_at, chunk_count, bytes';

/** Kinds whose sources are one checkout's own (command outputs): their key and label name the origin. */
const OWN_KINDS = ['run:', 'batch:'];

/**
 * Keys as stored: a file under the project root relative to it (shared-paths.ts), an output's key
 * with this origin appended; and back. Another checkout's output keeps its origin in its key.
 */
export function originKeys(paths: SharedPaths, origin: string): SharedPaths {
  const suffix = `@${origin}`;
  const own = (key: string) => OWN_KINDS.some((k) => key.startsWith(k));
  return {
    ...paths,
    sharedKey: (key) => (own(key) ? (key.endsWith(suffix) ? key : key + suffix) : paths.sharedKey(key)),
    localKey: (key) => (own(key) && key.endsWith(suffix) ? key.slice(0, -suffix.length) : paths.localKey(key)),
  };
}

export interface PgStoreOptions {
  /** This checkout, as `host:folder`: the origin its sources are stored with. */
  origin: string;
  /** How file keys and paths are stored (relative to the repository's top). */
  paths?: SharedPaths;
}

export function postgresKnowledgeStore(db: PgDatabase, projectKey: string, sessionId: string, options: PgStoreOptions): KnowledgeStore {
  const { origin } = options;
  const paths = originKeys(options.paths ?? SAME_PATHS, origin);
  const localRow = (r: Record<string, unknown>): SourceRow => {
    const row = sourceRow(r);
    return { ...row, key: paths.localKey(row.key), path: row.path === null ? null : paths.localPath(row.path) };
  };

  /**
   * Inserts or replaces sources and all their chunks inside the caller's transaction, in a handful
   * of statements whatever their number (one round trip per source would dominate indexing).
   */
  async function putAll(tx: TransactionSql, inputs: readonly SourceInput[]): Promise<SourceRow[]> {
    // One row per key (the last wins): an upsert may not touch one row twice. Sorted by key, so any
    // two batches write their rows in one order, as they take their locks.
    const stored = (i: SourceInput) => ({
      ...i,
      key: paths.sharedKey(i.key),
      ...(i.path ? { path: paths.sharedPath(i.path) } : {}),
      ...(OWN_KINDS.some((k) => i.key.startsWith(k)) ? { label: `${i.label} @ ${origin}` } : {}),
    });
    const unique = [...new Map(inputs.map((i) => [paths.sharedKey(i.key), stored(i)])).values()].sort(
      (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    if (!unique.length) return [];
    await lockSources(
      tx,
      unique.map((i) => i.key),
    );
    const now = Date.now();
    const sources = unique.map((i) => ({
      project_key: projectKey,
      key: i.key,
      kind: i.kind,
      label: i.label,
      path: i.path ?? null,
      mtime_ms: i.mtimeMs ?? null,
      size: i.size ?? null,
      digest: i.digest ?? null,
      session_id: sessionId,
      origin,
      indexed_at: now,
      chunk_count: i.chunks.length,
      bytes: i.chunks.reduce((n, c) => n + c.body.length, 0),
    }));
    const rows: SourceRow[] = [];
    for (let i = 0; i < sources.length; i += INSERT_ROWS) {
      const written = await tx`INSERT INTO kb_sources ${tx(sources.slice(i, i + INSERT_ROWS))}
        ON CONFLICT (project_key, key) DO UPDATE SET kind = excluded.kind, label = excluded.label, path = excluded.path, mtime_ms = excluded.mtime_ms,
          size = excluded.size, digest = excluded.digest, session_id = excluded.session_id, origin = excluded.origin, indexed_at = excluded.indexed_at, chunk_count = excluded.chunk_count, bytes = excluded.bytes
        RETURNING ${tx.unsafe(SOURCE_COLUMNS)}`;
      rows.push(...written.map(sourceRow));
    }
    const idOf = new Map(rows.map((r) => [r.key, r.id]));
    await tx`DELETE FROM kb_chunks WHERE source_id = ANY(${rows.map((r) => r.id)}::bigint[])`;
    const chunks = unique.flatMap((input) =>
      input.chunks.map((c, seq) => ({
        project_key: projectKey,
        source_id: idOf.get(input.key)!,
        seq,
        title: c.title,
        body: c.body,
        line_start: c.lineStart || null,
        line_end: c.lineEnd || null,
      })),
    );
    for (let i = 0; i < chunks.length; i += INSERT_ROWS) await tx`INSERT INTO kb_chunks ${tx(chunks.slice(i, i + INSERT_ROWS))}`;
    return rows.map((r) => ({ ...r, key: paths.localKey(r.key), path: r.path === null ? null : paths.localPath(r.path) }));
  }

  /**
   * `save` with the sources' new words added to the vocabulary alongside, on a second connection:
   * the two run at once (the server parses the chunks while it adds the words). A word of a batch
   * that then fails stays in the vocabulary, where it only costs a row.
   */
  async function withWords<T>(inputs: readonly SourceInput[], save: () => Promise<T>): Promise<T> {
    const words = vocabularyOf(inputs);
    const saving = async () => {
      const value = await save();
      await mergePending('kb_chunks_tsv');
      return value;
    };
    const adding = async () => {
      await db.transaction((tx) => addWords(tx, projectKey, words));
      await mergePending('kb_words_trgm');
    };
    const [saved, added] = await Promise.allSettled([saving(), adding()]);
    if (saved.status === 'rejected') throw saved.reason;
    if (added.status === 'rejected') throw added.reason;
    return saved.value;
  }

  /**
   * Moves a GIN index's pending list (fastupdate: new entries wait there, unsorted) into the index
   * proper, once per save. Left there, the entries of everything indexed lately — a whole project
   * just indexed — are scanned one by one by every search until autovacuum gets round to it, and the
   * planner, knowing that, reads every chunk of the project instead (tens of ms a search). Merging a
   * batch at a time keeps the bulk insertion fastupdate is for; it costs the save what the search
   * would otherwise pay. Best effort: a role that does not own the index leaves it to autovacuum.
   */
  async function mergePending(index: string): Promise<void> {
    await db.run((sql) => sql`SELECT gin_clean_pending_list(${index}::regclass)`).catch(() => {});
  }

  /** Locks the sources in one order (their keys sorted), so two batches never wait on each other in a circle. */
  async function lockSources(tx: TransactionSql, keys: readonly string[]): Promise<void> {
    await advisoryXactLockShared(tx, PROJECT_LOCK, projectKey);
    await (keys.length === 1 ? advisoryXactLock(tx, projectKey, keys[0]!) : advisoryXactLocks(tx, projectKey, keys));
  }

  return {
    backend: 'postgres',
    where: db.where,
    sessionId,
    source: (key) =>
      db.run(async (sql) => {
        const [row] = await sql`SELECT ${sql.unsafe(SOURCE_COLUMNS)} FROM kb_sources WHERE project_key = ${projectKey} AND key = ${paths.sharedKey(key)}`;
        return row ? localRow(row) : undefined;
      }),
    firstChunkBody: (sourceId) =>
      db.run(async (sql) => {
        const [row] = await sql`SELECT body FROM kb_chunks WHERE project_key = ${projectKey} AND source_id = ${sourceId} ORDER BY seq LIMIT 1`;
        return row ? String(row.body) : undefined;
      }),
    save: (input) => withWords([input], () => db.transaction(async (tx) => (await putAll(tx, [input]))[0]!)),
    saveAll: (inputs, during) => {
      // A transaction that met a deadlock runs again (connection.ts): `during` runs once all the same.
      let pending = during;
      return withWords(inputs, () =>
        db.transaction(async (tx) => {
          await putAll(tx, inputs);
          const renew = pending;
          pending = undefined;
          renew?.();
        }),
      );
    },
    remove: (key) =>
      db.transaction(async (tx) => {
        const shared = paths.sharedKey(key);
        await lockSources(tx, [shared]);
        const gone = await tx`DELETE FROM kb_sources WHERE project_key = ${projectKey} AND key = ${shared} RETURNING id`;
        return gone.length > 0;
      }),
    // Servers on other machines index their own checkouts: each batch's per-source locks keep every
    // document whole, so a second indexer of one folder only repeats work, and no lease is kept.
    indexLease: async (name) => ({ ok: true, lease: { name, renew: () => true, release: async () => {} } }),
    stats: () =>
      db.run(async (sql) => {
        const [row] = await sql`SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks, coalesce(sum(bytes), 0) AS bytes FROM kb_sources WHERE project_key = ${projectKey}`;
        // The tables are shared by every project in the database: their size is the database's, not this project's.
        const [size] = await sql`SELECT pg_total_relation_size('kb_sources') + pg_total_relation_size('kb_chunks') AS bytes`;
        return { documents: Number(row?.documents ?? 0), chunks: Number(row?.chunks ?? 0), bytes: Number(row?.bytes ?? 0), databaseBytes: Number(size?.bytes ?? 0), sessionId };
      }),
    purge: (scope, purgeSession, dryRun) =>
      db.transaction(async (tx): Promise<PurgeResult> => {
        const which =
          scope === 'team' ? tx`project_key = ${projectKey}` : scope === 'project' ? tx`project_key = ${projectKey} AND origin = ${origin}` : tx`project_key = ${projectKey} AND session_id = ${purgeSession}`;
        // Alone in the project: no save is half-way through a source this is about to delete.
        if (!dryRun) await advisoryXactLock(tx, PROJECT_LOCK, projectKey);
        const [row] = await tx`SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM kb_sources WHERE ${which}`;
        if (!dryRun) {
          await tx`DELETE FROM kb_sources WHERE ${which}`;
          if (scope === 'team') await tx`DELETE FROM kb_words WHERE project_key = ${projectKey}`;
        }
        const left = await tx`SELECT origin, count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM kb_sources
          WHERE project_key = ${projectKey} ${dryRun ? tx`AND NOT (${which})` : tx``} GROUP BY origin ORDER BY documents DESC, origin`;
        const byOrigin = left.map((r) => ({ origin: String(r.origin) || 'unknown (written before version 3 of the schema)', documents: Number(r.documents), chunks: Number(r.chunks) }));
        return {
          scope,
          documents: Number(row?.documents ?? 0),
          chunks: Number(row?.chunks ?? 0),
          dryRun,
          ...(scope === 'session' ? { sessionId: purgeSession } : {}),
          ...(scope === 'project' ? { origin } : {}),
          remaining: { documents: byOrigin.reduce((n, o) => n + o.documents, 0), chunks: byOrigin.reduce((n, o) => n + o.chunks, 0), byOrigin },
        };
      }),
    search: (req, stat) => db.run((sql) => searchPostgres(sql, projectKey, req, stat, paths)),
    recentSources: (limit) =>
      db.run(async (sql) => {
        const rows = await sql`SELECT label, kind, chunk_count, bytes FROM kb_sources WHERE project_key = ${projectKey} ORDER BY indexed_at DESC, id DESC LIMIT ${limit}`;
        return rows.map((r) => ({ label: String(r.label), kind: String(r.kind), chunks: Number(r.chunk_count), bytes: Number(r.bytes) }));
      }),
    writeCalls: (records) => db.run((sql) => writeCallsPg(sql, projectKey, records)),
    usageTotals: (filter) => db.run((sql) => usageTotalsPg(sql, projectKey, filter)),
    gateDecisions: (filter) => db.run((sql) => gateDecisionsPg(sql, projectKey, filter)),
    recentCalls: (limit) => db.run((sql) => recentCallsPg(sql, projectKey, limit)),
    savingsSeries: (since, bucketMs) => db.run((sql) => savingsSeriesPg(sql, projectKey, since, bucketMs)),
    firstCallSince: (since) =>
      db.run(async (sql) => {
        const [row] = await sql`SELECT min(at) AS at FROM calls WHERE project_key = ${projectKey} AND at >= ${since}`;
        return numberOrNull(row?.at) ?? undefined;
      }),
    peers: () =>
      db.run(async (sql) => {
        const windowMs = PEER_WINDOW_MS;
        const [conn] = await sql`SELECT count(*) AS connections, count(DISTINCT client_addr) AS hosts FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE 'ctxgate%'`;
        const [servers] = await sql`SELECT count(DISTINCT process_session) AS servers FROM calls WHERE project_key = ${projectKey} AND at >= ${Date.now() - windowMs}`;
        const origins = await sql`SELECT origin, count(*) AS documents FROM kb_sources WHERE project_key = ${projectKey} GROUP BY origin ORDER BY documents DESC, origin LIMIT 5`;
        return {
          connections: Number(conn?.connections ?? 0),
          hosts: Number(conn?.hosts ?? 0),
          servers: Number(servers?.servers ?? 0),
          windowMs,
          origins: origins.map((r) => ({ origin: String(r.origin) || 'unknown', documents: Number(r.documents) })),
          origin,
        };
      }),
    schemaVersion: () =>
      db.run(async (sql) => {
        const [row] = await sql`SELECT coalesce(max(version), 0) AS version FROM ctxgate_migrations WHERE component = ${KB_PG_COMPONENT}`;
        return Number(row?.version ?? 0);
      }),
    close: () => db.close(),
  };
}
