// Values that carry a credential whatever their variable is called (issue 11, item 6): a URL with a
// password in its userinfo, a token as the user of an http(s) URL, a private key block, a JWT, a chat
// webhook URL (whoever holds one can post). Issue 23.9 adds access tokens known by their prefix
// (ghp_, sk-proj-, sk_live_, xoxb-, glpat-, AKIA…), connection strings with a password or signature
// (`Server=…;Password=…`, `jdbc:…?password=`, a SAS `sig=`) and a base64-encoded private key (a
// Kubernetes secret). Every check scans the value once: no backtracking regex.
import { holdsPrivateKey } from './secret-files.ts';

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** Where the authority and path of a URL written inside a longer value end. */
const URL_END = /[\s"'<>`]/;

/** Access tokens known by their prefix, at the start of a word. */
export const KNOWN_TOKEN =
  /^(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abeprs]-[\w-]{10,}|sk-[\w-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[\w-]{30,}|npm_[A-Za-z0-9]{30,}|pypi-[\w-]{50,}|hf_[A-Za-z0-9]{30,})/;

/** Keys of a `key=value` pair (connection strings, query strings) whose value is a secret. */
const SECRET_PAIR_KEY = /^(?:password|passwd|pwd|pass|accountkey|sharedaccesskey|sharedaccesssignature|sig|signature|client_?secret|access_?token|api_?key|secret)$/i;

/** base64 of "-----BEGI": how every base64-encoded PEM block starts. */
const ENCODED_PEM_START = 'LS0tLS1CRUdJT';

interface FoundUrl {
  scheme: string;
  /** user[:password], when the URL has one */
  userinfo: string | undefined;
  host: string;
  /** from the first / (no query or fragment) */
  path: string;
}

/** Every `scheme://…` in a value, split into the parts the checks need. */
function urlsIn(value: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  let at = value.indexOf('://');
  while (at >= 0) {
    let start = at;
    // Never crosses an earlier "://": ':' is not a scheme character, so the scans stay linear.
    while (start > 0 && SCHEME_CHAR.test(value[start - 1]!)) start--;
    let end = at + 3;
    while (end < value.length && !URL_END.test(value[end]!)) end++;
    const scheme = value.slice(start, at).toLowerCase();
    const rest = value.slice(at + 3, end);
    const authorityEnd = rest.search(/[/?#]/);
    const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
    const userEnd = authority.lastIndexOf('@');
    const tail = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
    const pathEnd = tail.search(/[?#]/);
    if (scheme) {
      found.push({
        scheme,
        userinfo: userEnd < 0 ? undefined : authority.slice(0, userEnd),
        host: (userEnd < 0 ? authority : authority.slice(userEnd + 1)).toLowerCase(),
        path: (pathEnd < 0 ? tail : tail.slice(0, pathEnd)).toLowerCase(),
      });
    }
    at = value.indexOf('://', end);
  }
  return found;
}

function isWebhook(url: FoundUrl): boolean {
  if (url.host === 'hooks.slack.com' || url.host === 'hooks.zapier.com' || url.host.endsWith('.webhook.office.com')) return true;
  if ((url.host === 'discord.com' || url.host === 'discordapp.com' || url.host.endsWith('.discord.com')) && url.path.startsWith('/api/webhooks/')) return true;
  return url.path.split('/').some((segment) => segment === 'webhook' || segment === 'webhooks');
}

/** base64url header "eyJ…" (a JSON object), payload and signature: a JWS (3 parts) or JWE (5). */
function holdsJwt(value: string): boolean {
  for (const word of value.split(/[^A-Za-z0-9_.-]+/)) {
    if (!word.startsWith('eyJ')) continue;
    const parts = word.split('.');
    if ((parts.length === 3 || parts.length === 5) && parts[0]!.length >= 10 && parts[1]!.length > 0) return true;
  }
  return false;
}

function holdsKnownToken(value: string): boolean {
  return value.split(/[^A-Za-z0-9_-]+/).some((word) => KNOWN_TOKEN.test(word));
}

/**
 * `Server=h;Password=p`, `…?user=u&password=p`, `?sv=…&sig=…`: a pair whose key names a secret, with a
 * value. Returns how to name it: a query parameter of a URL, or a pair of a connection string.
 */
function secretPair(value: string): string | undefined {
  if (!value.includes('=')) return undefined;
  const isUrl = value.includes('://') || value.startsWith('jdbc:');
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    if (i < value.length && value[i] !== ';' && value[i] !== '&' && value[i] !== '?') continue;
    const piece = value.slice(start, i);
    const separator = start > 0 ? value[start - 1] : '';
    start = i + 1;
    const eq = piece.indexOf('=');
    if (eq <= 0) continue;
    const key = piece.slice(0, eq).trim();
    const given = piece.slice(eq + 1).trim();
    // A reference to a secret elsewhere (`Password=$DB_PASSWORD`) holds none.
    if (!given || given.startsWith('$') || !SECRET_PAIR_KEY.test(key)) continue;
    return isUrl && separator !== ';' ? 'a URL with a secret parameter' : 'a connection string with a password or signature';
  }
  return undefined;
}

/** A base64 word whose decoded start is a private key block's header. */
function holdsEncodedPrivateKey(value: string): boolean {
  let at = value.indexOf(ENCODED_PEM_START);
  while (at >= 0) {
    const word = /^[A-Za-z0-9+/]+/.exec(value.slice(at, at + 96))?.[0] ?? '';
    try {
      if (/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(atob(word.slice(0, word.length - (word.length % 4))))) return true;
    } catch {
      // Not base64 after all.
    }
    at = value.indexOf(ENCODED_PEM_START, at + 1);
  }
  return false;
}

/** Why a value looks like a credential, or undefined. */
export function credentialInValue(value: string): string | undefined {
  if (holdsPrivateKey(value)) return 'a private key block';
  if (holdsEncodedPrivateKey(value)) return 'a base64-encoded private key';
  if (holdsJwt(value)) return 'a JWT';
  for (const url of urlsIn(value)) {
    if (url.userinfo !== undefined) {
      // ssh://git@host names an account; a password, or a token as the user of http(s), is a secret.
      if (url.userinfo.includes(':')) return 'a URL with a password';
      if (url.scheme === 'http' || url.scheme === 'https') return 'a URL with a token as its user';
    }
    if (isWebhook(url)) return 'a webhook URL';
  }
  if (holdsKnownToken(value)) return 'an access token';
  return secretPair(value);
}
