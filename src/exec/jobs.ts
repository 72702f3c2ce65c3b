// Background jobs (ctx_run execute background:true, supervised by ctx_bg): each job leads its own
// process group, writes to a log file kept to the newest 16 MB, is ended at its max age and when the
// server ends, and what it started ends with it, in its group or not (the tracker's marker). A job is
// only ever signalled after its identity (pid + kernel start time) is checked.
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { AppendHandle, ChildHandle, Runtime } from '../runtime/types.ts';
import { utf8Start } from '../text/utf8.ts';
import { checkArgv, PIPE_DRAIN_MS } from './executor.ts';
import { terminateGroup } from './terminate.ts';
import { settlesWithin, settlesWithinLoopTime } from '../time/within.ts';
import { createProcessTracker, type ProcessTracker } from './tracker.ts';

export const MAX_LIVE_JOBS = 16;
export const LOG_CAP_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_AGE_MS = 60 * 60 * 1000;
const KEEP_FINISHED = 64;

export interface JobStart {
  label: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  maxAgeMs: number;
  /** A folder the job's program lives in, removed when the job ends. */
  tempDir?: string;
}

export interface JobInfo {
  id: string;
  pid: number | null;
  label: string;
  running: boolean;
  ageMs: number;
  exit_code: number | null;
  signal: string | null;
  endedBy?: 'max age' | 'kill' | 'shutdown';
  log_bytes: number;
  log_truncated: boolean;
}

interface Job {
  id: string;
  label: string;
  child: ChildHandle;
  pid: number | undefined;
  startTime: string | undefined;
  startedAt: number;
  endedAt?: number;
  exitCode: number | null;
  signal: string | null;
  endedBy?: JobInfo['endedBy'];
  done: Promise<void>;
  logFile: string;
  log: AppendHandle | undefined;
  logTruncated: boolean;
  ageTimer: ReturnType<typeof setTimeout>;
}

export class JobManager {
  private readonly runtime: Runtime;
  private readonly dir: string;
  private readonly tracker: ProcessTracker;
  private readonly jobs = new Map<string, Job>();
  private seq = 0;

  constructor(runtime: Runtime, dir: string, tracker: ProcessTracker = createProcessTracker(runtime)) {
    this.runtime = runtime;
    this.dir = dir;
    this.tracker = tracker;
  }

  get liveCount(): number {
    return [...this.jobs.values()].filter((j) => j.endedAt === undefined).length;
  }

  /** Throws when no other job may start now: check before preparing one. */
  checkRoom(): void {
    if (this.liveCount >= MAX_LIVE_JOBS) {
      throw new AppError(ErrorCode.LimitExceeded, `${MAX_LIVE_JOBS} background jobs are running, the most allowed`, {
        hint: 'wait for a running job to finish, or kill one, first',
      });
    }
  }

  /** Starts a job; spec.tempDir becomes the job's only once this returns (on a throw it is still the caller's). */
  start(spec: JobStart): JobInfo {
    checkArgv(spec.command, spec.args);
    this.checkRoom();
    if (this.seq === 0) this.tracker.ownFolder(this.dir);
    this.runtime.fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const id = `job-${++this.seq}`;
    const logFile = path.join(this.dir, `${id}.log`);
    const log = this.runtime.fs.openAppendSync(logFile, 0o600);
    const { marker, env } = this.tracker.begin(spec.env);
    const child = this.runtime.spawn(spec.command, spec.args, { cwd: spec.cwd, env, stdin: spec.stdin });
    this.tracker.started(marker, child.pid);
    const job: Job = {
      id,
      label: spec.label,
      child,
      pid: child.pid,
      startTime: child.pid === undefined ? undefined : this.runtime.processStartTime(child.pid),
      startedAt: Date.now(),
      exitCode: null,
      signal: null,
      done: Promise.resolve(),
      logFile,
      log,
      logTruncated: false,
      ageTimer: setTimeout(() => void this.end(job, 'max age'), spec.maxAgeMs),
    };
    (job.ageTimer as { unref?: () => void }).unref?.();
    const write = (chunk: Uint8Array) => this.append(job, chunk);
    child.onStdout(write);
    child.onStderr(write);
    job.done = child.exited.then(async (exit) => {
      clearTimeout(job.ageTimer);
      // The leader is gone: whatever it left in its group goes too, and what left the group.
      child.killGroup('SIGKILL');
      await this.tracker.finish(marker);
      await settlesWithinLoopTime(child.closed, PIPE_DRAIN_MS);
      job.exitCode = exit.code;
      job.signal = exit.signal;
      if (exit.spawnError) this.append(job, new TextEncoder().encode(`ctxgate: cannot start ${spec.command}: ${exit.spawnError}\n`));
      job.endedAt = Date.now();
      if (spec.tempDir) this.runtime.fs.removeSync(spec.tempDir, { recursive: true });
      job.log?.close();
      job.log = undefined;
      this.forgetOld();
    });
    this.jobs.set(id, job);
    return this.info(job);
  }

  private append(job: Job, chunk: Uint8Array): void {
    if (!job.log) return;
    try {
      job.log.append(new TextDecoder().decode(chunk));
      if (job.log.size() > LOG_CAP_BYTES + LOG_CAP_BYTES / 8) this.compact(job);
    } catch {
      // A full disk must not take the server down; the job keeps running, its log stops.
    }
  }

  /** Keeps the newest LOG_CAP_BYTES of the log, starting at a line boundary. */
  private compact(job: Job): void {
    const files = this.runtime.fs.files;
    job.log?.close();
    const fd = files.open(job.logFile, 'r');
    try {
      const size = files.size(fd);
      const keep = new Uint8Array(LOG_CAP_BYTES);
      const got = files.read(fd, keep, size - LOG_CAP_BYTES);
      let start = keep.indexOf(10) + 1;
      if (start <= 0 || start > 4096) start = 0;
      this.runtime.fs.writeFileAtomicSync(job.logFile, keep.subarray(start, got), 0o600);
    } finally {
      files.close(fd);
    }
    job.log = this.runtime.fs.openAppendSync(job.logFile, 0o600);
    job.logTruncated = true;
  }

  private forgetOld(): void {
    const finished = [...this.jobs.values()].filter((j) => j.endedAt !== undefined);
    for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) {
      this.jobs.delete(j.id);
      this.runtime.fs.removeSync(j.logFile);
    }
  }

  private info(job: Job): JobInfo {
    const info: JobInfo = {
      id: job.id,
      pid: job.pid ?? null,
      label: job.label,
      running: job.endedAt === undefined,
      ageMs: (job.endedAt ?? Date.now()) - job.startedAt,
      exit_code: job.exitCode,
      signal: job.signal,
      log_bytes: this.runtime.fs.statSync(job.logFile)?.size ?? 0,
      log_truncated: job.logTruncated,
    };
    if (job.endedBy) info.endedBy = job.endedBy;
    return info;
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((j) => this.info(j));
  }

  /** The job named by id or pid; pids of processes that are not our jobs are never accepted. */
  private find(ref: { id?: string; pid?: number }): Job {
    if (ref.id === undefined && ref.pid === undefined) throw new AppError(ErrorCode.InvalidArgument, 'name the job by id or pid', { hint: 'listing the jobs shows their ids and pids' });
    const job = ref.id !== undefined ? this.jobs.get(ref.id) : [...this.jobs.values()].find((j) => j.pid === ref.pid);
    if (!job) {
      throw new AppError(ErrorCode.NotFound, `no background job ${ref.id !== undefined ? `'${ref.id}'` : `with pid ${ref.pid}`}`, {
        hint: 'only jobs this server started can be reached; listing the jobs shows them',
      });
    }
    return job;
  }

  /** Ends a job's process group: TERM, then KILL after a grace period. */
  private async end(job: Job, why: NonNullable<JobInfo['endedBy']>): Promise<void> {
    if (job.endedAt !== undefined || job.pid === undefined) return;
    job.endedBy = why;
    await terminateGroup(job.child, job.done);
    await job.done;
  }

  async kill(ref: { id?: string; pid?: number }): Promise<JobInfo & { killed: boolean }> {
    const job = this.find(ref);
    if (job.endedAt !== undefined) return { ...this.info(job), killed: false };
    const now = job.pid === undefined ? undefined : this.runtime.processStartTime(job.pid);
    if (job.startTime === undefined || now === undefined) {
      throw new AppError(ErrorCode.Unavailable, `the identity of ${job.id} (pid ${job.pid}) cannot be checked on this system, so it is not signalled`, {
        hint: 'killing a job needs /proc/<pid>/stat (Linux); the job ends at its max age or when the server stops',
      });
    }
    if (now !== job.startTime) {
      await job.done;
      return { ...this.info(job), killed: false };
    }
    await this.end(job, 'kill');
    return { ...this.info(job), killed: true };
  }

  /** The newest part of a job's output: at most tailLines lines and tailBytes bytes. */
  log(ref: { id?: string; pid?: number }, tailLines: number, tailBytes: number): { info: JobInfo; text: string } {
    const job = this.find(ref);
    const files = this.runtime.fs.files;
    let text = '';
    try {
      const fd = files.open(job.logFile, 'r');
      try {
        const size = files.size(fd);
        const want = Math.min(size, tailBytes);
        const buf = new Uint8Array(want);
        const got = files.read(fd, buf, size - want);
        const read = buf.subarray(0, got);
        text = new TextDecoder().decode(read.subarray(utf8Start(read)));
      } finally {
        files.close(fd);
      }
    } catch {
      text = '';
    }
    const lines = text.split('\n');
    if (lines.length > tailLines + 1) text = lines.slice(-(tailLines + 1)).join('\n');
    return { info: this.info(job), text };
  }

  /** Waits for a job to end, at most timeoutMs; never kills it. */
  async wait(ref: { id?: string; pid?: number }, timeoutMs: number, signal?: AbortSignal): Promise<{ info: JobInfo; finished: boolean }> {
    const job = this.find(ref);
    const finished = await settlesWithin(job.done, timeoutMs, signal);
    return { info: this.info(job), finished };
  }

  /** Server shutdown: every live job's group ends, logs are removed. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => this.end(j, 'shutdown')));
    this.runtime.fs.removeSync(this.dir, { recursive: true });
  }
}
