// Loads the WASM SQLite build once, on first use (50–130 ms that start-up should not pay).
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Sqlite3Static;

let loading: Promise<Sqlite3> | undefined;

export function loadSqlite(): Promise<Sqlite3> {
  loading ??= import('@sqlite.org/sqlite-wasm').then(async (m) => {
    const sqlite3 = await m.default();
    // Its step() warns on stderr about every SQLITE_BUSY a waiting writer meets; callers get the
    // error (or their turn) anyway, and a stdio server's stderr is the client's log.
    (sqlite3 as unknown as { config: { warn: (...args: unknown[]) => void } }).config.warn = () => undefined;
    return sqlite3;
  });
  return loading;
}
