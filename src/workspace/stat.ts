// ctx_fs stat: metadata of one path, symlink-aware (the link itself, and where it leads).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';
import type { SafePath } from '../security/resolve-safe.ts';
import type { EntryType } from './walk.ts';

export interface StatResult {
  path: string;
  workdir: string;
  type: EntryType;
  size: number;
  mode: string;
  mtime: string;
  symlink?: { target: string; resolved: string; type: EntryType };
}

function kind(s: { isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean }): EntryType {
  return s.isSymbolicLink ? 'symlink' : s.isDirectory ? 'dir' : s.isFile ? 'file' : 'other';
}

export function statPath(fs: RuntimeFs, target: SafePath): StatResult {
  const own = fs.lstatSync(target.path);
  if (!own) throw new AppError(ErrorCode.NotFound, `path '${target.relative}' does not exist`);
  const result: StatResult = {
    path: target.relative || '.',
    workdir: target.workdir,
    type: kind(own),
    size: own.size,
    mode: `0${(own.mode & 0o7777).toString(8)}`,
    mtime: new Date(own.mtimeMs).toISOString(),
  };
  if (own.isSymbolicLink) {
    const pointee = fs.statSync(target.path);
    result.symlink = {
      target: fs.readlinkSync(target.path),
      resolved: path.relative(target.workdir, target.real).split(path.sep).join('/') || '.',
      type: pointee ? kind(pointee) : 'other',
    };
  }
  return result;
}
