// The text index the gate tools read (issue 14): the code index's trigram reader, kept honest by a
// watch of the project that tells it of every file changed on disk. The watch starts with the first
// search that asks the index (a server that never searches never watches 80,000 files) and ends
// with the server.
import { type CodeIndex, FIRST_PASS_DELAY_MS } from '../code/index.ts';
import { messageOf } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import type { TextIndexReader } from '../textindex/types.ts';
import { settlesWithin, sleep } from '../time/within.ts';
import { type ProjectWatch, watchProject } from '../workspace/watch.ts';

/**
 * Changed paths reach the index almost at once (it only marks them: they become candidates of every
 * query); the index itself waits for a quiet moment before it reads them again.
 */
const WATCH_DEBOUNCE_MS = 10;

export interface WatchedTextIndexDeps {
  runtime: Runtime;
  logger: Logger;
  code: Pick<CodeIndex, 'text'>;
  root: string;
  excludeDirs: readonly string[];
  dataDir: string;
  /** Resolves once the tool calls being answered are done (the watch's walk waits for them). */
  whenQuiet?: () => Promise<void>;
}

export interface WatchedTextIndex extends TextIndexReader {
  /** Whether the project watch is running (false before the first search, or when it could not start). */
  watching(): boolean;
  close(): Promise<void>;
}

/**
 * The watch starts once the first search has been answered (by a scan, which the watch's walk of the
 * folders would slow down), at the earliest a moment after it asked, before the code index's first
 * pass (FIRST_PASS_DELAY_MS) lists files.
 */
async function afterFirstAnswer(whenQuiet: (() => Promise<void>) | undefined): Promise<void> {
  await sleep(FIRST_PASS_DELAY_MS / 2, { unref: true });
  await whenQuiet?.();
}

/** The watch's first walk pauses for the calls being answered, at most WATCH_PAUSE_MAX_MS each time (~160 pauses on the Linux tree). */
const WATCH_PAUSE_MAX_MS = 100;

function pauseFor(whenQuiet: () => Promise<void>): () => Promise<void> {
  return async () => {
    await settlesWithin(whenQuiet(), WATCH_PAUSE_MAX_MS);
  };
}

export function createWatchedTextIndex(deps: WatchedTextIndexDeps): WatchedTextIndex {
  const text = deps.code.text;
  let starting: Promise<ProjectWatch | undefined> | undefined;
  let watch: ProjectWatch | undefined;
  let closed = false;
  /** Ends the wait before the watch starts: close() does not wait for the calls being answered. */
  let stopWaiting: () => void = () => undefined;
  const closing = new Promise<void>((resolve) => {
    stopWaiting = resolve;
  });

  function ensureWatch(): void {
    starting ??= Promise.race([afterFirstAnswer(deps.whenQuiet), closing])
      .then(() => (closed ? undefined : watchProject({ runtime: deps.runtime, root: deps.root, excludeDirs: deps.excludeDirs, ignore: [deps.dataDir], logger: deps.logger, debounceMs: WATCH_DEBOUNCE_MS, ...(deps.whenQuiet ? { pause: pauseFor(deps.whenQuiet) } : {}) }, (paths) => text.touched(paths))))
      .then((w) => {
        if (closed) w?.close();
        else watch = w;
        return w;
      })
      .catch((error) => {
        deps.logger.log('file_watch_unavailable', { root: deps.root, error: messageOf(error) });
        return undefined;
      });
  }

  return {
    async candidates(query, scope, signal) {
      if (!closed) ensureWatch();
      // What changed on disk before this query (a file written right before the call) is in first.
      await watch?.settled();
      return text.candidates(query, scope, signal);
    },
    touched: (paths) => text.touched(paths),
    status: () => text.status(),
    state: () => text.state(),
    watching: () => watch?.watching === true,
    async close() {
      closed = true;
      stopWaiting();
      (await starting)?.close();
    },
  };
}
