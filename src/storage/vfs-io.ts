// The VFS's per-file methods (sqlite3_io_methods): positional reads and writes on the runtime's
// file API, and SQLite's lock levels on DatabaseLock. Pitfalls handled: 64-bit offsets arrive as
// BigInt, the WASM heap view is fetched anew on every call (memory can grow), and a short read
// zero-fills the rest and says SQLITE_IOERR_SHORT_READ.
import { failWith, type VfsState, writeFailure } from './vfs-state.ts';

const LOST = 'this process stalled past the lock expiry and its lock was taken over by another machine: nothing more is written (the transaction is rolled back)';

export function ioMethods(state: VfsState) {
  const { capi, wasm, files, open } = state;
  return {
    xClose(pFile: number): number {
      const f = open.get(pFile);
      if (!f) return 0;
      open.delete(pFile);
      try {
        f.lock?.close();
        files.close(f.fd);
        if (f.deleteOnClose) files.unlink(f.path);
        return 0;
      } catch (error) {
        return failWith(state, capi.SQLITE_IOERR_CLOSE, error);
      }
    },
    xRead(pFile: number, pDest: number, n: number, offset: bigint | number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_READ;
      try {
        const got = files.read(f.fd, wasm.heap8u().subarray(pDest, pDest + n), Number(offset));
        if (got < n) {
          wasm.heap8u().fill(0, pDest + got, pDest + n);
          return capi.SQLITE_IOERR_SHORT_READ;
        }
        return 0;
      } catch (error) {
        return failWith(state, capi.SQLITE_IOERR_READ, error);
      }
    },
    xWrite(pFile: number, pSrc: number, n: number, offset: bigint | number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_WRITE;
      if (f.lock && !f.lock.mayWrite()) return failWith(state, capi.SQLITE_IOERR_WRITE, LOST);
      try {
        files.write(f.fd, wasm.heap8u().subarray(pSrc, pSrc + n), Number(offset));
        return 0;
      } catch (error) {
        return writeFailure(state, capi.SQLITE_IOERR_WRITE, error);
      }
    },
    xTruncate(pFile: number, size: bigint | number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_TRUNCATE;
      if (f.lock && !f.lock.mayWrite()) return failWith(state, capi.SQLITE_IOERR_TRUNCATE, LOST);
      try {
        files.truncate(f.fd, Number(size));
        return 0;
      } catch (error) {
        return writeFailure(state, capi.SQLITE_IOERR_TRUNCATE, error);
      }
    },
    xSync(pFile: number, _flags: number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_FSYNC;
      try {
        files.sync(f.fd);
        return 0;
      } catch (error) {
        return writeFailure(state, capi.SQLITE_IOERR_FSYNC, error);
      }
    },
    xFileSize(pFile: number, pSize: number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_FSTAT;
      try {
        wasm.poke64(pSize, BigInt(files.size(f.fd)));
        return 0;
      } catch (error) {
        return failWith(state, capi.SQLITE_IOERR_FSTAT, error);
      }
    },
    xLock(pFile: number, level: number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_LOCK;
      if (!f.lock) return 0;
      try {
        return f.lock.lock(level) ? 0 : capi.SQLITE_BUSY;
      } catch (error) {
        return failWith(state, capi.SQLITE_IOERR_LOCK, error);
      }
    },
    xUnlock(pFile: number, level: number): number {
      const f = open.get(pFile);
      if (!f) return capi.SQLITE_IOERR_UNLOCK;
      try {
        f.lock?.unlock(level);
        return 0;
      } catch (error) {
        return failWith(state, capi.SQLITE_IOERR_UNLOCK, error);
      }
    },
    xCheckReservedLock(pFile: number, pOut: number): number {
      const f = open.get(pFile);
      try {
        wasm.poke32(pOut, f?.lock?.reservedElsewhere() ? 1 : 0);
        return 0;
      } catch (error) {
        wasm.poke32(pOut, 0);
        return failWith(state, capi.SQLITE_IOERR_CHECKRESERVEDLOCK, error);
      }
    },
    xFileControl: (): number => capi.SQLITE_NOTFOUND,
    xSectorSize: (): number => 4096,
    xDeviceCharacteristics: (): number => 0,
  };
}
