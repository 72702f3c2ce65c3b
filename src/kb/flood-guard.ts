// The search flood guard (ctxmode spec): within a 60-second window, after 4 completed searches the
// results are halved, and the 9th attempt is refused — an agent searching in circles should read
// what it found instead.
import { AppError, ErrorCode } from '../errors.ts';

export const FLOOD_WINDOW_MS = 60_000;
export const THROTTLE_AFTER = 4;
export const REJECT_AT = 9;

export interface FloodState {
  attempts: number[];
  completed: number[];
}

export type FloodVerdict = { kind: 'ok' } | { kind: 'throttle'; completed: number } | { kind: 'reject'; attempts: number; retryAfterMs: number };

export function createFloodState(): FloodState {
  return { attempts: [], completed: [] };
}

/** Records an attempt at `now` and says what to do with it. */
export function floodCheck(state: FloodState, now: number): FloodVerdict {
  const since = now - FLOOD_WINDOW_MS;
  state.attempts = state.attempts.filter((t) => t > since);
  state.completed = state.completed.filter((t) => t > since);
  state.attempts.push(now);
  if (state.attempts.length >= REJECT_AT) {
    return { kind: 'reject', attempts: state.attempts.length, retryAfterMs: Math.max(0, state.attempts[0]! + FLOOD_WINDOW_MS - now) };
  }
  if (state.completed.length >= THROTTLE_AFTER) return { kind: 'throttle', completed: state.completed.length };
  return { kind: 'ok' };
}

export function floodCompleted(state: FloodState, now: number): void {
  state.completed.push(now);
}

/** Counts `searches` searches against a session's guard; throws when it refuses them. */
export function guardSearch(state: FloodState, searches: number): FloodVerdict {
  let verdict: FloodVerdict = { kind: 'ok' };
  for (let i = 0; i < searches; i++) {
    verdict = floodCheck(state, Date.now());
    if (verdict.kind === 'reject') throw floodError(verdict);
  }
  return verdict;
}

export function floodError(verdict: Extract<FloodVerdict, { kind: 'reject' }>): AppError {
  return new AppError(ErrorCode.LimitExceeded, `${verdict.attempts} searches in the last 60 s: search refused`, {
    hint: `stop searching and read the best source already found (use the line ranges given), or wait ${Math.ceil(verdict.retryAfterMs / 1000)} s`,
  });
}
