
import { resolveSafe } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { gitDiff, gitLog, gitStatus, type GitRun } from '../../vcs/git.ts';
import { byAction, type ToolCallContext, type ToolReply } from '../registry.ts';
import { resolveFolder } from '../workdir-folder.ts';
import { filterNote, formatDiff, formatLog, formatStatus, omittedNote, withNotes } from './git-printer.ts';
import { keepOutOfContext } from './output-policy.ts';
import type { CtxGitArgs } from './git.ts';


type Args = CtxGitArgs;

function prepare(args: Args, ctx: ToolCallContext): { run: GitRun; path?: ReturnType<typeof resolveSafe> } {
  const fs = ctx.app.runtime.fs;
  const cwd = resolveFolder(ctx, args.cwd, 'cwd', 'pass a folder, or use path for a file');
  // A deleted file still has a diff and a history: it need not exist.
  const target = args.path === undefined ? undefined : resolveSafe(fs, ctx.app.workdirs, args.path, { mustExist: false });
  return { run: { runtime: ctx.app.runtime, exec: ctx.app.exec, cwd, signal: ctx.signal }, path: target };
}

export const runCtxGit = byAction<Args>({ status, diff, log });

async function status(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const { run } = prepare(args, ctx);
  const result = await gitStatus(run);
  return { text: withNotes(formatStatus(result), filterNote(result.filters)), structured: { ...result } };
}

async function diff(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const { run, path } = prepare(args, ctx);
  const secret = path && judgeSecret(ctx.app.workdirs, { ...path, folder: ctx.app.runtime.fs.statSync(path.real)?.isDirectory === true });
  if (path && secret) throw secretRefusal(path.relative, secret, 'diffed');
  const options = { path, stat: args.stat ?? false, staged: args.staged ?? false, unified: args.unified };
  const result = await gitDiff(run, options);
  const notes = [omittedNote(result.omitted), filterNote(result.filters)];
  const text = withNotes(formatDiff(result, options), ...notes);
  const label = `git diff${options.staged ? ' --staged' : ''}${options.stat ? ' --stat' : ''}${path ? ` ${path.relative}` : ''}`;
  const summary = withNotes(`${label}: ${result.lines} lines${result.truncated ? ' (truncated at 2000 lines / 200 KB)' : ''}`, ...notes);
  return (await keepOutOfContext(ctx.app, { label, kind: 'run', summary, text })) ?? { text, structured: { ...result } };
}

async function log(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const { run, path } = prepare(args, ctx);
  const oneline = args.oneline ?? true;
  const commits = await gitLog(run, { n: args.n ?? 20, path, oneline });
  return { text: formatLog(commits, oneline), structured: { commits } };
}
