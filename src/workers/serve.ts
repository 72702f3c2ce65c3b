// The worker's side of a pool: answers each job with its handler's result (or the error it threw,
// code and hint kept), then says it is ready for the next. A worker entry calls this once.
import { isAppError, messageOf } from '../errors.ts';
import type { ParentPort } from '../runtime/types.ts';
import type { JobMessage, ReplyMessage } from './protocol.ts';

export interface ServeJobsOptions<R> {
  /** Buffers in a result to move to the pool instead of copying. */
  transferOf?(result: R): Transferable[];
}

export function serveJobs<J, R>(port: ParentPort, handle: (job: J) => R | Promise<R>, options: ServeJobsOptions<R> = {}): void {
  port.onMessage(async function answerJob(message) {
    const { id, job } = message as JobMessage;
    let reply: ReplyMessage;
    let transfer: Transferable[] | undefined;
    try {
      const result = await handle(job as J);
      reply = { id, ok: true, result };
      transfer = options.transferOf?.(result);
    } catch (error) {
      reply = { id, ok: false, error: { message: messageOf(error), ...(isAppError(error) ? { code: error.code, ...(error.hint ? { hint: error.hint } : {}) } : {}) } };
    }
    port.postMessage(reply, transfer);
  });
  port.postMessage({ type: 'ready' } satisfies ReplyMessage);
}
