// The /status page's routes. Access needs the server's token without putting it in a URL: the
// one-time login link `serve` prints (its code works once, then a new link is printed) or a form
// POST of the token sets an HttpOnly, SameSite=Strict cookie; a request carrying the bearer token in
// its Authorization header is served too (scripts, curl). On a team endpoint a user's token opens it
// as it opens /mcp (http-auth.ts checkUserTokenHash): a user with access to this server's project
// gets in; one without gets 403, an unknown or revoked token 401 — and a cookie signed in with a user
// token is checked again on every request, so revoking the token closes the page too. Everything
// else gets 401.
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import type { StatusSnapshot } from '../app/status.ts';
import type { Logger } from '../logging/logger.ts';
import { hashUserToken, looksLikeUserToken } from '../users/user-token.ts';
import { checkUserTokenHash, type TeamAccess } from './http-auth.ts';
import { sameSecret, tokenMatches } from './http-guard.ts';
import { generateToken } from './http-token.ts';
import { createStatusFeed } from './status-feed.ts';
import { redactSnapshot } from './status-redact.ts';
import { renderLoginPage, renderStatusBody, renderStatusPage } from './status-page.ts';

const COOKIE = 'ctxgate_status';
const MAX_COOKIES = 64;
const UPDATE_MS = 2000;
const HEARTBEAT_MS = 15_000;
/** The sign-in form holds one token: anyone who can reach the port may post to it, so it is read only this far. */
const MAX_LOGIN_BODY_BYTES = 16 * 1024;
/** Updates an event stream may hold unsent (a client that stopped reading); newer ones are dropped until it drains. */
const MAX_UNSENT_UPDATES = 4;
/** An unused sign-in link stops working after this long (issue 23.11): a link left in a scrollback is not a key forever. */
export const LOGIN_LINK_TTL_MS = 5 * 60_000;

export interface StatusRoutesOptions {
  token: string;
  /** User tokens (a team endpoint), checked as /mcp checks them; `logger` records refusals. */
  team?: TeamAccess;
  logger?: Pick<Logger, 'log'>;
  snapshot(): Promise<StatusSnapshot>;
  /** Told each new one-time login path (`/status/login?code=…`) after the previous one was used. */
  onNewLoginPath?(path: string): void;
  updateMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export interface StatusRoutes {
  /** The current one-time login path. */
  loginPath(): string;
  close(): void;
}

interface Refused {
  status: 401 | 403 | 503;
  problem: string;
}

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function csp(nonce?: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; ${nonce ? `script-src 'nonce-${nonce}'; ` : ''}connect-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

export function mountStatus(hono: Hono, options: StatusRoutesOptions): StatusRoutes {
  const now = options.now ?? Date.now;
  let code = generateToken();
  let issuedAt = now();
  /** Signed-in cookies; one signed in with a user's token keeps that token's hash, checked again on each request. */
  const cookies: { secret: string; userTokenHash?: string }[] = [];
  const streams = new Set<() => void>();
  const logger = options.logger ?? { log: () => {} };

  /** Whether a user token (by its hash) may see this status: true, or the refusal. */
  async function userAllowed(tokenHash: string): Promise<true | Refused> {
    if (!options.team) return { status: 401, problem: "That token does not match this server's token." };
    const check = await checkUserTokenHash(options.team, tokenHash, logger, '/status');
    return 'status' in check ? { status: check.status, problem: `Not signed in: ${check.reason}.` } : true;
  }

  async function signedIn(c: Context): Promise<true | Refused> {
    const authorization = c.req.header('authorization');
    if (tokenMatches(authorization, options.token)) return true;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (bearer && options.team && looksLikeUserToken(bearer)) return userAllowed(hashUserToken(bearer));
    const cookie = getCookie(c, COOKIE);
    const known = cookie === undefined ? undefined : cookies.find((k) => sameSecret(cookie, k.secret));
    if (!known) return { status: 401, problem: "Sign in to see this server's status." };
    return known.userTokenHash === undefined ? true : userAllowed(known.userTokenHash);
  }

  function refuse(problem: string, status: 401 | 403 | 413 | 503 = 401): Response {
    return new Response(renderLoginPage(problem), {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'www-authenticate': 'Bearer realm="ctxgate"', 'content-security-policy': csp(), ...PAGE_HEADERS },
    });
  }

  function startSession(c: Context, userTokenHash?: string): Response {
    const secret = generateToken();
    cookies.push({ secret, ...(userTokenHash ? { userTokenHash } : {}) });
    if (cookies.length > MAX_COOKIES) cookies.shift();
    // Path '/': '/status' would not cover /status.json (a cookie path matches whole segments only).
    setCookie(c, COOKIE, secret, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.redirect('/status', 303);
  }

  /** A new sign-in code, valid from now. */
  function rotate(): void {
    code = generateToken();
    issuedAt = now();
  }
  const expired = () => now() - issuedAt > LOGIN_LINK_TTL_MS;

  /** A new code, and its link printed where the server runs. */
  function newCode(): void {
    rotate();
    options.onNewLoginPath?.(`/status/login?code=${code}`);
  }

  hono.get('/status/login', (c) => {
    const given = c.req.query('code') ?? '';
    if (!given || !sameSecret(given, code)) return refuse('This sign-in link is not valid: each link works once. Use the newest link the server printed, or sign in with the token.');
    const stale = expired();
    newCode();
    if (stale) return refuse(`This sign-in link has expired (links work for ${LOGIN_LINK_TTL_MS / 60_000} minutes). The server has printed a new one where it runs; or sign in with the token.`);
    return startSession(c);
  });

  const limitLogin = bodyLimit({ maxSize: MAX_LOGIN_BODY_BYTES, onError: () => refuse('That sign-in request is too large: the form sends only the token.', 413) });
  hono.post('/status/login', limitLogin, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const token = typeof form.token === 'string' ? form.token : '';
    if (sameSecret(token, options.token)) return startSession(c);
    if (!options.team || !looksLikeUserToken(token)) return refuse('That token does not match this server\'s token.');
    const hash = hashUserToken(token);
    const allowed = await userAllowed(hash);
    return allowed === true ? startSession(c, hash) : refuse(allowed.problem, allowed.status);
  });

  hono.get('/status', async (c) => {
    const allowed = await signedIn(c);
    if (allowed !== true) return refuse(allowed.problem, allowed.status);
    const nonce = generateToken();
    return new Response(renderStatusPage(await options.snapshot(), nonce), {
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp(nonce), ...PAGE_HEADERS },
    });
  });

  hono.get('/status.json', async (c) => {
    const allowed = await signedIn(c);
    if (allowed !== true) {
      const error = allowed.status === 401 ? 'unauthorized: sign in, or send Authorization: Bearer <token>' : allowed.problem;
      return c.json({ error }, allowed.status, allowed.status === 401 ? { 'www-authenticate': 'Bearer realm="ctxgate"' } : {});
    }
    return c.json(redactSnapshot(await options.snapshot()), 200, { 'cache-control': 'no-store' });
  });

  // Live updates: the rendered body whenever it changes (one shared ticker renders it every couple of
  // seconds for all open streams), and a comment line now and then so proxies keep the stream open.
  const feed = createStatusFeed(async () => renderStatusBody(await options.snapshot()), options.updateMs ?? UPDATE_MS);
  hono.get('/status/events', async (c) => {
    const allowed = await signedIn(c);
    if (allowed !== true) return c.text(allowed.status === 401 ? 'unauthorized' : allowed.problem, allowed.status, allowed.status === 401 ? { 'www-authenticate': 'Bearer realm="ctxgate"' } : {});
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let closed = false;
        const send = (text: string) => {
          try {
            // Every update replaces the whole body, so one that a stalled reader would only queue is dropped.
            if ((controller.desiredSize ?? 0) <= -MAX_UNSENT_UPDATES) return;
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const unsubscribe = feed.subscribe((html) => send(`event: update\ndata: ${JSON.stringify(html)}\n\n`));
        const heartbeat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
        stop = () => {
          if (closed) return;
          closed = true;
          unsubscribe();
          clearInterval(heartbeat);
          streams.delete(stop);
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        };
        streams.add(stop);
        send('retry: 3000\n\n');
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' } });
  });

  return {
    loginPath() {
      // Asked for a link to print: an expired one is replaced first, so what is printed works.
      if (expired()) rotate();
      return `/status/login?code=${code}`;
    },
    close() {
      for (const stop of [...streams]) stop();
      feed.close();
    },
  };
}
