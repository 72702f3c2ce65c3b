// A folder argument (scope, cwd, path to list) as every tool resolves it: inside a workdir after
// symlinks, and a folder, not a file.
import { AppError, ErrorCode } from '../errors.ts';
import { resolveSafe, type SafePath } from '../security/resolve-safe.ts';
import type { ToolCallContext } from './registry.ts';

export function resolveFolder(ctx: ToolCallContext, given: string | undefined, param: string, hint: string): SafePath {
  const folder = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, given);
  if (!ctx.app.runtime.fs.statSync(folder.real)?.isDirectory) {
    throw new AppError(ErrorCode.InvalidArgument, `${param} '${given}' is not a folder`, { hint });
  }
  return folder;
}
