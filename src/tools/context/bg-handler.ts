
import { AppError, ErrorCode } from '../../errors.ts';
import type { JobInfo } from '../../exec/jobs.ts';
import { keepOutOfContext } from './output-policy.ts';
import { byAction, type ToolCallContext, type ToolReply } from '../registry.ts';
import type { CtxBgArgs } from './bg.ts';



function describe(j: JobInfo): string {
  const state = j.running ? 'running' : j.endedBy ? `ended (${j.endedBy})` : j.signal ? `killed by ${j.signal}` : `exit ${j.exit_code}`;
  return `${j.id} pid ${j.pid ?? '?'} · ${state} · ${Math.round(j.ageMs / 1000)} s · log ${j.log_bytes} bytes${j.log_truncated ? ' (log_truncated)' : ''} · ${j.label}`;
}

export const runCtxBg = byAction<Args>({ list, kill, log, wait });

type Args = CtxBgArgs;

function jobRef(args: Args) {
  return { id: args.id, pid: args.pid };
}

function list(_args: Args, ctx: ToolCallContext): ToolReply {
  const jobs = ctx.app.jobs.list();
  return { text: jobs.length ? jobs.map(describe).join('\n') : 'no background jobs', structured: { jobs } };
}

async function kill(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const r = await ctx.app.jobs.kill(jobRef(args));
  return { text: `${r.killed ? 'killed' : 'had already ended'}: ${describe(r)}`, structured: { ...r } };
}

async function log(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const { info, text } = ctx.app.jobs.log(jobRef(args), args.tail_lines ?? 100, args.tail_bytes ?? 65_536);
  const head = describe(info);
  const reply = await keepOutOfContext(ctx.app, { label: `${info.id} log`, kind: 'run', summary: head, text });
  return reply ?? { text: `${head}\n${text || '(no output yet)'}`, structured: { ...info } };
}

async function wait(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  if (args.id === undefined && args.pid === undefined) throw new AppError(ErrorCode.InvalidArgument, 'wait needs id or pid', { hint: 'ctx_bg list shows the jobs' });
  const { info, finished } = await ctx.app.jobs.wait(jobRef(args), args.timeout_ms ?? 60_000, ctx.signal);
  return { text: `${finished ? 'finished' : 'still running after the wait'}: ${describe(info)}`, structured: { ...info, finished } };
}
