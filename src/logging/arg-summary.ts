// A tool call's arguments in one short line, for the places a person glances at (the status page's
// calls in flight and recent calls, `ctxgate stats`): enough to tell twelve `search` calls apart,
// never a credential. Built from the log's redacted copy, so what the log hides is hidden here too.
import { redactArgs } from './logger.ts';

/** How long a summary may be, and one value within it. */
export const ARG_SUMMARY_MAX_CHARS = 120;
const VALUE_MAX_CHARS = 48;

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function value(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(shorten(v.replace(/\s+/g, ' '), VALUE_MAX_CHARS));
  if (Array.isArray(v)) return shorten(`[${v.map(value).join(', ')}]`, VALUE_MAX_CHARS);
  if (v && typeof v === 'object') {
    const n = Object.keys(v).length;
    return `{${n} key${n === 1 ? '' : 's'}}`;
  }
  return String(v);
}

/**
 * `pattern="widget" scope="lib" force=true`: the arguments in the order given, without `action`
 * (shown beside the tool's name), each value shortened, the whole line at most ~120 characters.
 */
export function summarizeArgs(args: unknown, maxChars = ARG_SUMMARY_MAX_CHARS): string {
  return args === undefined ? '' : summarizeRedacted(redactArgs(args), maxChars);
}

/** summarizeArgs of arguments already redacted (the registry redacts them once for the log and the summary). */
export function summarizeRedacted(redacted: unknown, maxChars = ARG_SUMMARY_MAX_CHARS): string {
  if (!redacted || typeof redacted !== 'object' || Array.isArray(redacted)) return shorten(value(redacted), maxChars);
  const parts = Object.entries(redacted as Record<string, unknown>)
    .filter(([k]) => k !== 'action')
    .map(([k, v]) => `${k}=${value(v)}`);
  return shorten(parts.join(' '), maxChars);
}
