// What the PreToolUse hook says about curl/wget: fetching a public page is ctx_kb fetch's job; API
// calls, downloads, local servers and anything more than "GET this page and print it" are left alone.
import { callText, type Suggestion } from './suggestion.ts';

const LOCAL_HOST = /^(localhost|.*\.localhost|.*\.local|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+)$/i;
// Anything that makes the request more than "GET this page and print it".
const CURL_NOT_A_PAGE = /^(-X|--request|-d|--data.*|-F|--form.*|-T|--upload-file|-o|--output|-O|--remote-name.*|-I|--head|-u|--user|-H|--header|--unix-socket|-K|--config|-x|--proxy|-E|--cert|--json)$/;
const CURL_HARMLESS = /^(-s|--silent|-S|--show-error|-L|--location|-f|--fail|-sS|-sL|-Ls|-fsSL|-sSL|-fsS|-fL|-sfL|--compressed)$/;
const WGET_TO_STDOUT = /^(-O-|-qO-|-qO|-O|--output-document=-)$/;

/** An API endpoint (api.* host, an api or v1 path segment) or a data or archive file: not a page to read. */
const DATA_FILE = /\.(json|ndjson|jsonl|xml|csv|tsv|ya?ml|toml|gz|tgz|bz2|xz|zst|zip|tar|jar|whl|deb|rpm|png|jpe?g|gif|webp|svg|pdf|wasm|bin|exe|dmg|iso|sh)$/i;

function isApiOrData(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.hostname.toLowerCase().startsWith('api.')) return true;
    const segments = u.pathname.split('/').filter(Boolean);
    if (segments.some((seg) => /^(api|graphql|v\d+(\.\d+)?)$/i.test(seg))) return true;
    return DATA_FILE.test(u.pathname);
  } catch {
    return false;
  }
}

export function suggestFetch(program: string, args: readonly string[]): Suggestion | undefined {
  const url = args.find((a) => /^https?:\/\//i.test(a));
  if (!url) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  if (LOCAL_HOST.test(host)) return undefined; // ctx_kb fetch only reaches public addresses
  if (isApiOrData(url)) return undefined; // the agent wants the exact bytes, not a page turned into text
  const flags = args.filter((a) => a !== url);
  if (program === 'curl') {
    if (flags.some((f) => CURL_NOT_A_PAGE.test(f.split('=')[0]!))) return undefined;
  } else {
    const toStdout = flags.some((f, k) => WGET_TO_STDOUT.test(f) && (f !== '-O' && f !== '-qO' ? true : flags[k + 1] === '-'));
    if (!toStdout) return undefined; // a download to a file
  }
  const plain = program === 'curl' ? flags.every((f) => CURL_HARMLESS.test(f)) : flags.every((f) => /^(-q|--quiet|-O-|-qO-|-qO|-O|-)$/.test(f));
  return {
    exact: plain,
    text: `ctxgate fetches the page into its knowledge base and returns a short preview; search the rest without printing it: ${callText('ctx_kb', { action: 'fetch', url })}, then ${callText('ctx_kb', { action: 'search', query: 'what you need' })}.`,
  };
}
