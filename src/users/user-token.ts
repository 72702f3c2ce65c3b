// The tokens a team endpoint issues to its people (issue 25). A token is 32 random bytes behind a
// prefix, so a leaked one is recognisable for what it is (secret scanners, a log line someone
// pastes). Only its SHA-256 is stored: the token is high-entropy, so a plain hash cannot be reversed
// by guessing and needs no slow password hash; it is printed once, when it is issued. A presented
// token is found by its hash (an indexed lookup): how long that takes depends on the hash, which a
// guesser cannot steer towards a stored one, so no comparison of secrets happens where timing tells.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';

export const USER_TOKEN_PREFIX = 'ctxg_';

/** 43 base64url characters after the prefix (32 bytes). */
const TOKEN_SHAPE = /^ctxg_[A-Za-z0-9_-]{43}$/;

export function issueUserToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `${USER_TOKEN_PREFIX}${Buffer.from(bytes).toString('base64url')}`;
}

/** Whether a presented bearer token has the shape of a user token (anything else is not looked up). */
export function looksLikeUserToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** What is stored in place of the token: its SHA-256, hex. */
export function hashUserToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
