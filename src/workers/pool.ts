// A small pool of module workers, runtime-neutral (it is handed the runtime's `startWorker`).
// Workers start on demand and stop when idle; a bounded queue makes producers wait (`submit` settles
// once the job is queued), so memory stays bounded however many jobs a caller has. Each worker is sent
// a few jobs ahead (it runs them in order), so it keeps working while this thread is busy elsewhere. A
// job over its time limit terminates its worker, which is replaced, as is one that crashed; the jobs
// sent ahead to it go back to the front of the queue. A job whose signal aborts leaves the queue, or,
// when its worker is already running it, that worker is stopped and replaced. When workers cannot
// start (none can be made, or they keep dying before they are ready), jobs run in this thread instead.
import { AppError, ErrorCode } from '../errors.ts';
import type { WorkerHandle } from '../runtime/types.ts';
import { isReady, isReply } from './protocol.ts';

export interface WorkerPoolOptions<J, R> {
  /** Starts one worker; throws when workers cannot start here. */
  start(): WorkerHandle;
  /** Workers at most; 0 runs every job in this thread. */
  size: number;
  /** Jobs waiting for a worker; `submit` waits while the queue is full. */
  queueLimit: number;
  /** Jobs sent to one worker ahead of its reply (default 1). */
  ahead?: number;
  /** A job running longer fails, and its worker is terminated and replaced. */
  jobTimeoutMs: number;
  /** Workers stop after this long without a job (started again on demand). */
  idleMs?: number;
  /** Runs a job in this thread: when workers cannot start, or with size 0. */
  fallback(job: J): Promise<R>;
  /** Buffers in a job to move to the worker instead of copying. */
  transferOf?(job: J): Transferable[];
  /** What happened to workers (ready, crashed, timed out, fell back), for the log. */
  onEvent?(event: string, fields: Record<string, unknown>): void;
}

export interface SubmitOptions {
  /** Ahead of every queued job (an answer waits on it), and admitted even when the queue is full. */
  urgent?: boolean;
  /**
   * Aborted: the job fails at once — dropped from the queue, or, when a worker is running it, that
   * worker is stopped and replaced (a job sent ahead but not started is run and its result dropped).
   */
  signal?: AbortSignal;
}

export type PoolMode = 'workers' | 'in-thread';

export interface WorkerPool<J, R> {
  /** Queues a job, waiting while the queue is full; `result` settles when it has run. */
  submit(job: J, options?: SubmitOptions): Promise<{ result: Promise<R> }>;
  /** Queues a job and waits for its result. */
  run(job: J, options?: SubmitOptions): Promise<R>;
  /** Jobs that may be in the pool at once (sent to workers and queued): a producer's useful window. */
  readonly capacity: number;
  mode(): PoolMode;
  /** Workers that have started and can take a job now (0 while they start, or after they stopped idle). */
  readyWorkers(): number;
  /** Workers asked to start that cannot take a job yet. */
  startingWorkers(): number;
  /**
   * Starts the pool's workers now (`upTo` of them at most), before any job: a first job would
   * otherwise wait for their start (~0.5–2 s on a loaded machine).
   */
  warm(upTo?: number): void;
  /** Fails queued and running jobs, stops every worker; settles once they have stopped. */
  close(): Promise<void>;
}

interface Queued<J, R> {
  id: number;
  job: J;
  resolve(result: R): void;
  reject(error: unknown): void;
}

type Sent<J, R> = Queued<J, R>;

interface Slot<J, R> {
  handle: WorkerHandle;
  ready: boolean;
  dead: boolean;
  /** Jobs sent to the worker, oldest (the running one) first. */
  sent: Sent<J, R>[];
  /** The time limit of the oldest sent job. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Workers that die before they are ready this many times in a row mean workers cannot run here. */
const START_FAILURES = 2;

function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/**
 * One worker fewer than the processors, at least one: the main thread keeps a core for its own part
 * (walking, hashing, writing, judging files). Both pools (parse and grep) are sized by it.
 */
export function defaultWorkers(runtime: { cpuCount(): number }): number {
  return Math.max(1, runtime.cpuCount() - 1);
}

export function createWorkerPool<J, R>(options: WorkerPoolOptions<J, R>): WorkerPool<J, R> {
  const slots = new Set<Slot<J, R>>();
  const queue: Queued<J, R>[] = [];
  const roomWaiters: (() => void)[] = [];
  const size = Math.max(0, options.size);
  const ahead = Math.max(1, options.ahead ?? 1);
  let inThread = size === 0;
  let threadBusy = false;
  let startFailures = 0;
  let nextId = 1;
  let closed = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const event = (name: string, fields: Record<string, unknown> = {}) => options.onEvent?.(name, fields);

  function closedError(): AppError {
    return new AppError(ErrorCode.Unavailable, 'the worker pool is closed', { hint: 'the server is shutting down; call again after it restarts' });
  }

  function busy(): boolean {
    if (queue.length || threadBusy) return true;
    for (const s of slots) if (s.sent.length) return true;
    return false;
  }

  function wakeProducers(): void {
    while (roomWaiters.length && queue.length < options.queueLimit) roomWaiters.shift()!();
  }

  function fallBack(reason: string): void {
    if (inThread) return;
    inThread = true;
    event('worker_pool_in_thread', { reason });
    for (const s of [...slots]) {
      requeue(s.sent.splice(0));
      void retire(s);
    }
  }

  /** Jobs a worker was sent but never started go back to the front of the queue, in order. */
  function requeue(jobs: Sent<J, R>[]): void {
    queue.unshift(...jobs);
  }

  /** Starts the time limit of the slot's oldest job (when it has one). */
  function timeHead(slot: Slot<J, R>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    const head = slot.sent[0];
    if (head) slot.timer = setTimeout(() => timedOut(slot, head.id), options.jobTimeoutMs);
  }

  function startSlot(): void {
    let handle: WorkerHandle;
    try {
      handle = options.start();
    } catch (error) {
      fallBack(`workers cannot start: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const slot: Slot<J, R> = { handle, ready: false, dead: false, sent: [], timer: undefined };
    slots.add(slot);
    handle.setBusy(true);
    handle.onMessage((message) => {
      if (slot.dead) return;
      if (isReady(message)) {
        slot.ready = true;
        startFailures = 0;
        event('worker_ready', { workers: slots.size });
        dispatch();
        return;
      }
      if (!isReply(message) || slot.sent[0]?.id !== message.id) return;
      const job = slot.sent.shift()!;
      timeHead(slot);
      if (message.ok) job.resolve(message.result as R);
      else job.reject(new AppError((message.error.code as ErrorCode | undefined) ?? ErrorCode.Internal, message.error.message, message.error.hint ? { hint: message.error.hint } : {}));
      dispatch();
    });
    const died = (why: string) => {
      if (slot.dead) return;
      slot.dead = true;
      slots.delete(slot);
      if (slot.timer) clearTimeout(slot.timer);
      const [running, ...rest] = slot.sent.splice(0);
      running?.reject(new AppError(ErrorCode.Internal, `the worker running this job crashed: ${why}`));
      requeue(rest);
      event('worker_crashed', { error: why, ready: slot.ready, job: running !== undefined });
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
    if (slot.timer) clearTimeout(slot.timer);
    await slot.handle.terminate().catch(() => undefined);
  }

  function send(slot: Slot<J, R>, next: Queued<J, R>): void {
    const sent = next;
    slot.sent.push(sent);
    if (slot.sent.length === 1) timeHead(slot);
    slot.handle.setBusy(true);
    try {
      slot.handle.postMessage({ id: sent.id, job: next.job }, options.transferOf?.(next.job));
    } catch (error) {
      slot.sent.pop();
      if (!slot.sent.length) timeHead(slot);
      next.reject(error);
    }
  }

  function dispatch(): void {
    if (closed) return;
    if (!inThread) {
      // Fill the least loaded ready workers first, up to `ahead` jobs each.
      const ready = [...slots].filter((s) => s.ready && !s.dead);
      for (let depth = 0; depth < ahead && queue.length; depth++) {
        for (const slot of ready) if (queue.length && slot.sent.length <= depth) send(slot, queue.shift()!);
      }
      // Jobs still waiting: start another worker, up to the pool's size.
      const starting = [...slots].filter((s) => !s.ready).length;
      if (queue.length > starting * ahead && slots.size < size) startSlot();
    }
    if (inThread) void drainInThread();
    wakeProducers();
    scheduleIdle();
  }

  function timedOut(slot: Slot<J, R>, id: number): void {
    if (slot.dead || slot.sent[0]?.id !== id) return;
    const [running, ...rest] = slot.sent.splice(0);
    running!.reject(new AppError(ErrorCode.Timeout, `the job ran over its ${options.jobTimeoutMs} ms limit; its worker was stopped`));
    requeue(rest);
    event('worker_job_timeout', { ms: options.jobTimeoutMs });
    void retire(slot).then(dispatch);
  }

  /** A job whose signal aborted: out of the queue, or its worker stopped when the job is running there. */
  function cancel(id: number): void {
    const at = queue.findIndex((q) => q.id === id);
    if (at >= 0) {
      queue.splice(at, 1)[0]!.reject(cancelledError());
      wakeProducers();
      return;
    }
    for (const slot of slots) {
      const i = slot.sent.findIndex((s) => s.id === id);
      if (i < 0) continue;
      // Not started yet: the worker runs it and its result is dropped (the job is settled already).
      if (i > 0) {
        slot.sent[i]!.reject(cancelledError());
        return;
      }
      const [running, ...rest] = slot.sent.splice(0);
      running!.reject(cancelledError());
      requeue(rest);
      event('worker_job_cancelled', {});
      void retire(slot).then(dispatch);
      return;
    }
  }

  /**
   * One abort listener per signal, however many of its jobs are in the pool (a search sends dozens
   * with one signal; more than ten listeners on one signal make Node warn of a leak).
   */
  const watched = new Map<AbortSignal, { ids: Set<number>; onAbort(): void }>();

  function watch(signal: AbortSignal, id: number): void {
    let entry = watched.get(signal);
    if (!entry) {
      const ids = new Set<number>();
      entry = { ids, onAbort: () => [...ids].forEach(cancel) };
      watched.set(signal, entry);
      signal.addEventListener('abort', entry.onAbort, { once: true });
    }
    entry.ids.add(id);
  }

  function unwatch(signal: AbortSignal, id: number): void {
    const entry = watched.get(signal);
    if (!entry) return;
    entry.ids.delete(id);
    if (entry.ids.size) return;
    watched.delete(signal);
    signal.removeEventListener('abort', entry.onAbort);
  }

  function cancelledError(): AppError {
    return new AppError(ErrorCode.Unavailable, 'the job was cancelled', { hint: 'the call that asked for it was cancelled' });
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
    if (busy()) return;
    for (const s of slots) s.handle.setBusy(false);
    if (!options.idleMs || !slots.size) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (!busy()) for (const s of [...slots]) void retire(s);
    }, options.idleMs);
    unrefTimer(idleTimer);
  }

  async function submit(job: J, submitOptions: SubmitOptions = {}): Promise<{ result: Promise<R> }> {
    while (!closed && !submitOptions.urgent && queue.length >= options.queueLimit) await new Promise<void>((resolve) => roomWaiters.push(resolve));
    if (closed) throw closedError();
    const { signal } = submitOptions;
    if (signal?.aborted) throw cancelledError();
    const id = nextId++;
    const result = new Promise<R>((resolve, reject) => {
      const settle = <T>(to: (value: T) => void) => (value: T) => {
        if (signal) unwatch(signal, id);
        to(value);
      };
      const entry = { id, job, resolve: settle(resolve), reject: settle(reject) };
      if (submitOptions.urgent) queue.unshift(entry);
      else queue.push(entry);
    });
    if (signal) watch(signal, id);
    dispatch();
    return { result };
  }

  return {
    submit,
    async run(job, submitOptions) {
      return (await submit(job, submitOptions)).result;
    },
    capacity: Math.max(1, size) * ahead + options.queueLimit,
    mode: () => (inThread ? 'in-thread' : 'workers'),
    readyWorkers: () => [...slots].filter((s) => s.ready && !s.dead).length,
    startingWorkers: () => [...slots].filter((s) => !s.ready && !s.dead).length,
    warm(upTo = size) {
      // A start that fails falls back to this thread (no slot added): stop there.
      for (let before = -1; !closed && !inThread && slots.size < Math.min(size, upTo) && slots.size !== before; ) {
        before = slots.size;
        startSlot();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      const all = [...slots];
      const pending: Queued<J, R>[] = [...queue.splice(0), ...all.flatMap((s) => s.sent.splice(0))];
      for (const q of pending) q.reject(closedError());
      for (const wake of roomWaiters.splice(0)) wake();
      await Promise.all(all.map(retire));
    },
  };
}
