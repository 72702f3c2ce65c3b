// The stdio server's app, built on first need (after the tool list went out, or by the first call).
// A build that fails for a reason that cannot change while the process runs — a configuration error:
// the settings are read once, at start — fails every later call the same way; any other failure (a
// database not up yet, a full disk) is tried again by the next call. Each distinct failure is written
// to stderr once (where a client shows why a server is of no use); every call answers with it.
import { AppError, ErrorCode, isAppError, messageOf } from '../errors.ts';
import type { AppContext } from './context.ts';

export interface DeferredApp {
  /** The app; the first call (and, after a failure that may pass, the next) builds it. Rejects with an AppError saying what to do. */
  get(): Promise<AppContext>;
  /** The app if a build succeeded, else undefined; starts nothing. */
  built(): Promise<AppContext | undefined>;
  /** Why the latest build failed, or undefined (none failed, or a later one succeeded). */
  failure(): AppError | undefined;
}

export interface DeferredAppOptions {
  build: () => Promise<AppContext>;
  /** The folder the app serves, named in the errors. */
  projectRoot: string;
  /** Receives each distinct failure, once, as lines for stderr. */
  report: (text: string) => void;
}

/** A configuration or usage error lasts as long as the process: fixing it takes a restart. */
export function isLastingFailure(error: unknown): boolean {
  return isAppError(error) && (error.code === ErrorCode.Config || error.code === ErrorCode.Usage);
}

/** A failed build as calls see it: what failed, and what to do about it (restart, or just call again). */
export function buildFailure(error: unknown, projectRoot: string): AppError {
  const message = `cannot start serving ${projectRoot}: ${messageOf(error)}`;
  const hint = isAppError(error) ? error.hint : undefined;
  if (isLastingFailure(error)) {
    const restart = 'restart the MCP server (in Claude Code: /mcp → reconnect): ctxgate reads its configuration and environment once, at start';
    return new AppError((error as AppError).code, message, { cause: error, hint: hint ? `${hint}; then ${restart}` : restart });
  }
  const retry = 'the next call tries again';
  return new AppError(ErrorCode.Unavailable, message, { cause: error, hint: `${hint ?? "the MCP server's log (stderr) has details"}; ${retry}` });
}

export function createDeferredApp(options: DeferredAppOptions): DeferredApp {
  let building: Promise<AppContext> | undefined;
  let failed: AppError | undefined;
  let reported: string | undefined;

  async function attempt(): Promise<AppContext> {
    try {
      // Started from a promise, so that even a build that throws at once fails after `get` kept this attempt.
      const app = await Promise.resolve().then(options.build);
      failed = undefined;
      return app;
    } catch (error) {
      failed = buildFailure(error, options.projectRoot);
      if (!isLastingFailure(error)) building = undefined;
      const text = `ctxgate: ${failed.message}\nhint: ${failed.hint}\n`;
      if (text !== reported) options.report(text);
      reported = text;
      throw failed;
    }
  }

  return {
    get: () => (building ??= attempt()),
    built: async () => (building ? building.catch(() => undefined) : undefined),
    failure: () => failed,
  };
}
