// The worker's side of a pool: says it is ready, then answers each job, in order, with its handler's
// result (or the error it threw, code and hint kept). A worker entry calls this once.
import { isAppError, messageOf } from '../errors.ts';
import type { ParentPort } from '../runtime/types.ts';
import type { JobMessage, ReplyMessage } from './protocol.ts';

export interface ServeJobsOptions<R> {
  /** Buffers in a result to move to the pool instead of copying. */
  transferOf?(result: R): Transferable[];
}

export function serveJobs<J, R>(port: ParentPort, handle: (job: J) => R | Promise<R>, options: ServeJobsOptions<R> = {}): void {
  // One job at a time, in the order they came: the pool times the oldest job it sent as the running one.
  let previous: Promise<void> = Promise.resolve();
  port.onMessage((message) => {
    previous = previous.then(() => answerJob(message as JobMessage));
  });
  async function answerJob({ id, job }: JobMessage): Promise<void> {
    let reply: ReplyMessage;
    let transfer: Transferable[] | undefined;
    try {
      const result = await handle(job as J);
      reply = { id, ok: true, result };
      transfer = options.transferOf?.(result);
    } catch (error) {
      reply = { id, ok: false, error: { message: messageOf(error), ...(isAppError(error) ? { code: error.code, ...(error.hint ? { hint: error.hint } : {}) } : {}) } };
    }
    try {
      port.postMessage(reply, transfer);
    } catch (error) {
      // A result that cannot be sent (not cloneable): the job fails, the worker goes on.
      port.postMessage({ id, ok: false, error: { message: `the result cannot be sent back: ${messageOf(error)}` } } satisfies ReplyMessage);
    }
  }
  port.postMessage({ type: 'ready' } satisfies ReplyMessage);
}
