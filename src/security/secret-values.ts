// Values that carry a credential whatever their variable is called (issue 11, item 6): a URL with a
// password in its userinfo, a token as the user of an http(s) URL, a private key block, a JWT, a chat
// webhook URL (whoever holds one can post). Every check scans the value once: no backtracking regex.
import { holdsPrivateKey } from './secret-files.ts';

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** Where the authority and path of a URL written inside a longer value end. */
const URL_END = /[\s"'<>`]/;

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

/** Why a value looks like a credential, or undefined. */
export function credentialInValue(value: string): string | undefined {
  if (holdsPrivateKey(value)) return 'a private key block';
  if (holdsJwt(value)) return 'a JWT';
  for (const url of urlsIn(value)) {
    if (url.userinfo !== undefined) {
      // ssh://git@host names an account; a password, or a token as the user of http(s), is a secret.
      if (url.userinfo.includes(':')) return 'a URL with a password';
      if (url.scheme === 'http' || url.scheme === 'https') return 'a URL with a token as its user';
    }
    if (isWebhook(url)) return 'a webhook URL';
  }
  return undefined;
}
