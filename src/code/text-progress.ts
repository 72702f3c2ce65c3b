// The build's parse stage runs beside its text stage: the text stage reads each file that may have
// changed, hashes it, decides its catalogue version and commits it with the file's segment (every few
// thousand files). The parse stage must parse what that version holds, so a file the text stage has
// still to read waits until it has (its version and hash are known from then on), and a parsed file
// is written only once the text stage has committed that version (a reader never sees rows of a
// version the catalogue does not hold). Files the text stage does not read (already taken in their
// current version) go at once. The worker parses while the main thread indexes trigrams: the text
// stage no longer holds the parse back (~73 s of the Linux build with the worker idle).
import type { TakenFile, TextWork } from '../textindex/stage.ts';
import { yieldToLoop } from './index-shared.ts';
import type { FileRow } from './store.ts';

export class TextProgress {
  /** Files of the text stage's work read so far, their version decided (in the order of its work). */
  private readCount = 0;
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
  private place: Map<string, number>;
  /** The catalogue rows the parse stage reads, by id: updated with the versions the text stage decides. */
  private byId: Map<number, FileRow>;

  constructor(work: readonly TextWork[], rows: Iterable<FileRow>) {
    this.place = new Map(work.map((w, i) => [w.path, i]));
    this.byId = new Map([...rows].map((r) => [r.id, r]));
  }

  /**
   * The text stage read this file (next in its work's order) and decided its version: its row takes
   * that version and hash, which the text stage commits with its next segment.
   */
  read(file: TakenFile): void {
    const row = this.byId.get(file.id);
    if (row) {
      row.version = file.version;
      row.hash = file.hash;
    }
    this.readCount++;
    this.wake();
  }

  /** The text stage committed these files (next in its work's order, each read before). */
  taken(files: readonly TakenFile[]): void {
    for (const f of files) {
      const row = this.byId.get(f.id);
      if (row) row.text_of = f.version;
    }
    this.committed += files.length;
    this.wake();
  }

  /** The text stage ended (done, stopped or failed): nothing more will be read or committed. */
  end(failure?: unknown): void {
    this.ended = true;
    this.failure ??= failure;
    // Every file read and committed: each place is behind the text stage now, so the maps (an entry
    // and a row per changed file, ~50 MB of the main thread's heap for the Linux tree) can go.
    if (this.failure === undefined && this.committed === this.place.size) {
      this.place = new Map();
      this.byId = new Map();
    }
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

  /** The file's place in the text stage's work; -1 for a file the text stage does not read. */
  placeOf(path: string): number {
    return this.place.get(path) ?? -1;
  }

  /** Whether the files up to this place (placeOf) are committed. */
  isCommitted(place: number): boolean {
    return this.committed > place;
  }

  /**
   * Resolves once the text stage has read the file and decided its version (at once for a file
   * outside its work). Throws when the stage failed before that; when it stopped (the pass is
   * closing), resolves with false: the row does not say what the file holds now.
   */
  ready(path: string): Promise<boolean> {
    return this.until(() => this.readCount > this.placeOf(path));
  }

  /**
   * Resolves once the text stage has committed the files up to this place (placeOf), giving it the
   * thread meanwhile; false, or the stage's error, as `ready`.
   */
  commit(place: number): Promise<boolean> {
    return this.until(() => this.isCommitted(place));
  }

  private async until(done: () => boolean): Promise<boolean> {
    if (done()) return true;
    const turn = this.textTurn;
    this.yieldToText(true);
    try {
      while (!done()) {
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
