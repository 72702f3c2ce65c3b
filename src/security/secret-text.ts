// Secrets written into a command line or other text that is about to be shown or logged (a run's
// label, the status page, the log's tool arguments): what credentialInValue finds (a URL with a
// password, a JWT, a key block, a webhook), and also a bearer token after "Bearer", a secret option
// (--token x, --password=x, curl -u user:password), a secret assignment (GITHUB_TOKEN=…), a URL
// with a secret query parameter (?access_token=…) and access tokens known by their prefix (ghp_…,
// sk-…, AKIA…). Not used to strip child environments: only to decide what is not quoted. Every
// check looks at one word at a time.
import { credentialInValue, KNOWN_TOKEN } from './secret-values.ts';

/** Names of things that hold a secret (narrower than the child-environment rule: `AUTHOR=me` is no secret). */
// `pass$` and `_pw$` as well (MYPASS, PGPASS, DB_PW; issue 23.11): a name ending so is taken for a secret in what is shown.
const SECRET_NAME = /token|secret|passw(?:or)?d|api[-_]?key|access[-_]?key|private[-_]?key|credential|(?:[-_](?:pat|pwd|pw)|pass)$/i;
/** Options and parameters that name where a secret is, not the secret. */
const NAMES_A_PLACE = /(?:file|path|env|var|name|dir|stdin|url)$/i;
const SECRET_PARAM = /^(?:key|sig|signature|auth|code)$/i;

/** A value that names a secret rather than holding one (`$TOKEN`, `${TOKEN}`, `$(cat file)`), a redirection, or nothing. */
function isReference(value: string | undefined): boolean {
  return value === undefined || value === '' || /^[$<>]/.test(value);
}

function secretInWord(prev: string | undefined, word: string, next: string | undefined): string | undefined {
  if (KNOWN_TOKEN.test(word)) return 'an access token';
  const lower = word.toLowerCase();
  const scheme = lower === 'bearer' || lower === 'basic' || (lower === 'token' && prev?.toLowerCase() === 'authorization:');
  if (scheme && next !== undefined && next.length >= 8 && !isReference(next)) return 'a bearer token';
  const eq = word.indexOf('=');
  const name = eq < 0 ? word : word.slice(0, eq);
  const value = eq < 0 ? undefined : word.slice(eq + 1);
  if (value && KNOWN_TOKEN.test(value)) return 'an access token';
  if (name.startsWith('-')) {
    // curl -u user:password
    if (name === '-u' || name === '--user') {
      const given = eq >= 0 ? value : next;
      return given !== undefined && /^[^:$]*:[^$]/.test(given) ? 'a secret option' : undefined;
    }
    if (!SECRET_NAME.test(name) || NAMES_A_PLACE.test(name)) return undefined;
    if (eq >= 0) return isReference(value) ? undefined : 'a secret option';
    return next !== undefined && !next.startsWith('-') && !isReference(next) ? 'a secret option' : undefined;
  }
  if (eq > 0 && /^[A-Za-z_]\w*$/.test(name) && SECRET_NAME.test(name) && !NAMES_A_PLACE.test(name) && !isReference(value)) return 'a secret assignment';
  if (/^https?:\/\//i.test(word)) {
    try {
      for (const [key, v] of new URL(word).searchParams) if ((SECRET_NAME.test(key) || SECRET_PARAM.test(key)) && v) return 'a URL with a secret parameter';
    } catch {
      // Not a URL after all.
    }
  }
  return undefined;
}

/** What kind of secret a text quotes, or undefined. */
export function secretInText(text: string): string | undefined {
  const held = credentialInValue(text);
  if (held) return held;
  const words = text.split(/[\s"'`;|&()]+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const found = secretInWord(words[i - 1], words[i]!, words[i + 1]);
    if (found) return found;
  }
  return undefined;
}
