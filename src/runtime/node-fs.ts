// File system over `node:fs`. Deno 2 implements these calls too, so both runtimes share this file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SMALL_BYTES, scratchArray } from './scratch.ts';
import type { AppendHandle, DirEntry, FileStat, OpenedFile, ReadBuffer, RuntimeFs, SyncFiles } from './types.ts';

function toStat(s: fs.Stats): FileStat {
  return {
    size: s.size,
    mode: s.mode,
    mtimeMs: s.mtimeMs,
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymbolicLink: s.isSymbolicLink(),
    dev: s.dev,
    ino: s.ino,
    nlink: s.nlink,
    ctimeMs: s.ctimeMs,
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function toEntry(d: fs.Dirent): DirEntry {
  return { name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory(), isSymbolicLink: d.isSymbolicLink() };
}

function statOrUndefined(fn: () => fs.Stats | undefined): FileStat | undefined {
  try {
    const st = fn();
    return st ? toStat(st) : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function statOrUndefinedAsync(fn: () => Promise<fs.Stats>): Promise<FileStat | undefined> {
  try {
    return toStat(await fn());
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function openAppendSync(file: string, mode = 0o600): AppendHandle {
  const fd = fs.openSync(file, 'a', mode);
  let size = fs.fstatSync(fd).size;
  return {
    append(text) {
      const bytes = Buffer.from(text, 'utf8');
      fs.writeSync(fd, bytes);
      size += bytes.length;
    },
    size: () => size,
    close: () => fs.closeSync(fd),
  };
}

function writeFileAtomicSync(file: string, data: string | Uint8Array, mode = 0o600): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

const files: SyncFiles = {
  open: (p, flags, mode = 0o600) => fs.openSync(p, flags, mode),
  openRead(p) {
    const fd = fs.openSync(p, NO_FOLLOW);
    try {
      const stat = toStat(fs.fstatSync(fd));
      const location = locationOf(fd);
      return location === undefined ? { fd, stat } : { fd, stat, location };
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  },
  read(fd, into, position) {
    let total = 0;
    while (total < into.length) {
      const n = fs.readSync(fd, into, total, into.length - total, position + total);
      if (n === 0) break;
      total += n;
    }
    return total;
  },
  write(fd, from, position) {
    let total = 0;
    while (total < from.length) total += fs.writeSync(fd, from, total, from.length - total, position + total);
    return total;
  },
  sync: (fd) => fs.fsyncSync(fd),
  truncate: (fd, size) => fs.ftruncateSync(fd, size),
  size: (fd) => fs.fstatSync(fd).size,
  close: (fd) => fs.closeSync(fd),
  unlink: (p) => fs.unlinkSync(p),
  exists: (p) => fs.existsSync(p),
  symlink: (target, p) => fs.symlinkSync(target, p),
  syncDir(p) {
    const fd = fs.openSync(p, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
};

const NO_FOLLOW = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW;

/** Where a descriptor really is, as Linux names it; undefined elsewhere (no /proc) or when unreadable. */
function locationOf(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function fileError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A Buffer's bytes as a plain Uint8Array: a view of its memory when the Buffer has its ArrayBuffer to
 * itself (a file read's; no copy of every file the index reads), else a copy (a slice of Node's pool).
 */
function bytesOf(b: Buffer): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b);
}

/**
 * An open file's bytes from its start, `size` the size fstat gave. A file above 1 MiB is read into an
 * array of scratch.ts (at least 33 MiB, mapped: freeing it moves no allocator threshold); a file that
 * grew past that array is read again whole.
 */
async function readHandle(handle: fs.promises.FileHandle, size: number): Promise<Uint8Array> {
  if (size <= SMALL_BYTES) return bytesOf(await handle.readFile());
  const into = scratchArray(Uint8Array, size + 1);
  let n = 0;
  for (;;) {
    const { bytesRead } = await handle.read(into, n, into.length - n, n);
    if (bytesRead === 0) return into.subarray(0, n);
    n += bytesRead;
    if (n === into.length) return bytesOf(await handle.readFile());
  }
}

async function readFile(p: string): Promise<Uint8Array> {
  const handle = await fs.promises.open(p, 'r');
  try {
    return await readHandle(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

async function readOpened(p: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<OpenedFile> {
  const handle = await fs.promises.open(p, NO_FOLLOW);
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw fileError(st.isDirectory() ? 'EISDIR' : 'EINVAL', `${p} is not a regular file`);
    if (st.size > maxBytes) throw fileError('EFBIG', `${p} is ${st.size} bytes, over ${maxBytes}`);
    const location = locationOf(handle.fd);
    const bytes = await readHandle(handle, st.size);
    return location === undefined ? { bytes, stat: toStat(st) } : { bytes, stat: toStat(st), location };
  } finally {
    await handle.close();
  }
}

/**
 * Room for `size` bytes in a reused buffer, grown to at least twice its size when it has not (above
 * 1 MiB an array of scratch.ts: files of several MB read one after another reuse its touched pages).
 */
function roomIn(buffer: ReadBuffer, size: number): Uint8Array {
  if (buffer.bytes.length < size) buffer.bytes = scratchArray(Uint8Array, Math.max(size, buffer.bytes.length * 2, 64 << 10));
  return buffer.bytes.subarray(0, size);
}

function readOpenedSync(p: string, maxBytes: number, options: { location?: boolean; into?: ReadBuffer } = {}): OpenedFile | undefined {
  let fd: number;
  try {
    fd = fs.openSync(p, NO_FOLLOW);
  } catch {
    return undefined; // missing, a symlink (ELOOP), unreadable
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const out = options.into ? roomIn(options.into, st.size) : new Uint8Array(st.size);
    let at = 0;
    while (at < out.length) {
      const n = fs.readSync(fd, out, at, out.length - at, at);
      if (n === 0) break;
      at += n;
    }
    const bytes = at === out.length ? out : out.subarray(0, at);
    const location = options.location ? locationOf(fd) : undefined;
    return location === undefined ? { bytes, stat: toStat(st) } : { bytes, stat: toStat(st), location };
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** A regular file's bytes, opened without following a final symlink; undefined for anything else or past maxBytes. */
function readRegularFileSync(p: string, maxBytes: number): Uint8Array | undefined {
  return readOpenedSync(p, maxBytes)?.bytes;
}

export const nodeFs: RuntimeFs = {
  readOpened,
  readOpenedSync,
  readTextFile: (p) => fs.promises.readFile(p, 'utf8'),
  readTextFileSync: (p) => fs.readFileSync(p, 'utf8'),
  readFile,
  readRegularFileSync,
  writeFileAtomicSync,
  openAppendSync,
  mkdirSync: (p, o) => void fs.mkdirSync(p, { recursive: o?.recursive ?? false, mode: o?.mode }),
  chmodSync: (p, m) => fs.chmodSync(p, m),
  renameSync: (a, b) => fs.renameSync(a, b),
  removeSync: (p, o) => fs.rmSync(p, { recursive: o?.recursive ?? false, force: true }),
  // throwIfNoEntry: a missing path is common on hot paths (a .gitignore looked for in every folder),
  // and a thrown error costs far more than the stat.
  statSync: (p) => statOrUndefined(() => fs.statSync(p, { throwIfNoEntry: false })),
  lstatSync: (p) => statOrUndefined(() => fs.lstatSync(p, { throwIfNoEntry: false })),
  stat: (p) => statOrUndefinedAsync(() => fs.promises.stat(p)),
  lstat: (p) => statOrUndefinedAsync(() => fs.promises.lstat(p)),
  realpathSync: (p) => fs.realpathSync(p),
  realpath: (p) => fs.promises.realpath(p),
  readlinkSync: (p) => fs.readlinkSync(p),
  readDir: async (p) => (await fs.promises.readdir(p, { withFileTypes: true })).map(toEntry),
  readDirSync: (p) => fs.readdirSync(p, { withFileTypes: true }).map(toEntry),
  makeTempDirSync: (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix)),
  writeFileSync: (p, data, mode = 0o600) => fs.writeFileSync(p, data, { mode }),
  files,
};
