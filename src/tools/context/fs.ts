// ctx_fs: the workspace file system (ls, glob, stat, rg), every path limited to the workdirs.
import { z } from 'zod';
import { AppError, ErrorCode } from '../../errors.ts';
import { resolveSafe } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { globFiles } from '../../workspace/glob.ts';
import { grep } from '../../workspace/grep/index.ts';
import { checkGrepPattern } from '../../workspace/grep/pattern.ts';
import { listDir } from '../../workspace/list.ts';
import { statPath } from '../../workspace/stat.ts';
import { keepOutOfContext } from './output-policy.ts';
import { byAction, defineTool, READ_ONLY, type ToolCallContext } from '../registry.ts';
import { resolveFolder } from '../workdir-folder.ts';
import { formatGlob, formatGrep, formatListing, formatStat } from './fs-printer.ts';

const LIST_LIMIT = { default: 200, max: 2000 };
const RG_LIMIT = { default: 50, max: 500 };

const input = z.strictObject({
  action: z.enum(['ls', 'glob', 'stat', 'rg']),
  path: z.string().optional().describe('default: primary workdir'),
  depth: z.number().int().min(1).max(5, 'must be 1–5').optional().describe('ls, default 1'),
  include_hidden: z.boolean().optional().describe('ls'),
  limit: z.number().int().min(1).max(LIST_LIMIT.max, `must be at most ${LIST_LIMIT.max} (rg: ${RG_LIMIT.max})`).optional().describe('default 200 (rg: 50, ≤500)'),
  pattern: z.string().min(1).optional().describe('glob: src/**/*.ts; rg: regex'),
  glob: z.string().min(1).optional().describe('rg: *.go, !*.min.js'),
  ignore_case: z.boolean().optional(),
  context: z.number().int().min(0).max(5, 'must be 0–5').optional().describe('rg'),
  literal: z.union([z.boolean(), z.string().min(1)]).optional().describe('rg: true = plain pattern, or the text'),
});

type Args = z.output<typeof input>;

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

export const ctxFs = defineTool({
  name: 'ctx_fs',
  title: 'Workspace files',
  description:
    'Files in the workdirs: ls, glob (gitignore-aware), stat, rg (sorted by path; secret files never searched).',
  input,
  annotations: READ_ONLY,
  run: byAction<Args>({ ls, glob, stat, rg }),
});
