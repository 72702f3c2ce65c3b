// The build's parse stage runs beside its text stage: the text stage reads each file that may have
// changed, hashes it and commits its catalogue version; the parse stage must parse what that version
// holds, so a file the text stage has still to take waits until it has. Files the text stage does not
// read (already taken in their current version) go at once. The worker parses while the main thread
// indexes trigrams: the text stage no longer holds the parse back (~85 s of the Linux build).
import type { TakenFile, TextWork } from '../textindex/stage.ts';
import { yieldToLoop } from './index-shared.ts';
import type { FileRow } from './store.ts';

export class TextProgress {
  /** Files of the text stage's work committed so far (it commits them in the order of its work). */
  private committed = 0;
  private ended = false;
  private failure: unknown;
  private waiters: (() => void)[] = [];
  /**
   * Whether the parse stage leaves this thread to the text stage now: it waits for the worker with
   * its window full, or for the text stage, or it is done. Otherwise (reading files and handing them
   * to the worker) the text stage waits at its next pause: a parse stage that must share the thread
   * with 20 ms stretches of trigram indexing hands the worker a file per stretch and starves it.
   */
  private textTurn = false;
  private turnWaiters: (() => void)[] = [];
  /** Each file's place in the text stage's work. */
  private readonly place: Map<string, number>;
  /** The catalogue rows the parse stage reads, by id: updated with the versions the text stage commits. */
  private readonly byId: Map<number, FileRow>;

  constructor(work: readonly TextWork[], rows: Iterable<FileRow>) {
    this.place = new Map(work.map((w, i) => [w.path, i]));
    this.byId = new Map([...rows].map((r) => [r.id, r]));
  }

  /** The text stage committed these files (next in its work's order): their rows take the new version and hash. */
  taken(files: readonly TakenFile[]): void {
    for (const f of files) {
      const row = this.byId.get(f.id);
      if (row) {
        row.version = f.version;
        row.hash = f.hash;
        row.text_of = f.version;
      }
    }
    this.committed += files.length;
    this.wake();
  }

  /** The text stage ended (done, stopped or failed): nothing more will be committed. */
  end(failure?: unknown): void {
    this.ended = true;
    this.failure ??= failure;
    this.wake();
  }

  /** The parse stage leaves the thread to the text stage (true) or takes it back (false). */
  yieldToText(turn: boolean): void {
    this.textTurn = turn;
    if (!turn) return;
    const waiters = this.turnWaiters;
    this.turnWaiters = [];
    for (const w of waiters) w();
  }

  /** The text stage's pause: lets the event loop run, then waits until the parse stage leaves the thread to it. */
  async pause(): Promise<void> {
    await yieldToLoop();
    while (!this.textTurn) await new Promise<void>((resolve) => this.turnWaiters.push(resolve));
  }

  /**
   * Resolves once the text stage has committed the file (at once for a file outside its work).
   * Throws when the stage failed before taking it; when it stopped (the pass is closing), resolves
   * with false: the row does not say what the file holds now.
   */
  async ready(path: string): Promise<boolean> {
    const at = this.place.get(path);
    if (at === undefined) return true;
    const turn = this.textTurn;
    this.yieldToText(true);
    try {
      while (this.committed <= at) {
        if (this.ended) {
          if (this.failure !== undefined) throw this.failure;
          return false;
        }
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
      return true;
    } finally {
      this.yieldToText(turn);
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
