// The knowledge base is opened on first use (WASM start-up or a database connection is not paid by
// servers that never use it) and closed at shutdown. On SQLite, any number of ctxgate processes on
// the project share the file: locks are taken per transaction (storage/database-lock.ts), and a writer
// waits up to KB_BUSY_TIMEOUT_MS for its turn. On Postgres, every server of a team shares the tables.
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { openDatabase } from '../storage/database.ts';
import { redactUrl } from '../storage/postgres/redact.ts';
import type { KnowledgeStore } from './knowledge-store.ts';
import { KB_MIGRATIONS } from './schema.ts';
import { SAME_PATHS, sharedPaths } from './shared-paths.ts';
import { sqliteKnowledgeStore } from './sqlite-store.ts';
import { KnowledgeBase } from './store.ts';

export { databaseBytes } from './sqlite-store.ts';

/** How long a knowledge-base call waits for other processes' writes before it gives up. */
export const KB_BUSY_TIMEOUT_MS = 20_000;

export interface KbHandle {
  readonly backend: 'sqlite' | 'postgres';
  /** The SQLite database file, or the Postgres URL without its password. */
  readonly file: string;
  readonly isOpen: boolean;
  get(): Promise<KnowledgeStore>;
  close(): Promise<void>;
}

/** CTXGATE_DB → CTXMODE_DB → `<data dir>/context.db`. */
export function kbDatabaseFile(runtime: Runtime, dataDir: string): string {
  const explicit = runtime.env.get('CTXGATE_DB') ?? runtime.env.get('CTXMODE_DB');
  return explicit ? path.resolve(runtime.cwd(), explicit) : path.join(dataDir, 'context.db');
}

/** A handle that opens once, on the first get(); a failed open is tried again on the next one. */
function lazyHandle(backend: KbHandle['backend'], file: string, open: () => Promise<KnowledgeStore>): KbHandle {
  let opening: Promise<KnowledgeStore> | undefined;
  let store: KnowledgeStore | undefined;
  return {
    backend,
    file,
    get isOpen() {
      return store !== undefined;
    },
    get() {
      opening ??= open()
        .then((opened) => {
          store = opened;
          return opened;
        })
        .catch((error) => {
          opening = undefined;
          throw error;
        });
      return opening;
    },
    async close() {
      const closing = store;
      store = undefined;
      opening = undefined;
      await closing?.close();
    },
  };
}

/** `logger` receives the database's lock warnings (another machine's lock given up after its expiry). */
export function createKbHandle(runtime: Runtime, file: string, sessionId: string, logger?: Logger): KbHandle {
  return lazyHandle('sqlite', file, async () => {
    runtime.fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const db = await openDatabase(runtime, file, { busyTimeoutMs: KB_BUSY_TIMEOUT_MS, migrations: KB_MIGRATIONS, ...(logger ? { logger } : {}) });
    return sqliteKnowledgeStore(new KnowledgeBase(db, sessionId), runtime.fs);
  });
}

export interface PostgresKbOptions {
  url: string;
  /** The project's key (storage.projectKey, else worked out from the repository on first use). */
  projectKey: () => Promise<string>;
  sessionId: string;
  /** This checkout, as `host:folder`: what its sources are stored as coming from (pg-store.ts). */
  origin: string;
  /**
   * The folder files are stored relative to (the repository's top, vcs/project-key.ts), so every
   * checkout of the project, and every server rooted in a folder of it, names a file alike.
   */
  pathsRoot?: () => Promise<string>;
}

/** The knowledge base on Postgres: connects, migrates (once across servers) and names the project on first use. */
export function createPostgresKbHandle(options: PostgresKbOptions): KbHandle {
  return lazyHandle('postgres', redactUrl(options.url), async () => {
    // Loaded here: a SQLite user's server never loads the Postgres driver.
    const [{ openPostgres }, { migratePostgres }, { KB_PG_COMPONENT, KB_PG_MIGRATIONS }, { postgresKnowledgeStore }] = await Promise.all([
      import('../storage/postgres/connection.ts'),
      import('../storage/postgres/migrate.ts'),
      import('./pg-schema.ts'),
      import('./pg-store.ts'),
    ]);
    const db = await openPostgres(options.url);
    try {
      await migratePostgres(db, KB_PG_COMPONENT, KB_PG_MIGRATIONS);
      return postgresKnowledgeStore(db, await options.projectKey(), options.sessionId, { origin: options.origin, paths: options.pathsRoot ? sharedPaths(await options.pathsRoot()) : SAME_PATHS });
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
  });
}
