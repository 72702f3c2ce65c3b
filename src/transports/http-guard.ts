// The HTTP endpoint's gatekeeping: bearer token, Host and Origin checks against DNS rebinding.
// Pure functions; http-middleware.ts turns their verdicts into responses.
import ipaddr from 'ipaddr.js';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare);
  return addr.range() === 'loopback';
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Host names a request may name in its Host header (ports are compared separately). */
export function allowedHostNames(bindHost: string, extra: readonly string[]): Set<string> {
  const names = new Set(extra.map((h) => h.toLowerCase().replace(/^\[|\]$/g, '')));
  if (isLoopbackHost(bindHost) || isWildcardHost(bindHost)) {
    for (const h of ['localhost', '127.0.0.1', '::1']) names.add(h);
  }
  if (!isWildcardHost(bindHost)) names.add(bindHost.toLowerCase().replace(/^\[|\]$/g, ''));
  return names;
}

/** Splits a Host header value into name and port; undefined when it is malformed. */
export function parseHostHeader(value: string): { name: string; port: string | undefined } | undefined {
  const v = value.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(v) ?? /^([a-z0-9.-]+)(?::(\d+))?$/.exec(v);
  if (!m?.[1]) return undefined;
  return { name: m[1], port: m[2] };
}

/** A reason to refuse the Host header, or undefined when it is acceptable. */
export function checkHost(header: string | undefined, names: Set<string>, port: number): string | undefined {
  if (!header) return 'the request has no Host header';
  const parsed = parseHostHeader(header);
  if (!parsed) return `Host header '${header}' is malformed`;
  if (!names.has(parsed.name)) return `Host '${parsed.name}' is not allowed (start with --allowed-host ${parsed.name} to allow it)`;
  if (parsed.port !== undefined && Number(parsed.port) !== port) return `Host port ${parsed.port} does not match the server's port ${port}`;
  return undefined;
}

/**
 * A reason to refuse the Origin header, or undefined. Requests without Origin (non-browser clients)
 * pass. The port counts too (issue 23.11): another server on localhost is another origin.
 */
export function checkOrigin(header: string | undefined, names: Set<string>, extraOrigins: readonly string[], port: number): string | undefined {
  if (header === undefined) return undefined;
  if (extraOrigins.includes(header)) return undefined;
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return `Origin '${header}' is malformed`;
  }
  const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if ((url.protocol === 'http:' || url.protocol === 'https:') && names.has(name)) {
    const given = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (given === port) return undefined;
    return `Origin '${header}' is on port ${given}, not the server's port ${port} (start with --allowed-origin ${header} to allow it)`;
  }
  return `Origin '${header}' is not allowed (start with --allowed-origin ${header} to allow it)`;
}

/** Compares a presented secret with the expected one in time independent of where they differ; an empty secret never matches. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = new TextEncoder().encode(presented);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0 && b.length > 0;
}

/** Whether an Authorization header carries the expected bearer token. */
export function tokenMatches(authorization: string | undefined, expected: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return sameSecret(m?.[1] ?? '', expected);
}
