// A small pool of module workers, runtime-neutral (it is handed the runtime's `startWorker`).
// Workers start on demand and stop when idle; a bounded queue makes producers wait (`submit` settles
// once the job is queued), so memory stays bounded however many jobs a caller has; a job over its time
// limit terminates its worker, which is replaced, as is one that crashed. When workers cannot start
// (none can be made, or they keep dying before they are ready), jobs run in this thread instead.
import { AppError, ErrorCode } from '../errors.ts';
import type { WorkerHandle } from '../runtime/types.ts';
import { isReady, isReply } from './protocol.ts';

export interface WorkerPoolOptions<J, R> {
  /** Starts one worker; throws when workers cannot start here. */
  start(): WorkerHandle;
  /** Workers at most; 0 runs every job in this thread. */
  size: number;
  /** Jobs waiting beyond the running ones; `submit` waits while the queue is full. */
  queueLimit: number;
  /** A job running longer fails, and its worker is terminated and replaced. */
  jobTimeoutMs: number;
  /** Workers stop after this long without a job (started again on demand). */
  idleMs?: number;
  /** Runs a job in this thread: when workers cannot start, or with size 0. */
  fallback(job: J): Promise<R>;
  /** Buffers in a job to move to the worker instead of copying. */
  transferOf?(job: J): Transferable[];
  /** What happened to workers (started, crashed, timed out, fell back), for the log. */
  onEvent?(event: string, fields: Record<string, unknown>): void;
}

export interface SubmitOptions {
  /** Ahead of every queued job (an answer waits on it), and admitted even when the queue is full. */
  urgent?: boolean;
}

export type PoolMode = 'workers' | 'in-thread';

export interface WorkerPool<J, R> {
  /** Queues a job, waiting while the queue is full; `result` settles when it has run. */
  submit(job: J, options?: SubmitOptions): Promise<{ result: Promise<R> }>;
  /** Queues a job and waits for its result. */
  run(job: J, options?: SubmitOptions): Promise<R>;
  /** Jobs that may be in the pool at once (running and queued): a producer's useful window. */
  readonly capacity: number;
  mode(): PoolMode;
  /** Fails queued and running jobs, stops every worker; settles once they have stopped. */
  close(): Promise<void>;
}

interface Queued<J, R> {
  job: J;
  resolve(result: R): void;
  reject(error: unknown): void;
}

interface Slot<J, R> {
  handle: WorkerHandle;
  ready: boolean;
  dead: boolean;
  running: (Queued<J, R> & { id: number; timer: ReturnType<typeof setTimeout> }) | undefined;
}

/** Workers that die before they are ready this many times in a row mean workers cannot run here. */
const START_FAILURES = 2;

function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

export function createWorkerPool<J, R>(options: WorkerPoolOptions<J, R>): WorkerPool<J, R> {
  const slots = new Set<Slot<J, R>>();
  const queue: Queued<J, R>[] = [];
  const roomWaiters: (() => void)[] = [];
  let inThread = options.size <= 0;
  let threadBusy = false;
  let startFailures = 0;
  let nextId = 1;
  let closed = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const size = Math.max(0, options.size);
  const capacity = Math.max(1, size) + options.queueLimit;
  const event = (name: string, fields: Record<string, unknown> = {}) => options.onEvent?.(name, fields);

  function closedError(): AppError {
    return new AppError(ErrorCode.Unavailable, 'the worker pool is closed', { hint: 'the server is shutting down; call again after it restarts' });
  }

  function runningCount(): number {
    let n = 0;
    for (const s of slots) if (s.running) n++;
    return n + (threadBusy ? 1 : 0);
  }

  function hasRoom(): boolean {
    return queue.length < options.queueLimit;
  }

  function wakeProducers(): void {
    while (roomWaiters.length && hasRoom()) roomWaiters.shift()!();
  }

  function fallBack(reason: string): void {
    if (inThread) return;
    inThread = true;
    event('worker_pool_in_thread', { reason });
    for (const s of slots) void retire(s);
  }

  function startSlot(): void {
    let handle: WorkerHandle;
    try {
      handle = options.start();
    } catch (error) {
      fallBack(`workers cannot start: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const slot: Slot<J, R> = { handle, ready: false, dead: false, running: undefined };
    slots.add(slot);
    handle.setBusy(true);
    handle.onMessage((message) => {
      if (isReady(message)) {
        slot.ready = true;
        startFailures = 0;
        dispatch();
        return;
      }
      if (!isReply(message) || !slot.running || slot.running.id !== message.id) return;
      const job = slot.running;
      clearTimeout(job.timer);
      slot.running = undefined;
      if (message.ok) job.resolve(message.result as R);
      else job.reject(new AppError((message.error.code as ErrorCode | undefined) ?? ErrorCode.Internal, message.error.message, message.error.hint ? { hint: message.error.hint } : {}));
      dispatch();
    });
    const died = (why: string) => {
      if (slot.dead) return;
      slot.dead = true;
      slots.delete(slot);
      const job = slot.running;
      slot.running = undefined;
      if (job) {
        clearTimeout(job.timer);
        job.reject(new AppError(ErrorCode.Internal, `the worker running this job crashed: ${why}`));
      }
      event('worker_crashed', { error: why, ready: slot.ready, job: job !== undefined });
      if (!slot.ready && ++startFailures >= START_FAILURES) fallBack(`workers die before they are ready: ${why}`);
      void slot.handle.terminate().catch(() => undefined);
      dispatch();
    };
    handle.onError((error) => died(error.message));
    handle.onExit(() => died('it exited'));
  }

  /** Stops a worker on purpose (idle, closing, timed out, falling back). */
  async function retire(slot: Slot<J, R>): Promise<void> {
    if (slot.dead) return;
    slot.dead = true;
    slots.delete(slot);
    await slot.handle.terminate().catch(() => undefined);
  }

  function dispatch(): void {
    if (closed) return;
    if (inThread) {
      void drainInThread();
      return;
    }
    for (const slot of slots) {
      if (!queue.length) break;
      if (!slot.ready || slot.running || slot.dead) continue;
      const next = queue.shift()!;
      const id = nextId++;
      const timer = setTimeout(() => timedOut(slot, id), options.jobTimeoutMs);
      slot.running = { ...next, id, timer };
      slot.handle.setBusy(true);
      try {
        slot.handle.postMessage({ id, job: next.job }, options.transferOf?.(next.job));
      } catch (error) {
        clearTimeout(timer);
        slot.running = undefined;
        next.reject(error);
      }
    }
    // More jobs waiting than workers free or starting: start another, up to the pool's size.
    const free = () => [...slots].filter((s) => !s.running).length;
    while (!inThread && slots.size < size && queue.length > free()) startSlot();
    if (inThread) void drainInThread();
    wakeProducers();
    scheduleIdle();
  }

  function timedOut(slot: Slot<J, R>, id: number): void {
    const job = slot.running;
    if (!job || job.id !== id) return;
    slot.running = undefined;
    job.reject(new AppError(ErrorCode.Timeout, `the job ran over its ${options.jobTimeoutMs} ms limit; its worker was stopped`));
    event('worker_job_timeout', { ms: options.jobTimeoutMs });
    void retire(slot).then(dispatch);
  }

  async function drainInThread(): Promise<void> {
    if (threadBusy) return;
    threadBusy = true;
    try {
      while (queue.length && !closed) {
        const next = queue.shift()!;
        wakeProducers();
        try {
          next.resolve(await options.fallback(next.job));
        } catch (error) {
          next.reject(error);
        }
      }
    } finally {
      threadBusy = false;
    }
  }

  function scheduleIdle(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (queue.length || runningCount()) return;
    for (const s of slots) s.handle.setBusy(false);
    if (!options.idleMs || !slots.size) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (queue.length || runningCount()) return;
      for (const s of slots) void retire(s);
    }, options.idleMs);
    unrefTimer(idleTimer);
  }

  function enqueue(job: J, urgent: boolean | undefined): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const entry = { job, resolve, reject };
      if (urgent) queue.unshift(entry);
      else queue.push(entry);
      dispatch();
    });
  }

  async function submit(job: J, submitOptions: SubmitOptions = {}): Promise<{ result: Promise<R> }> {
    while (!closed && !submitOptions.urgent && !hasRoom()) await new Promise<void>((resolve) => roomWaiters.push(resolve));
    if (closed) throw closedError();
    return { result: enqueue(job, submitOptions.urgent) };
  }

  return {
    submit,
    async run(job, submitOptions) {
      return (await submit(job, submitOptions)).result;
    },
    capacity,
    mode: () => (inThread ? 'in-thread' : 'workers'),
    async close() {
      if (closed) return;
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const q of queue.splice(0)) q.reject(closedError());
      for (const wake of roomWaiters.splice(0)) wake();
      const all = [...slots];
      for (const s of all) {
        if (s.running) {
          clearTimeout(s.running.timer);
          s.running.reject(closedError());
          s.running = undefined;
        }
      }
      await Promise.all(all.map(retire));
    },
  };
}
