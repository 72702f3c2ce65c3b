// A durable SQLite VFS for @sqlite.org/sqlite-wasm, the same on Node and on Deno: the package only
// ships in-memory file systems there, so this one maps SQLite's synchronous file calls onto the
// runtime shim's positional file API (vfs-io.ts, vfs-system.ts) and SQLite's lock levels onto lock
// links that several processes share (database-lock.ts). One VFS is registered per runtime object,
// so a test can hand in a runtime whose file API misbehaves on purpose.
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import type { Sqlite3 } from './sqlite.ts';
import { ioMethods } from './vfs-io.ts';
import type { Loose, VfsState } from './vfs-state.ts';
import { systemMethods } from './vfs-system.ts';

export interface DurableVfs {
  name: string;
  /** Reports the lock warnings of the database at `file` (an absolute path) to `logger`. */
  setLogger(file: string, logger: Logger): void;
}

const installed = new WeakMap<object, WeakMap<Runtime, DurableVfs>>();
let registered = 0;

export function installDurableVfs(sqlite3: Sqlite3, runtime: Runtime): DurableVfs {
  const perRuntime = installed.get(sqlite3) ?? new WeakMap<Runtime, DurableVfs>();
  installed.set(sqlite3, perRuntime);
  const existing = perRuntime.get(runtime);
  if (existing) return existing;

  const { capi, wasm } = sqlite3 as Loose;
  const state: VfsState = { runtime, files: runtime.fs.files, capi, wasm, open: new Map(), lastError: '', loggers: new Map() };
  const io = new capi.sqlite3_io_methods();
  io.$iVersion = 1;
  const vfs = new capi.sqlite3_vfs();
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;
  const name = registered++ === 0 ? 'ctxgate' : `ctxgate-${registered}`;
  (sqlite3 as Loose).vfs.installVfs({
    io: { struct: io, methods: ioMethods(state) },
    vfs: { struct: vfs, name, methods: systemMethods(state, io.pointer) },
  });
  const result: DurableVfs = { name, setLogger: (file, logger) => void state.loggers.set(file, logger) };
  perRuntime.set(runtime, result);
  return result;
}
