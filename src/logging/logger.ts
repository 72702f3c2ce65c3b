// Append-only NDJSON event log (the gate spec's events: tool_call, dispatch, gate, tool_result,
// tool_error, …). A failing write never breaks a tool call, and nothing ever goes to stdout.
import type { AppendHandle, Runtime } from '../runtime/types.ts';
import { secretInText } from '../security/secret-text.ts';
import { looksSensitiveName } from '../security/sensitive-names.ts';

export type LogFields = Record<string, unknown>;

export interface Logger {
  log(event: string, fields?: LogFields): void;
  /** The file written to, or undefined when file logging is off or failed. */
  readonly file: string | undefined;
  close(): void;
}

export interface LoggerOptions {
  file: string | undefined;
  debug: boolean;
  /** Rotate to `<file>.1` past this size. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export function createLogger(runtime: Runtime, options: LoggerOptions): Logger {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let handle: AppendHandle | undefined;
  let failed = false;

  function fail(error: unknown): void {
    if (failed) return;
    failed = true;
    handle = undefined;
    runtime.writeStderr(`ctxgate: log file ${options.file} cannot be written (${String(error)}); file logging is off\n`);
  }

  function open(): AppendHandle | undefined {
    if (handle || failed || !options.file) return handle;
    try {
      handle = runtime.fs.openAppendSync(options.file, 0o600);
    } catch (error) {
      fail(error);
    }
    return handle;
  }

  function rotate(): void {
    if (!handle || !options.file) return;
    handle.close();
    handle = undefined;
    runtime.fs.renameSync(options.file, `${options.file}.1`);
  }

  return {
    get file() {
      return failed ? undefined : options.file;
    },
    log(event, fields = {}) {
      let line: string;
      try {
        line = `${JSON.stringify({ ts: new Date().toISOString(), event, ...fields })}\n`;
      } catch {
        line = `${JSON.stringify({ ts: new Date().toISOString(), event, note: 'fields not serializable' })}\n`;
      }
      if (options.debug) runtime.writeStderr(line);
      try {
        if (open() && handle && handle.size() >= maxBytes) rotate();
        open()?.append(line);
      } catch (error) {
        fail(error);
      }
    },
    close() {
      try {
        handle?.close();
      } catch {
        // closing a broken handle is not worth reporting
      }
      handle = undefined;
    },
  };
}

const MAX_LOGGED_STRING = 300;

/**
 * A copy of tool arguments that is safe to log: values under sensitive-looking keys, values that
 * hold a credential (a URL with a password, a JWT, a key block, a bearer token, a secret option or
 * assignment, a known access token) and every `env` value are replaced,
 * long strings are shortened.
 */
export function redactArgs(value: unknown, key = '', depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (key === 'env' && value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).map((k) => [k, '[redacted]']));
  }
  if (key && looksSensitiveName(key) && typeof value === 'string') return '[redacted]';
  if (typeof value === 'string') {
    const shown = value.length > MAX_LOGGED_STRING ? `${value.slice(0, MAX_LOGGED_STRING)}…(+${value.length - MAX_LOGGED_STRING} chars)` : value;
    // A command line or URL that carries a password, token or key is not logged at all; judged past
    // the cut too, so a token the cut splits is still seen for what it is.
    const held = secretInText(value.slice(0, MAX_LOGGED_STRING * 2));
    return held ? `[redacted: holds ${held}]` : shown;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactArgs(v, '', depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactArgs(v, k, depth + 1)]));
  }
  return value;
}
