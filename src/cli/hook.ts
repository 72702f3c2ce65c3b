// `ctxgate hook <name> [--nudge]`: runs on every matching Claude Code tool call, so it loads only
// what the handler needs (main.ts routes here before the rest of the command line is loaded).
import type { JudgeRequest, Verdict } from '../clients/hooks/grep-judge.ts';
import { HOOK_NAMES, type HookName, runHookHandler } from '../clients/hooks/handlers.ts';
import { messageOf } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';

/** Claude Code sends one JSON object; a tool input (a Write's content) can be large, not unbounded. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

async function readStdin(runtime: Runtime): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of runtime.stdio().stdin as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) break;
    chunks.push(bytes);
  }
  const all = new Uint8Array(Math.min(size, MAX_INPUT_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk.subarray(0, all.length - at), at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * Judges a shell grep/rg by running it and search's engine, measuring the reply with the search
 * tool's own text (loaded on the first grep only: most Bash calls are something else). `timeoutMs`:
 * how long both may take before the command is let through unjudged (grep-judge.ts's
 * JUDGE_TIMEOUT_MS when not given; tests on a loaded machine give more).
 */
export function judgeByRunning(runtime: Runtime, timeoutMs?: number): (req: JudgeRequest) => Promise<Verdict> {
  return async (req) => {
    const [{ judgeGrep }, { exactAnswer }] = await Promise.all([import('../clients/hooks/grep-judge.ts'), import('../tools/gate/hit-printer.ts')]);
    return judgeGrep({ runtime, searchReply: exactAnswer, timeoutMs }, req);
  };
}

export async function runHook(runtime: Runtime): Promise<number> {
  const [, name, ...rest] = runtime.args;
  if (!(HOOK_NAMES as readonly string[]).includes(name ?? '')) {
    runtime.writeStderr(`ctxgate: unknown hook '${name ?? ''}'; the hooks are ${HOOK_NAMES.join(', ')}\n`);
    return 1;
  }
  let out = '';
  try {
    out = await runHookHandler(name as HookName, await readStdin(runtime), { fs: runtime.fs, judge: judgeByRunning(runtime) }, { nudgeOnly: rest.includes('--nudge') });
  } catch (error) {
    // A hook that fails must not block the agent: say why on stderr, let the tool call run.
    runtime.writeStderr(`ctxgate hook ${name}: ${messageOf(error)}\n`);
    return 0;
  }
  if (out) {
    const { stdout } = runtime.stdio();
    await new Promise<void>((resolve) => stdout.write(`${out}\n`, () => resolve()));
  }
  return 0;
}
