// One error type with a closed set of codes. Messages say what was wrong; hints say what to do.
export const ErrorCode = {
  InvalidArgument: 'INVALID_ARGUMENT',
  UnknownTool: 'UNKNOWN_TOOL',
  OutsideWorkdir: 'OUTSIDE_WORKDIR',
  Blocked: 'BLOCKED',
  NotFound: 'NOT_FOUND',
  Ambiguous: 'AMBIGUOUS',
  LimitExceeded: 'LIMIT_EXCEEDED',
  SecretRefused: 'SECRET_REFUSED',
  Unavailable: 'UNAVAILABLE',
  Timeout: 'TIMEOUT',
  Config: 'CONFIG_INVALID',
  Usage: 'USAGE',
  Internal: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface AppErrorOptions {
  cause?: unknown;
  hint?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.hint = options.hint;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The message of anything thrown, without a stack trace. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
