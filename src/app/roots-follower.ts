// Applies a client's MCP roots to the stdio server's app, one step at a time. The first list picks the
// project root, which waits for the app's build; a roots/list_changed arriving meanwhile is applied
// after it, so the newest list is the one served. A build that fails leaves the first list pending:
// the call that builds the app later follows it before it runs.
import type { AppContext } from './context.ts';
import { followRoots, updateRootWorkdirs } from './roots.ts';
import type { CommonOptions } from './settings.ts';
import { messageOf } from '../errors.ts';

export interface RootsFollower {
  /** A list of roots from the client (first: the answer asked for at initialisation). */
  onRoots(folders: string[], first: boolean): Promise<void>;
  /** The app with every list received so far applied: what tool calls get. */
  app(): Promise<AppContext>;
}

export interface RootsFollowerOptions {
  /** The app as started (in the folder ctxgate started in); rejects when it cannot be built. */
  build: () => Promise<AppContext>;
  common: CommonOptions;
  /** Where the server started: served when the first root cannot be (e.g. its config file is broken). */
  startRoot: string;
  report: (text: string) => void;
}

export function createRootsFollower(options: RootsFollowerOptions): RootsFollower {
  let first: string[] | undefined;
  let newest: string[] | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function serially<T>(step: () => Promise<T>): Promise<T> {
    const run = queue.then(step);
    queue = run.catch(() => {});
    return run;
  }

  async function catchUp(): Promise<AppContext> {
    const app = await options.build();
    if (first) {
      const folders = first;
      // Tried once: a root that cannot be served is said so, and the start folder is served instead.
      first = undefined;
      try {
        await followRoots(app, options.common, folders);
      } catch (error) {
        app.logger.log('roots_error', { error: messageOf(error) });
        options.report(`ctxgate: cannot serve the client's roots (${messageOf(error)}); serving ${options.startRoot}\n`);
      }
    }
    if (newest) {
      updateRootWorkdirs(app, newest);
      newest = undefined;
    }
    return app;
  }

  return {
    async onRoots(folders, isFirst) {
      if (isFirst) first = folders;
      else newest = folders;
      await serially(catchUp);
    },
    app: () => serially(catchUp),
  };
}
