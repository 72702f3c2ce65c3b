
import { AppError, ErrorCode } from '../../errors.ts';
import { resolveSafe } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { globFiles } from '../../workspace/glob.ts';
import { grep } from '../../workspace/grep/index.ts';
import { checkGrepPattern } from '../../workspace/grep/pattern.ts';
import { listDir } from '../../workspace/list.ts';
import { statPath } from '../../workspace/stat.ts';
import { keepOutOfContext } from './output-policy.ts';
import { byAction, type ToolCallContext } from '../registry.ts';
import { resolveFolder } from '../workdir-folder.ts';
import { formatGlob, formatGrep, formatListing, formatStat } from './fs-printer.ts';
import { type CtxFsArgs, LIST_LIMIT, RG_LIMIT } from './fs.ts';



type Args = CtxFsArgs;

function target(ctx: ToolCallContext, path: string | undefined) {
  return resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, path);
}

async function ls(args: Args, ctx: ToolCallContext) {
  const dir = resolveFolder(ctx, args.path, 'path', 'use action stat for a single file');
  const limit = args.limit ?? LIST_LIMIT.default;
  const listing = await listDir(ctx.app.runtime.fs, dir, { depth: args.depth ?? 1, includeHidden: args.include_hidden ?? false, limit, signal: ctx.signal });
  const text = formatListing(listing, limit);
  const summary = `${listing.entries.length} entries in ${listing.path}${listing.truncated ? ' (truncated)' : ''}`;
  return (await keepOutOfContext(ctx.app, { label: `ls ${listing.path} depth ${args.depth ?? 1}`, kind: 'run', summary, text })) ?? { text, structured: { ...listing } };
}

async function glob(args: Args, ctx: ToolCallContext) {
  if (!args.pattern) throw new AppError(ErrorCode.InvalidArgument, 'glob needs a pattern', { hint: "e.g. {action:'glob', pattern:'src/**/*.ts'}" });
  const base = target(ctx, args.path);
  const limit = args.limit ?? LIST_LIMIT.default;
  const result = await globFiles(ctx.app.runtime.fs, base, args.pattern, { limit, respectGitignore: ctx.app.config.scan.respectGitignore, signal: ctx.signal });
  const text = formatGlob(result, limit);
  const summary = `${result.matches.length} files match ${result.pattern} in ${result.base}${result.truncated ? ' (truncated)' : ''}`;
  return (await keepOutOfContext(ctx.app, { label: `glob ${result.pattern} ${result.base}`, kind: 'run', summary, text })) ?? { text, structured: { ...result } };
}

function stat(args: Args, ctx: ToolCallContext) {
  const result = statPath(ctx.app.runtime.fs, target(ctx, args.path));
  return { text: formatStat(result), structured: { ...result } };
}

async function rg(args: Args, ctx: ToolCallContext) {
  const literalText = typeof args.literal === 'string' ? args.literal : undefined;
  if (literalText && args.pattern) {
    throw new AppError(ErrorCode.InvalidArgument, 'pass either pattern or literal text, not both', { hint: 'use pattern with literal: true for plain text' });
  }
  const pattern = literalText ?? args.pattern;
  if (!pattern) throw new AppError(ErrorCode.InvalidArgument, 'rg needs a pattern', { hint: "e.g. {action:'rg', pattern:'TODO', glob:'*.ts'}" });
  // The same judgement search makes, before either engine runs: RE2 decides what ripgrep gets.
  checkGrepPattern(pattern, { literal: literalText !== undefined || args.literal === true, literalHint: 'or pass literal: true to search for the text as typed' });
  const limit = args.limit ?? RG_LIMIT.default;
  if (limit > RG_LIMIT.max) {
    throw new AppError(ErrorCode.LimitExceeded, `limit for rg is at most ${RG_LIMIT.max} (got ${limit})`, { hint: 'narrow the search instead of raising the limit' });
  }
  const where = target(ctx, args.path);
  const folder = (await ctx.app.runtime.fs.stat(where.real))?.isDirectory === true;
  const secret = judgeSecret(ctx.app.workdirs, { relative: where.relative, real: where.real, folder });
  if (secret) throw secretRefusal(where.relative, secret, 'searched');
  const query = {
    pattern,
    literal: literalText !== undefined || args.literal === true,
    ignoreCase: args.ignore_case ?? false,
    context: args.context ?? 0,
    limit,
    glob: args.glob,
  };
  const result = await grep(ctx.app, where, query, { signal: ctx.signal });
  const text = formatGrep(result, query);
  const label = `rg ${pattern}${args.glob ? ` --glob ${args.glob}` : ''} ${where.relative || '.'}`;
  const summary = `${result.matches} matches in ${result.files.length} files (${result.engine})${result.truncated ? ', more exist' : ''}`;
  return (await keepOutOfContext(ctx.app, { label, kind: 'run', summary, text })) ?? { text, structured: { ...result } };
}

export const runCtxFs = byAction<Args>({ ls, glob, stat, rg });
