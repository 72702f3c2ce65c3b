// The VFS's own methods (sqlite3_vfs): open and delete files, paths, randomness, time, and a sleep
// that really blocks (Atomics.wait): that is what makes busy_timeout wait instead of failing.
import * as path from 'node:path';
import type { SyncFiles } from '../runtime/types.ts';
import { DatabaseLock } from './database-lock.ts';
import { ownerForConnection } from './lock-owner.ts';
import { errnoOf, failWith, type VfsState } from './vfs-state.ts';

export function systemMethods(state: VfsState, ioPointer: number) {
  const { capi, wasm, files, runtime, open } = state;
  let tempCounter = 0;
  const writeCString = (text: string, nOut: number, pOut: number): boolean => {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length + 1 > nOut) return false;
    const heap = wasm.heap8u();
    heap.set(bytes, pOut);
    heap[pOut + bytes.length] = 0;
    return true;
  };
  return {
    xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
      const named = zName ? wasm.cstrToJs(zName) : '';
      const file = named || path.join(runtime.env.get('TMPDIR') ?? '/tmp', `ctxgate-sqlite-${runtime.pid}-${Date.now()}-${tempCounter++}`);
      const readOnly = (flags & capi.SQLITE_OPEN_READONLY) !== 0;
      const create = (flags & capi.SQLITE_OPEN_CREATE) !== 0;
      const isMain = (flags & capi.SQLITE_OPEN_MAIN_DB) !== 0;
      let fd: number;
      let lock: DatabaseLock | undefined;
      try {
        fd = openFile(files, file, readOnly, create);
      } catch (error) {
        return failWith(state, capi.SQLITE_CANTOPEN, error);
      }
      if (isMain) {
        try {
          const logger = state.loggers.get(file);
          lock = new DatabaseLock(runtime, file, ownerForConnection(runtime), logger ? { logger } : {});
          lock.open();
        } catch (error) {
          files.close(fd);
          return failWith(state, capi.SQLITE_CANTOPEN, error);
        }
      }
      open.set(pFile, { fd, path: file, deleteOnClose: !named || (flags & capi.SQLITE_OPEN_DELETEONCLOSE) !== 0, lock });
      const handle = new capi.sqlite3_file(pFile);
      handle.$pMethods = ioPointer;
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
        return failWith(state, errnoOf(error) === 'ENOENT' ? capi.SQLITE_IOERR_DELETE_NOENT : capi.SQLITE_IOERR_DELETE, error);
      }
    },
    xAccess(_pVfs: number, zName: number, _flags: number, pOut: number): number {
      wasm.poke32(pOut, files.exists(wasm.cstrToJs(zName)) ? 1 : 0);
      return 0;
    },
    xFullPathname(_pVfs: number, zName: number, nOut: number, pOut: number): number {
      return writeCString(path.resolve(runtime.cwd(), wasm.cstrToJs(zName)), nOut, pOut) ? 0 : capi.SQLITE_CANTOPEN;
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
      if (nOut > 0 && state.lastError) {
        const bytes = new TextEncoder().encode(state.lastError).subarray(0, nOut - 1);
        writeCString(new TextDecoder().decode(bytes), nOut, pOut);
      }
      return 0;
    },
  };
}

function openFile(files: SyncFiles, file: string, readOnly: boolean, create: boolean): number {
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
