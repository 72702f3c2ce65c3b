// A file source's identity beyond time and size: the digest of the bytes indexed. A team's clones
// of one project share one document per file (kb/shared-paths.ts), each checked out at its own time:
// with time and size alone every other clone would see every hit as stale and index it again.
import { createHash } from 'node:crypto';
import type { RuntimeFs } from '../runtime/types.ts';
import type { SourceRow } from './store.ts';

/**
 * A file as it is now: its time and size, and (asked only when the size matches but the time does
 * not) the digest of its bytes — fileDigest's, or undefined when it cannot be read.
 */
export type StatFn = (path: string) => { mtimeMs: number; size: number; digest?: () => string | undefined } | undefined;

/** The digest a file source records of its indexed bytes, and a file is compared by. */
export function fileDigest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether a file source no longer matches the file: gone, another size, or another time with other
 * bytes. Another time alone is not enough: a clone checked out elsewhere (a team's shared knowledge
 * base) holds the same bytes at another time.
 */
export function sourceChanged(row: Pick<SourceRow, 'mtime_ms' | 'size' | 'digest'>, now: ReturnType<StatFn>): boolean {
  if (!now || now.size !== row.size) return true;
  if (now.mtimeMs === row.mtime_ms) return false;
  return !row.digest || !now.digest || now.digest() !== row.digest;
}

/** The files as they are now, for search's stale marks: stat, and the digest read only when asked (files up to `maxBytes`, not through a final symlink). */
export function currentFiles(fs: Pick<RuntimeFs, 'statSync' | 'readRegularFileSync'>, maxBytes: number): StatFn {
  return (path) => {
    const st = fs.statSync(path);
    if (!st) return undefined;
    return {
      mtimeMs: st.mtimeMs,
      size: st.size,
      digest: () => {
        const bytes = fs.readRegularFileSync(path, maxBytes);
        return bytes && fileDigest(bytes);
      },
    };
  };
}
