// Secrets known by what a file holds, wherever it lives and whatever it is called (issue 23, item 4):
// a PEM private key block, AWS credentials, and a git config whose remote URL carries a password or
// token. Judged on the bytes actually read (the opened descriptor's), never on a second read.
import { Buffer } from 'node:buffer';
import { credentialInValue } from './secret-values.ts';

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/;
/**
 * Text every file secret by its content holds (a git config aside: judged by its path): a search
 * engine that does not read files in this thread finds the files to judge by these.
 */
export const CONTENT_NEEDLES: readonly string[] = ['PRIVATE KEY', 'aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY'];
/** Cheap needles first (a native byte search); the pattern runs only near a hit. */
const KEY_NEEDLE = Buffer.from(CONTENT_NEEDLES[0]!);
const AWS_NEEDLES = CONTENT_NEEDLES.slice(1).map((n) => Buffer.from(n));
/** A git config file: `.git/config`, a submodule's `.git/modules/x/config`, a worktree's `config.worktree`. */
const GIT_CONFIG = /(?:^|\/)\.git\/(?:modules\/.+\/)?config(?:\.worktree)?$/i;

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** True when the bytes hold a PEM private key block anywhere. */
export function bytesHoldPrivateKey(bytes: Uint8Array): boolean {
  const buf = bufferOf(bytes);
  for (let at = buf.indexOf(KEY_NEEDLE); at >= 0; at = buf.indexOf(KEY_NEEDLE, at + 1)) {
    const around = buf.toString('latin1', Math.max(0, at - 64), Math.min(buf.length, at + 24));
    if (PRIVATE_KEY.test(around)) return true;
  }
  return false;
}

/** The needle followed by `=` or `:` and a value of 30+ characters (an assignment, not code that names the variable). */
function holdsAssigned(buf: Buffer, needle: Buffer): boolean {
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) {
    const after = buf.toString('latin1', at + needle.length, Math.min(buf.length, at + needle.length + 80));
    if (/^["']?\s*[=:]\s*["']?[A-Za-z0-9/+]{30,}/.test(after)) return true;
  }
  return false;
}

/**
 * Why a file's content makes it a secret, or undefined. `relative` is its path inside the workdir
 * (`/`-separated): a git config is judged by its remote URLs.
 */
export function secretInContent(relative: string, bytes: Uint8Array): string | undefined {
  if (bytesHoldPrivateKey(bytes)) return 'files holding a private key block';
  const buf = bufferOf(bytes);
  if (AWS_NEEDLES.some((n) => holdsAssigned(buf, n))) return 'files holding AWS credentials';
  if (GIT_CONFIG.test(relative)) {
    const found = credentialInValue(buf.toString('utf8'));
    if (found?.startsWith('a URL')) return `git config files with ${found} (a remote with credentials)`;
  }
  return undefined;
}
