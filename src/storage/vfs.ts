// A durable SQLite VFS for @sqlite.org/sqlite-wasm, the same on Node and on Deno: the package only ships in-memory
// file systems there, so this one maps SQLite's synchronous file calls onto the runtime shim's
// positional file API, and its locks onto a lock file (see lock-file.ts). Pitfalls it handles:
// 64-bit offsets arrive as BigInt, the WASM heap view must be fetched anew on every call (memory can
// grow), and a short read zero-fills the rest and says SQLITE_IOERR_SHORT_READ.
import * as path from 'node:path';
import type { Runtime } from '../runtime/types.ts';
import { LockFile } from './lock-file.ts';
import type { Sqlite3 } from './sqlite.ts';

// The struct-binding API that installs a VFS is not in the package's type declarations.
// biome-ignore lint/suspicious/noExplicitAny: untyped part of the sqlite-wasm API
type Loose = any;

interface OpenFile {
  fd: number;
  path: string;
  deleteOnClose: boolean;
  /** Only the main database carries the cross-process lock. */
  lock: LockFile | undefined;
  lockLevel: number;
}

export interface DurableVfs {
  name: string;
  /** The lock file of a database path (for "in use by pid N" messages). */
  lockFor(dbPath: string): LockFile;
}

const installed = new WeakMap<object, DurableVfs>();

function errnoOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

export function installDurableVfs(sqlite3: Sqlite3, runtime: Runtime, name = 'ctxgate'): DurableVfs {
  const existing = installed.get(sqlite3);
  if (existing) return existing;
  const { capi, wasm } = sqlite3 as Loose;
  const files = runtime.fs.files;
  const open = new Map<number, OpenFile>();
  const locks = new Map<string, LockFile>();
  const lockFor = (dbPath: string): LockFile => {
    const known = locks.get(dbPath);
    if (known) return known;
    const lock = new LockFile(runtime, `${dbPath}-lock`);
    locks.set(dbPath, lock);
    return lock;
  };
  let tempCounter = 0;

  const io = new capi.sqlite3_io_methods();
  io.$iVersion = 1;
  const vfs = new capi.sqlite3_vfs();
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;

  const fail = (code: number) => (error: unknown) => {
    lastError = String(error);
    return code;
  };
  let lastError = '';

  (sqlite3 as Loose).vfs.installVfs({
    io: {
      struct: io,
      methods: {
        xClose(pFile: number): number {
          const f = open.get(pFile);
          if (!f) return 0;
          open.delete(pFile);
          try {
            if (f.lock && f.lockLevel > 0) f.lock.release();
            files.close(f.fd);
            if (f.deleteOnClose) files.unlink(f.path);
            return 0;
          } catch (error) {
            return fail(capi.SQLITE_IOERR_CLOSE)(error);
          }
        },
        xRead(pFile: number, pDest: number, n: number, offset: bigint | number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_READ;
          try {
            const into = wasm.heap8u().subarray(pDest, pDest + n);
            const got = files.read(f.fd, into, Number(offset));
            if (got < n) {
              wasm.heap8u().fill(0, pDest + got, pDest + n);
              return capi.SQLITE_IOERR_SHORT_READ;
            }
            return 0;
          } catch (error) {
            return fail(capi.SQLITE_IOERR_READ)(error);
          }
        },
        xWrite(pFile: number, pSrc: number, n: number, offset: bigint | number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_WRITE;
          try {
            files.write(f.fd, wasm.heap8u().subarray(pSrc, pSrc + n), Number(offset));
            return 0;
          } catch (error) {
            return fail(errnoOf(error) === 'ENOSPC' ? capi.SQLITE_FULL : capi.SQLITE_IOERR_WRITE)(error);
          }
        },
        xTruncate(pFile: number, size: bigint | number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_TRUNCATE;
          try {
            files.truncate(f.fd, Number(size));
            return 0;
          } catch (error) {
            return fail(capi.SQLITE_IOERR_TRUNCATE)(error);
          }
        },
        xSync(pFile: number, _flags: number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_FSYNC;
          try {
            files.sync(f.fd);
            return 0;
          } catch (error) {
            return fail(capi.SQLITE_IOERR_FSYNC)(error);
          }
        },
        xFileSize(pFile: number, pSize: number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_FSTAT;
          try {
            wasm.poke64(pSize, BigInt(files.size(f.fd)));
            return 0;
          } catch (error) {
            return fail(capi.SQLITE_IOERR_FSTAT)(error);
          }
        },
        xLock(pFile: number, level: number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_LOCK;
          if (f.lock && f.lockLevel === 0 && level > 0) {
            try {
              if (!f.lock.tryAcquire().ok) return capi.SQLITE_BUSY;
            } catch (error) {
              return fail(capi.SQLITE_IOERR_LOCK)(error);
            }
          }
          f.lockLevel = Math.max(f.lockLevel, level);
          return 0;
        },
        xUnlock(pFile: number, level: number): number {
          const f = open.get(pFile);
          if (!f) return capi.SQLITE_IOERR_UNLOCK;
          if (f.lock && level === 0 && f.lockLevel > 0) f.lock.release();
          f.lockLevel = level;
          return 0;
        },
        xCheckReservedLock(pFile: number, pOut: number): number {
          const f = open.get(pFile);
          const reserved = f?.lock ? f.lockLevel >= capi.SQLITE_LOCK_RESERVED || f.lock.owner() !== undefined : false;
          wasm.poke32(pOut, reserved ? 1 : 0);
          return 0;
        },
        xFileControl: (): number => capi.SQLITE_NOTFOUND,
        xSectorSize: (): number => 4096,
        xDeviceCharacteristics: (): number => 0,
      },
    },
    vfs: {
      struct: vfs,
      name,
      methods: {
        xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
          const named = zName ? wasm.cstrToJs(zName) : '';
          const file = named || path.join(runtime.env.get('TMPDIR') ?? '/tmp', `ctxgate-sqlite-${runtime.pid}-${Date.now()}-${tempCounter++}`);
          const readOnly = (flags & capi.SQLITE_OPEN_READONLY) !== 0;
          const create = (flags & capi.SQLITE_OPEN_CREATE) !== 0;
          let fd: number;
          try {
            fd = openFile(files, file, readOnly, create);
          } catch (error) {
            return fail(capi.SQLITE_CANTOPEN)(error);
          }
          const isMain = (flags & capi.SQLITE_OPEN_MAIN_DB) !== 0;
          open.set(pFile, {
            fd,
            path: file,
            deleteOnClose: !named || (flags & capi.SQLITE_OPEN_DELETEONCLOSE) !== 0,
            lock: isMain ? lockFor(file) : undefined,
            lockLevel: 0,
          });
          const handle = new capi.sqlite3_file(pFile);
          handle.$pMethods = io.pointer;
          handle.dispose();
          if (pOutFlags) wasm.poke32(pOutFlags, flags);
          return 0;
        },
        xDelete(_pVfs: number, zName: number, syncDir: number): number {
          const file = wasm.cstrToJs(zName);
          try {
            files.unlink(file);
            if (syncDir) files.syncDir(path.dirname(file));
            return 0;
          } catch (error) {
            return fail(errnoOf(error) === 'ENOENT' ? capi.SQLITE_IOERR_DELETE_NOENT : capi.SQLITE_IOERR_DELETE)(error);
          }
        },
        xAccess(_pVfs: number, zName: number, _flags: number, pOut: number): number {
          wasm.poke32(pOut, files.exists(wasm.cstrToJs(zName)) ? 1 : 0);
          return 0;
        },
        xFullPathname(_pVfs: number, zName: number, nOut: number, pOut: number): number {
          const full = path.resolve(runtime.cwd(), wasm.cstrToJs(zName));
          const bytes = new TextEncoder().encode(full);
          if (bytes.length + 1 > nOut) return capi.SQLITE_CANTOPEN;
          const heap = wasm.heap8u();
          heap.set(bytes, pOut);
          heap[pOut + bytes.length] = 0;
          return 0;
        },
        xRandomness(_pVfs: number, n: number, pOut: number): number {
          const heap = wasm.heap8u();
          for (let at = 0; at < n; at += 65536) crypto.getRandomValues(heap.subarray(pOut + at, pOut + Math.min(n, at + 65536)));
          return n;
        },
        xSleep(_pVfs: number, micros: number): number {
          runtime.sleepSync(Math.ceil(micros / 1000));
          return micros;
        },
        xCurrentTime(_pVfs: number, pOut: number): number {
          wasm.poke(pOut, 2440587.5 + Date.now() / 86400000, 'double');
          return 0;
        },
        xCurrentTimeInt64(_pVfs: number, pOut: number): number {
          wasm.poke64(pOut, BigInt(2440587.5 * 86400000 + Date.now()));
          return 0;
        },
        xGetLastError(_pVfs: number, nOut: number, pOut: number): number {
          if (nOut > 0 && lastError) {
            const bytes = new TextEncoder().encode(lastError).subarray(0, nOut - 1);
            const heap = wasm.heap8u();
            heap.set(bytes, pOut);
            heap[pOut + bytes.length] = 0;
          }
          return 0;
        },
      },
    },
  });
  const result = { name, lockFor };
  installed.set(sqlite3, result);
  return result;
}

function openFile(files: Runtime['fs']['files'], file: string, readOnly: boolean, create: boolean): number {
  if (readOnly) return files.open(file, 'r');
  try {
    return files.open(file, 'r+');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT' || !create) throw error;
  }
  try {
    // 'wx+' never truncates a file another process created a moment ago.
    return files.open(file, 'wx+', 0o600);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return files.open(file, 'r+');
    throw error;
  }
}
