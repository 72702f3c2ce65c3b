// The spool: where output goes when the knowledge base cannot take it (busy past its bound, disk
// full, read-only), so a command's output is never lost. One private file per output in the data
// dir, written atomically; the folder is kept under a size and age bound, oldest first.
import * as path from 'node:path';
import type { RuntimeFs } from '../runtime/types.ts';

export const SPOOL_MAX_BYTES = 256 * 1024 * 1024;
export const SPOOL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface SpoolOptions {
  maxBytes?: number;
  maxAgeMs?: number;
  now?: number;
}

export interface SpooledFile {
  path: string;
  bytes: number;
}

/** Writes `text` to a new file in `dir` after making room; undefined when even that fails. */
export function spoolOutput(fs: RuntimeFs, dir: string, label: string, text: string, options: SpoolOptions = {}): SpooledFile | undefined {
  const bytes = new TextEncoder().encode(text);
  const maxBytes = options.maxBytes ?? SPOOL_MAX_BYTES;
  if (bytes.length > maxBytes) return undefined;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneSpool(fs, dir, { ...options, reserve: bytes.length });
    const now = options.now ?? Date.now();
    const file = path.join(dir, `${new Date(now).toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}-${slug(label)}.txt`);
    fs.writeFileAtomicSync(file, bytes, 0o600);
    return { path: file, bytes: bytes.length };
  } catch {
    return undefined;
  }
}

/** Removes spool files past the age bound, then the oldest until `reserve` more bytes fit the size bound. */
export function pruneSpool(fs: RuntimeFs, dir: string, options: SpoolOptions & { reserve?: number } = {}): void {
  const now = options.now ?? Date.now();
  const maxAge = options.maxAgeMs ?? SPOOL_MAX_AGE_MS;
  const maxBytes = options.maxBytes ?? SPOOL_MAX_BYTES;
  let entries: { file: string; bytes: number; mtimeMs: number }[] = [];
  try {
    entries = fs
      .readDirSync(dir)
      .filter((e) => e.name.endsWith('.txt'))
      .flatMap((e) => {
        const file = path.join(dir, e.name);
        const st = fs.statSync(file);
        return st?.isFile ? [{ file, bytes: st.size, mtimeMs: st.mtimeMs }] : [];
      })
      .sort((a, b) => a.mtimeMs - b.mtimeMs);
  } catch {
    return;
  }
  let total = entries.reduce((n, e) => n + e.bytes, 0) + (options.reserve ?? 0);
  for (const e of entries) {
    if (now - e.mtimeMs <= maxAge && total <= maxBytes) continue;
    try {
      fs.removeSync(e.file);
      total -= e.bytes;
    } catch {
      // Another process removed it first, or it cannot be removed: the bound is best effort.
    }
  }
}

function slug(label: string): string {
  return (
    label
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'output'
  );
}
