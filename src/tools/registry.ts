// How a tool is declared and called. Each tool is one module exporting a ToolDefinition; the
// registry turns them into MCP tool listings, validates arguments, and turns every thrown error
// into an `isError` result that says what was wrong and what to do.
import { z } from 'zod';
import { AppError, ErrorCode, isAppError, messageOf } from '../errors.ts';
import type { SavingBasis } from '../kb/usage.ts';
import { summarizeRedacted } from '../logging/arg-summary.ts';
import { type CallResult, failureResult } from './call-result.ts';
import { handlerGoneError } from './handler-chunk.ts';
import type { ListedTool, ToolAnnotations } from './listed-tool.ts';
import { redactArgs } from '../logging/logger.ts';
import type { AppContext, ClientSession } from '../app/context.ts';

export { type CallResult, failureResult } from './call-result.ts';
export type { ListedTool, ToolAnnotations } from './listed-tool.ts';

export interface ToolCallContext {
  app: AppContext;
  session: ClientSession;
  signal: AbortSignal;
  /** Reports progress to the client when it asked for it (a no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface ToolReply {
  /** Compact text for the model. */
  text: string;
  /** Machine-readable form; required when the tool declares an output schema. */
  structured?: Record<string, unknown>;
  /** What the agent would have received without this tool, when that is more than the reply (usage records). */
  saving?: { rawBytes: number; basis: SavingBasis };
  /** A gated tool's decision: refused (with the reason), or answered right after a refusal. */
  gate?: { refused: string } | { followed: true };
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output?: z.ZodType;
  annotations: ToolAnnotations;
  /** Imports the module that does the work, when that is another module than the declaration's. */
  handler?: () => Promise<unknown>;
  run(args: z.output<I>, ctx: ToolCallContext): Promise<ToolReply>;
}

/** A tool that only reads the project: listing, searching, reading. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false, idempotentHint: true };

type ActionHandlers<A extends { action: string }> = { [K in A['action']]: (args: A, ctx: ToolCallContext) => ToolReply | Promise<ToolReply> };

/** `run` for a tool whose `action` parameter picks what it does: one handler per action. */
export function byAction<A extends { action: string }>(handlers: ActionHandlers<A>): (args: A, ctx: ToolCallContext) => Promise<ToolReply> {
  return async function runAction(args, ctx) {
    const handler = handlers[args.action as A['action']];
    return handler(args, ctx);
  };
}

/** Declares a tool; exists so that `run` gets its argument type from `input`. */
export function defineTool<I extends z.ZodType>(definition: ToolDefinition<I>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}


function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> & { type: 'object' } {
  const json = compactSchema(z.toJSONSchema(schema, { io, unrepresentable: 'any' })) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/**
 * tools/list is paid for on every agent turn (issue 15): leave out what says nothing to a model and
 * what the server checks anyway, with an error naming the limit — `additionalProperties: false`
 * (unknown parameters are refused by name), string lengths, `minLength`/`minItems`/`minimum` 1, a
 * maximum of Number.MAX_SAFE_INTEGER, string-typed record keys. Ranges that matter (0–5, ≤ 2000) stay.
 */
export function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if ((key === 'minLength' || key === 'minItems' || key === 'minimum') && value === 1) continue;
    if (key === 'maxLength') continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'propertyNames') continue;
    // `properties` maps parameter names (which may be anything) to schemas.
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, compactSchema(schema)]))
        : compactSchema(value);
  }
  return out;
}

/**
 * MCP's defaults: readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true;
 * destructive and idempotent mean something only for a tool that is not read-only.
 */
function nonDefaultHints(a: ToolAnnotations): Partial<ToolAnnotations> {
  const out: Partial<ToolAnnotations> = {};
  if (a.readOnlyHint) out.readOnlyHint = true;
  else {
    if (!a.destructiveHint) out.destructiveHint = false;
    if (a.idempotentHint) out.idempotentHint = true;
  }
  if (!a.openWorldHint) out.openWorldHint = false;
  return out;
}

export interface ToolRegistry {
  readonly names: readonly string[];
  list(): ListedTool[];
  call(name: string, args: unknown, ctx: ToolCallContext): Promise<CallResult>;
  /**
   * Imports every tool's handler module, one after another; resolves with the failures. A server that
   * holds its code is not broken by a rebuild or an upgrade that replaces the files under it.
   */
  loadHandlers(): Promise<unknown[]>;
  /** A registry of the named tools of this one only (a team user's allowed tools), in this one's order. */
  only(names: readonly string[]): ToolRegistry;
}

export function createToolRegistry(definitions: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  let listed: ListedTool[] | undefined;

  return {
    names: definitions.map((d) => d.name),
    list() {
      listed ??= definitions.map((d) => {
        const hints = nonDefaultHints(d.annotations);
        return {
          name: d.name,
          title: d.title,
          description: d.description,
          inputSchema: jsonSchemaOf(d.input, 'input'),
          ...(d.output ? { outputSchema: jsonSchemaOf(d.output, 'output') } : {}),
          ...(Object.keys(hints).length ? { annotations: hints } : {}),
        };
      });
      return listed;
    },
    only(names) {
      return createToolRegistry(definitions.filter((d) => names.includes(d.name)));
    },
    async loadHandlers() {
      const failures: unknown[] = [];
      for (const d of definitions) await d.handler?.().catch((error: unknown) => failures.push(error));
      return failures;
    },
    async call(name, args, ctx) {
      const { logger } = ctx.app;
      const started = Date.now();
      const action = actionOf(args);
      // Redacted once: the log line and the one-line summary (status page, stats) show the same copy.
      const redacted = redactArgs(args ?? {});
      const summary = summarizeRedacted(redacted);
      const ended = ctx.app.foreground.begin({ tool: name, ...(action ? { action } : {}), args: summary, session: ctx.session.id });
      logger.log('tool_call', { tool: name, session: ctx.session.id, args: redacted });
      try {
        const tool = byName.get(name);
        if (!tool) {
          throw new AppError(ErrorCode.UnknownTool, `unknown tool '${name}'`, { hint: `the tools are: ${[...byName.keys()].join(', ')}` });
        }
        const parsed = tool.input.safeParse(args ?? {});
        if (!parsed.success) {
          throw new AppError(ErrorCode.InvalidArgument, `invalid arguments for ${name}:\n${formatArgumentIssues(parsed.error.issues)}`, {
            hint: `tools/list (or ctxgate tools ${name}) shows every parameter of ${name} with its type and limits`,
          });
        }
        const reply = withinCap(await tool.run(parsed.data, ctx), parsed.data, ctx, name);
        const result: CallResult = { content: [{ type: 'text', text: reply.text }] };
        if (reply.structured) result.structuredContent = reply.structured;
        const results = reply.structured?.results;
        logger.log('tool_result', {
          tool: name,
          ...(Array.isArray(results) ? { returned: results.length } : {}),
          durationMs: Date.now() - started,
          chars: reply.text.length,
          estTokens: Math.ceil(reply.text.length / ctx.app.config.estimation.charsPerToken),
        });
        recordCall(ctx, { tool: name, action, summary, started, replyText: reply.text, reply });
        return result;
      } catch (thrown) {
        // A module loaded on first need (a handler, a database engine) whose file a rebuild or an upgrade removed.
        const error = handlerGoneError(thrown) ?? thrown;
        const result = errorResult(name, error, ctx, Date.now() - started);
        if (byName.has(name)) recordCall(ctx, { tool: name, action, summary, started, replyText: result.content[0]!.text, error: isAppError(error) ? error.code : ErrorCode.Internal });
        return result;
      } finally {
        ended();
      }
    },
  };
}

/**
 * The last guard of the budget: a reply longer than its max_tokens (or, for a tool without one, the
 * absolute cap) is cut, with a line saying so. Tools fit their own replies (cut inside long lines,
 * index big outputs); reaching this is a tool's bug, logged as such.
 */
function withinCap(reply: ToolReply, args: unknown, ctx: ToolCallContext, tool: string): ToolReply {
  const { limits, estimation } = ctx.app.config;
  const asked = args && typeof args === 'object' && 'max_tokens' in args && typeof args.max_tokens === 'number' ? args.max_tokens : Number.POSITIVE_INFINITY;
  const maxChars = Math.floor(Math.min(asked, limits.absoluteMaxTokens) * estimation.charsPerToken);
  if (reply.text.length <= maxChars) return reply;
  ctx.app.logger.log('reply_over_budget', { tool, chars: reply.text.length, maxChars });
  const note = (n: number) => `\n(… reply cut to fit ${Math.floor(maxChars / estimation.charsPerToken)} tokens: ${n} more characters not shown; ask for less — a narrower scope, a line range, a smaller output)`;
  const keep = Math.max(0, maxChars - note(reply.text.length).length);
  return { ...reply, text: reply.text.slice(0, keep) + note(reply.text.length - keep) };
}

export function formatArgumentIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `  unknown parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
      }
      const where = issue.path.length ? issue.path.join('.') : '(arguments)';
      return `  ${where}: ${issue.message}`;
    })
    .join('\n');
}

/** The call's `action` argument; one that fails validation is recorded too, as far as an action name goes. */
function actionOf(args: unknown): string | undefined {
  return args && typeof args === 'object' && 'action' in args && typeof args.action === 'string' ? args.action.slice(0, 64) : undefined;
}

/** One usage record per call (see kb/usage.ts): what it cost, and what it saved compared with what. */
function recordCall(ctx: ToolCallContext, call: { tool: string; action: string | undefined; summary: string; started: number; replyText: string; reply?: ToolReply; error?: string }): void {
  const { action } = call;
  const gate = call.reply?.gate;
  ctx.app.usage.record({
    at: call.started,
    processSession: ctx.app.processSessionId,
    clientSession: ctx.session.id,
    ...(ctx.session.user !== undefined ? { userName: ctx.session.user } : {}),
    tool: call.tool,
    ...(action ? { action } : {}),
    ...(call.summary ? { args: call.summary } : {}),
    outcome: call.error ? 'error' : gate && 'refused' in gate ? 'refused' : 'ok',
    ...(call.error ? { detail: call.error } : gate ? { detail: 'refused' in gate ? gate.refused : 'followed' } : {}),
    durationMs: Date.now() - call.started,
    replyBytes: new TextEncoder().encode(call.replyText).length,
    ...(call.reply?.saving ? { rawBytes: call.reply.saving.rawBytes, basis: call.reply.saving.basis } : {}),
  });
}

function errorResult(tool: string, error: unknown, ctx: ToolCallContext, durationMs: number): CallResult {
  ctx.app.logger.log('tool_error', { tool, code: isAppError(error) ? error.code : ErrorCode.Internal, error: messageOf(error), durationMs });
  return failureResult(error);
}
