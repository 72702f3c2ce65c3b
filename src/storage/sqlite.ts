// Loads the WASM SQLite build once, on first use (50–130 ms that start-up should not pay).
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Sqlite3Static;

let loading: Promise<Sqlite3> | undefined;

export function loadSqlite(): Promise<Sqlite3> {
  loading ??= import('@sqlite.org/sqlite-wasm').then((m) => m.default());
  return loading;
}
