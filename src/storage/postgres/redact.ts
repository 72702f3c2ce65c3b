// The one place a database URL is made printable: logs, doctor, the status page and error messages
// all show it through redactUrl, so its password never leaves the process.
const MASK = '***';
const SECRET_PARAMS = ['password', 'sslpassword', 'sslkey'];

/** The URL with its password (and password-like query parameters) replaced by ***. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can take apart: hide everything between "://" and the last "@", where a password would be.
    const start = url.indexOf('://');
    const at = url.lastIndexOf('@');
    return start >= 0 && at > start ? `${url.slice(0, start + 3)}${MASK}${url.slice(at)}` : url;
  }
  if (parsed.password) parsed.password = MASK;
  for (const name of SECRET_PARAMS) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, MASK);
  return parsed.toString().replace(/%2A%2A%2A/g, MASK);
}

/** A text (a driver's message) with every occurrence of the URL's password replaced by ***. */
export function redactPasswordIn(text: string, url: string): string {
  const secrets = passwordsOf(url).filter((s) => s.length >= 3);
  let out = text.split(url).join(redactUrl(url));
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}

function passwordsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const found = [parsed.password, ...SECRET_PARAMS.map((p) => parsed.searchParams.get(p) ?? '')].filter(Boolean);
    return [...new Set(found.flatMap((s) => [s, safeDecode(s)]))];
  } catch {
    return [];
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
