// The knowledge base is opened on first use (WASM start-up is not paid by servers that never use
// it) and closed at shutdown. Any number of ctxgate processes on the project share it: locks are
// taken per transaction (storage/database-lock.ts), and a writer waits up to KB_BUSY_TIMEOUT_MS
// for its turn.
import * as path from 'node:path';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import { openDatabase } from '../storage/database.ts';
import { KB_MIGRATIONS } from './schema.ts';
import { KnowledgeBase } from './store.ts';

/** Bytes the database takes on disk: the file and, mid-transaction, its rollback journal. */
export function databaseBytes(fs: Pick<Runtime['fs'], 'statSync'>, file: string): number {
  return ['', '-journal'].reduce((n, suffix) => n + (fs.statSync(file + suffix)?.size ?? 0), 0);
}

/** How long a knowledge-base call waits for other processes' writes before it gives up. */
export const KB_BUSY_TIMEOUT_MS = 20_000;

export interface KbHandle {
  readonly file: string;
  readonly isOpen: boolean;
  get(): Promise<KnowledgeBase>;
  close(): void;
}

/** CTXGATE_DB → CTXMODE_DB → `<data dir>/context.db`. */
export function kbDatabaseFile(runtime: Runtime, dataDir: string): string {
  const explicit = runtime.env.get('CTXGATE_DB') ?? runtime.env.get('CTXMODE_DB');
  return explicit ? path.resolve(runtime.cwd(), explicit) : path.join(dataDir, 'context.db');
}

/** `logger` receives the database's lock warnings (another machine's lock given up after its expiry). */
export function createKbHandle(runtime: Runtime, file: string, sessionId: string, logger?: Logger): KbHandle {
  let opening: Promise<KnowledgeBase> | undefined;
  let kb: KnowledgeBase | undefined;
  return {
    file,
    get isOpen() {
      return kb !== undefined;
    },
    get() {
      opening ??= (async () => {
        runtime.fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const db = await openDatabase(runtime, file, { busyTimeoutMs: KB_BUSY_TIMEOUT_MS, migrations: KB_MIGRATIONS, ...(logger ? { logger } : {}) });
        kb = new KnowledgeBase(db, sessionId);
        return kb;
      })().catch((error) => {
        opening = undefined;
        throw error;
      });
      return opening;
    },
    close() {
      kb?.close();
      kb = undefined;
      opening = undefined;
    },
  };
}
