// Whether a file's stat proves it is the version the index took. Size, mtime, ctime and inode
// together catch an edit, a replace by rename, and a `touch`/utimes that sets the mtime back (the
// ctime moves whatever the caller does). They cannot tell an edit made within the same timestamp
// tick as the read that took the file (the "racy" case git knows): a file whose mtime or ctime is
// that close to when it was read is read again and its content hash decides.
import type { FileStat } from '../runtime/types.ts';

/**
 * Timestamps this close to the read (or after it) prove nothing: coarse file system clocks tick in
 * milliseconds to seconds (ext4 follows the kernel tick; FAT keeps two seconds).
 */
export const RACY_MS = 2000;

/** What the catalogue recorded when the text stage took a file. */
export type TakenStat = {
  size: number;
  mtime_ms: number;
  ctime_ms: number;
  ino: number;
  /** When the text stage read the file (ms since the epoch); 0 never. */
  taken_at: number;
};

/** Size, mtime, ctime and inode as the row recorded them (whether the read was racy aside). */
export function sameStat(row: Omit<TakenStat, 'taken_at'>, st: Pick<FileStat, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>): boolean {
  return row.size === st.size && row.mtime_ms === st.mtimeMs && row.ctime_ms === st.ctimeMs && row.ino === st.ino;
}

/** True when `st` proves the file unchanged since it was taken; false when it changed or cannot be told. */
export function provesUnchanged(row: TakenStat, st: Pick<FileStat, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>): boolean {
  return sameStat(row, st) && Math.max(st.mtimeMs, st.ctimeMs) < row.taken_at - RACY_MS;
}

/**
 * Whether the file may differ from the version the row knows. A row the text stage never read, or
 * read before identities were recorded (schema 3 and older), knows only the size and mtime.
 */
export function mayDiffer(row: TakenStat & { hash: string }, st: Pick<FileStat, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>): boolean {
  if (row.hash === '' || row.taken_at === 0) return row.size !== st.size || row.mtime_ms !== st.mtimeMs;
  return !provesUnchanged(row, st);
}

/** The columns that hold a TakenStat (schema version 4). */
export const TAKEN_COLUMNS = 'size, mtime_ms, ctime_ms, ino, taken_at';
