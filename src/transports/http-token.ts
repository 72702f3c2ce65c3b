// The HTTP bearer token: CTXGATE_TOKEN when set; else the one saved in the data dir, reused across
// restarts so a client's saved header keeps working; else a new one, saved 0600. `--rotate-token`
// replaces the saved one (issue 11).
import * as path from 'node:path';
import { AppError, ErrorCode } from '../errors.ts';
import type { RuntimeFs } from '../runtime/types.ts';

export const TOKEN_FILE = 'http-token';
export const MIN_TOKEN_LENGTH = 16;

export interface TokenSources {
  fs: RuntimeFs;
  env: (name: string) => string | undefined;
  dataDir: string;
  rotate: boolean;
}

export interface ResolvedToken {
  token: string;
  /** `env`: CTXGATE_TOKEN; `saved`: read back from `file`; `new`/`rotated`: generated and written to `file`. */
  source: 'env' | 'saved' | 'new' | 'rotated';
  file?: string;
  /** Why the saved file could not be trusted, when a new token replaced it. */
  untrusted?: string;
}

export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The saved token, or why it cannot be used (undefined reason and token: there is no file). */
function readSaved(fs: RuntimeFs, file: string): { token?: string; problem?: string } {
  const stat = fs.lstatSync(file);
  if (!stat) return {};
  if (!stat.isFile) return { problem: `${file} is not a regular file` };
  if ((stat.mode & 0o077) !== 0) return { problem: `${file} was readable by others (mode ${(stat.mode & 0o777).toString(8)})` };
  const token = fs.readTextFileSync(file).trim();
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) return { problem: `${file} does not hold a token of at least ${MIN_TOKEN_LENGTH} characters` };
  return { token };
}

export function resolveToken(sources: TokenSources): ResolvedToken {
  const fromEnv = sources.env('CTXGATE_TOKEN');
  if (fromEnv !== undefined) {
    if (sources.rotate) {
      throw new AppError(ErrorCode.Usage, '--rotate-token replaces the saved token, but CTXGATE_TOKEN is set and takes precedence', {
        hint: 'change CTXGATE_TOKEN yourself, or unset it to use (and rotate) the saved token',
      });
    }
    if (fromEnv.length < MIN_TOKEN_LENGTH) {
      throw new AppError(ErrorCode.Config, `CTXGATE_TOKEN is shorter than ${MIN_TOKEN_LENGTH} characters`, { hint: 'use a long random value, e.g. from `openssl rand -hex 32`' });
    }
    return { token: fromEnv, source: 'env' };
  }
  const file = path.join(sources.dataDir, TOKEN_FILE);
  const saved = readSaved(sources.fs, file);
  if (saved.token && !sources.rotate) return { token: saved.token, source: 'saved', file };
  const token = generateToken();
  sources.fs.writeFileAtomicSync(file, `${token}\n`, 0o600);
  if (sources.rotate) return { token, source: 'rotated', file };
  return { token, source: 'new', file, ...(saved.problem ? { untrusted: saved.problem } : {}) };
}
