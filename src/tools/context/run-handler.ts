// ctx_run: run commands and code (12 languages), files through code, batches with queries over their
// output, and structured build/test tasks — returning only what is needed, indexing the rest.
// The work behind the tool declared in run.ts (loaded on its first call, not at start).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../../errors.ts';
import { childEnv, validateEnvOverrides } from '../../exec/env.ts';
import { type RunSpec, runSteps } from '../../exec/execute.ts';
import { DEFAULT_MAX_AGE_MS, type JobInfo } from '../../exec/jobs.ts';
import { buildProgram, type Step } from '../../exec/programs.ts';
import { TASK_KINDS, taskArgv, validateTaskEnv } from '../../exec/tasks.ts';
import { isBinary } from '../../kb/indexer.ts';
import { keepOutOfContext } from './output-policy.ts';
import { combinedOutput, replyForRun, statusLine } from './run-printer.ts';
import { guardSearch } from '../../kb/flood-guard.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { readJudged } from '../../security/secret-read.ts';
import { secretInText } from '../../security/secret-text.ts';
import { resolveSafe } from '../../security/resolve-safe.ts';
import { byAction, type ToolCallContext, type ToolReply } from '../registry.ts';
import { resolveFolder } from '../workdir-folder.ts';
import type { CtxRunArgs } from './run.ts';

const MAX_STDIN_BYTES = 1024 * 1024;
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const EXECUTE_TIMEOUT_MS = 120_000;
const BATCH_TIMEOUT_MS = 30_000;
const TASK_TIMEOUT_MS = 300_000;

// Parameter names are the ctxmode spec's, snake_case; the spec names execute/batch's limit `timeout`
// and run_task's `timeout_ms` (both milliseconds), so both exist, each for its own actions.

type Args = CtxRunArgs;

let runSeq = 0;

/**
 * A label unique to this run: it names the output in the knowledge base, in ctx_bg list and on the
 * status page, so a command holding a credential (a URL with a password, a JWT) is not quoted in it —
 * judged on the whole command, before it is cut short (a cut URL no longer shows its password's end).
 */
function nextLabel(ctx: ToolCallContext, action: string, what?: string): string {
  runSeq++;
  const id = `${action}-${ctx.app.processSessionId.slice(0, 4)}-${runSeq}`;
  if (!what) return id;
  const held = secretInText(what);
  if (held) return `${id} (the command holds ${held})`;
  return `${id} ${what.length > 40 ? `${what.slice(0, 40)}…` : what}`;
}

function workdirFolder(ctx: ToolCallContext, cwd: string | undefined): string {
  return resolveFolder(ctx, cwd, 'cwd', 'pass a folder in a workdir').real;
}

function environment(ctx: ToolCallContext, env: Record<string, string> | undefined): Record<string, string> {
  if (env) validateEnvOverrides(env);
  return childEnv(ctx.app.runtime, env);
}

function stdinBytes(stdin: string | undefined): Uint8Array | undefined {
  if (stdin === undefined) return undefined;
  const bytes = new TextEncoder().encode(stdin);
  if (bytes.length > MAX_STDIN_BYTES) throw new AppError(ErrorCode.LimitExceeded, `stdin is ${bytes.length} bytes; the limit is 1 MB`, { hint: 'write the data to a file and use execute_file' });
  return bytes;
}

function cleanup(ctx: ToolCallContext, dir: string | undefined): void {
  if (dir) ctx.app.runtime.fs.removeSync(dir, { recursive: true });
}

/** Starts the last step as a background job (earlier compile steps run first, in the foreground). */
async function startBackground(ctx: ToolCallContext, spec: RunSpec, steps: Step[], tempDir: string | undefined): Promise<ToolReply> {
  let owned = tempDir;
  try {
    const compile = steps.slice(0, -1);
    if (compile.length) {
      const r = await runSteps(ctx.app.exec, { ...spec, steps: compile });
      if (r.exitCode !== 0) return await replyForRun(ctx.app, spec, r);
    }
    const run = steps[steps.length - 1]!;
    const job = ctx.app.jobs.start({ label: spec.label, command: run.command, args: run.args, cwd: spec.cwd, env: spec.env, stdin: spec.stdin, maxAgeMs: spec.timeoutMs, tempDir });
    // From here the job removes the folder when it ends.
    owned = undefined;
    return backgroundReply(spec, job);
  } finally {
    cleanup(ctx, owned);
  }
}

function backgroundReply(spec: RunSpec, job: JobInfo): ToolReply {
  return {
    text: `started ${job.id} (pid ${job.pid}) · ${spec.display} · ends at the latest after ${Math.round(spec.timeoutMs / 1000)} s\nfollow it: ctx_bg {"action":"log","id":"${job.id}"} · {"action":"wait","id":"${job.id}"} · {"action":"kill","id":"${job.id}"}`,
    structured: { ...job },
  };
}

async function execute(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const code = args.command ?? args.code;
  if (args.argv && code) throw new AppError(ErrorCode.InvalidArgument, 'pass either argv or command, not both', { hint: 'argv runs a program without a shell; command runs through the shell or the language' });
  if (!args.argv && !code) throw new AppError(ErrorCode.InvalidArgument, 'execute needs command or argv', { hint: 'e.g. {action:"execute", argv:["ls","-la"]}' });
  const language = args.language ?? 'shell';
  let steps: Step[];
  let dir: string | undefined;
  let display: string;
  if (args.argv) {
    steps = [{ command: args.argv[0]!, args: args.argv.slice(1) }];
    display = `argv: ${args.argv.join(' ')}`;
  } else {
    // A job that cannot start must not cost a temp folder or a compile first.
    if (args.background) ctx.app.jobs.checkRoom();
    const program = buildProgram(ctx.app.runtime, language, code!);
    steps = program.steps;
    dir = program.dir;
    display = language === 'shell' ? `shell: ${code!.split('\n')[0]}` : language;
  }
  try {
    const spec: RunSpec = {
      label: nextLabel(ctx, 'execute', display),
      display: display.length > 120 ? `${display.slice(0, 120)}…` : display,
      steps,
      cwd: workdirFolder(ctx, args.cwd),
      env: environment(ctx, args.env),
      stdin: stdinBytes(args.stdin),
      timeoutMs: args.timeout ?? (args.background ? DEFAULT_MAX_AGE_MS : EXECUTE_TIMEOUT_MS),
      signal: ctx.signal,
      intent: args.intent,
    };
    if (args.background) {
      // The job needs its sources until it ends: the job removes the folder then.
      const owned = dir;
      dir = undefined;
      return await startBackground(ctx, spec, steps, owned);
    }
    return await replyForRun(ctx.app, spec, await runSteps(ctx.app.exec, spec));
  } finally {
    cleanup(ctx, dir);
  }
}

async function executeFile(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  if (!args.path) throw new AppError(ErrorCode.InvalidArgument, 'execute_file needs path', { hint: 'the file whose content the code receives as FILE_CONTENT' });
  const code = args.code ?? args.command;
  if (!code) throw new AppError(ErrorCode.InvalidArgument, 'execute_file needs code', { hint: 'e.g. {action:"execute_file", path:"data.csv", language:"python", code:"print(len(FILE_CONTENT.splitlines()))"}' });
  const fs = ctx.app.runtime.fs;
  const file = resolveSafe(fs, ctx.app.workdirs, args.path);
  const st = await fs.stat(file.real);
  if (!st?.isFile) throw new AppError(ErrorCode.InvalidArgument, `'${args.path}' is not a file`);
  const secret = judgeSecret(ctx.app.workdirs, file);
  if (secret) throw secretRefusal(file.relative, secret, 'handed to code');
  if (st.size > MAX_FILE_BYTES) throw new AppError(ErrorCode.LimitExceeded, `'${args.path}' is ${st.size} bytes; the limit is 10 MB`, { hint: 'process it with a command that streams it instead' });
  // Judged again as opened: a hard link of a secret, key content, or a swap since the check is refused.
  const { bytes } = await readJudged(fs, ctx.app.workdirs, file.real, 'handed to code', { shown: file.relative, maxBytes: MAX_FILE_BYTES });
  if (isBinary(bytes)) throw new AppError(ErrorCode.InvalidArgument, `'${args.path}' is a binary file`, { hint: 'execute_file passes text; run a command on the file instead' });
  const language = args.language ?? 'shell';
  const program = buildProgram(ctx.app.runtime, language, code, { fileContent: new TextDecoder().decode(bytes) });
  try {
    const display = `${language} on ${file.relative}`;
    const spec: RunSpec = {
      label: nextLabel(ctx, 'execute_file', display),
      display,
      steps: program.steps,
      cwd: workdirFolder(ctx, args.cwd),
      env: environment(ctx, args.env),
      stdin: stdinBytes(args.stdin),
      timeoutMs: args.timeout ?? EXECUTE_TIMEOUT_MS,
      signal: ctx.signal,
      intent: args.intent,
    };
    return await replyForRun(ctx.app, spec, await runSteps(ctx.app.exec, spec));
  } finally {
    cleanup(ctx, program.dir);
  }
}

async function batch(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  const commands = args.commands;
  if (!commands) throw new AppError(ErrorCode.InvalidArgument, 'batch needs commands', { hint: 'e.g. {action:"batch", commands:[{label:"lint", command:"npm run lint"}]}' });
  const labels = new Set<string>();
  for (const c of commands) {
    if (!c.label.trim()) throw new AppError(ErrorCode.InvalidArgument, 'batch labels must not be blank');
    if (labels.has(c.label)) throw new AppError(ErrorCode.InvalidArgument, `batch label '${c.label}' is used twice`, { hint: 'labels name each output and must be unique' });
    labels.add(c.label);
  }
  const cwd = workdirFolder(ctx, args.cwd);
  const env = environment(ctx, args.env);
  const budget = args.timeout ?? BATCH_TIMEOUT_MS;
  const concurrency = args.concurrency ?? 1;
  const started = Date.now();
  const batchId = nextLabel(ctx, 'batch');
  const blocks: string[] = new Array(commands.length);
  const results: Record<string, unknown>[] = new Array(commands.length);
  const sourceLabels: string[] = [];
  // Bytes of output that went to the knowledge base (or the spool) instead of into this reply.
  let keptOutBytes = 0;

  async function runOne(i: number): Promise<void> {
    const c = commands![i]!;
    // Serial: one shared budget; concurrent: each command gets the whole timeout (the spec's rule).
    const timeoutMs = concurrency === 1 ? budget - (Date.now() - started) : budget;
    if (timeoutMs <= 0) {
      blocks[i] = `[${c.label}] not run: the batch's ${budget} ms were used up`;
      results[i] = { label: c.label, skipped: true };
      return;
    }
    const program = buildProgram(ctx.app.runtime, 'shell', c.command);
    try {
      const spec: RunSpec = { label: `${batchId} ${c.label}`, display: c.label, steps: program.steps, cwd, env, timeoutMs, signal: ctx.signal };
      const r = await runSteps(ctx.app.exec, spec);
      const body = combinedOutput(r);
      const indexed = await keepOutOfContext(ctx.app, { label: spec.label, kind: 'batch', summary: `[${c.label}] ${statusLine(spec, r)}`, text: body, producedBytes: r.truncated ? r.outputBytes : undefined });
      const isIndexed = indexed?.structured?.indexed === true;
      if (isIndexed) sourceLabels.push(spec.label);
      if (indexed?.saving) keptOutBytes += Math.max(0, indexed.saving.rawBytes - new TextEncoder().encode(indexed.text).length);
      blocks[i] = indexed ? indexed.text : `[${c.label}] ${statusLine(spec, r)}${body ? `\n${body}` : ''}`;
      results[i] = { label: c.label, exit_code: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, indexed: isIndexed, ...(r.failure ? { failure: r.failure } : {}) };
    } finally {
      cleanup(ctx, program.dir);
    }
  }

  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, commands.length) }, async () => {
      while (next < commands.length) await runOne(next++);
    }),
  );

  const parts = [`batch of ${commands.length} commands in ${Date.now() - started} ms`, ...blocks];
  const answers: Record<string, unknown>[] = [];
  if (args.queries?.length) {
    const scope = args.query_scope ?? 'batch';
    const kb = await ctx.app.kb.get();
    // Searching this batch's own output is part of the batch; a global search is an ordinary search.
    if (scope === 'global') guardSearch(ctx.session.flood, args.queries.length);
    const sourceIds = (await Promise.all(sourceLabels.map(async (l) => (await kb.source(`batch:${l}`))?.id))).filter((id): id is number => id !== undefined);
    for (const q of args.queries) {
      const hits = scope === 'batch' ? (sourceIds.length ? (await kb.search({ query: q, limit: 3, sourceIds })).hits : []) : (await kb.search({ query: q, limit: 3 })).hits;
      answers.push({ query: q, hits });
      parts.push(`query "${q}" (${scope}): ${hits.length ? '' : scope === 'batch' ? 'no match in this batch\'s indexed output (only output over 100 KB is indexed; the rest is above)' : 'no match'}`);
      for (const h of hits) parts.push(`- ${h.label}${h.lines ? `:${h.lines.join('-')}` : ''}: ${h.snippet}`);
    }
  }
  const text = parts.join('\n');
  const saving = keptOutBytes ? { rawBytes: new TextEncoder().encode(text).length + keptOutBytes, basis: 'output kept out' as const } : undefined;
  return { text, structured: { results, queries: answers }, ...(saving ? { saving } : {}) };
}

async function runTask(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  if (!args.kind) throw new AppError(ErrorCode.InvalidArgument, 'run_task needs kind', { hint: `one of ${TASK_KINDS.join(', ')}` });
  const argv = taskArgv(args.kind, args.target, args.args ?? []);
  if (args.env) validateTaskEnv(args.kind, args.env);
  const exe = argv[0]!.includes('/') ? path.resolve(workdirFolder(ctx, args.cwd), argv[0]!) : ctx.app.runtime.which(argv[0]!);
  if (!exe) throw new AppError(ErrorCode.Unavailable, `'${argv[0]}' is not on PATH`, { hint: `install it to run ${args.kind}` });
  const display = `${args.kind}${args.target ? ` ${args.target}` : ''}`;
  const spec: RunSpec = {
    label: nextLabel(ctx, 'run_task', display),
    display,
    steps: [{ command: exe, args: argv.slice(1) }],
    cwd: workdirFolder(ctx, args.cwd),
    env: environment(ctx, args.env),
    timeoutMs: args.timeout_ms ?? TASK_TIMEOUT_MS,
    signal: ctx.signal,
    intent: args.intent,
  };
  return replyForRun(ctx.app, spec, await runSteps(ctx.app.exec, spec));
}

export const runCtxRun = byAction<Args>({ execute, execute_file: executeFile, batch, run_task: runTask });
