// Child environments (ctxmode spec, "Subprocess environment isolation"): inherited variables whose
// NAME looks sensitive are stripped unless allowlisted; caller overrides are validated and replace
// inherited keys; CTXGATE_ENV_PASSTHROUGH=1 / CTXMODE_ENV_PASSTHROUGH=1 in the server's own
// environment turns stripping off. Beyond the spec's name rule (issue 11, item 6): more credential
// names (MYSQL_PWD, GH_PAT, CI_JOB_JWT, SENTRY_DSN, …) and credential-shaped values (DATABASE_URL
// with a password, private keys, JWTs, webhook URLs) are stripped too; CTXGATE_ENV_PASSTHROUGH may
// instead name the variables to keep (`DATABASE_URL,SENTRY_DSN`).
import { AppError, ErrorCode } from '../errors.ts';
import type { Runtime } from '../runtime/types.ts';
import { credentialInValue } from '../security/secret-values.ts';
import { looksSensitiveName } from '../security/sensitive-names.ts';


/** Kept even though their names match the pattern: they carry no secret. */
export const ENV_ALLOWLIST: ReadonlySet<string> = new Set([
  'TOKENIZERS_PARALLELISM',
  'KEYTIMEOUT',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
]);

/** Names a caller may not set: they change what runs or how it loads. */
const FORBIDDEN_OVERRIDE = /^(PATH|HOME|SHELL|USER|LOGNAME|IFS|ENV|BASH_ENV|BASH_FUNC_.*|PS4|PROMPT_COMMAND|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|LD_.*|DYLD_.*|GIT_.*|CTXGATE_.*|CTXMODE_.*)$/;

/** `true` when stripping is off ("1"), else the names the user keeps (comma-separated list). */
export function envPassthrough(runtime: Runtime): true | ReadonlySet<string> {
  const keep = new Set<string>();
  for (const name of ['CTXGATE_ENV_PASSTHROUGH', 'CTXMODE_ENV_PASSTHROUGH']) {
    const value = runtime.env.get(name)?.trim();
    if (value === '1') return true;
    for (const key of value?.split(',') ?? []) if (key.trim()) keep.add(key.trim());
  }
  return keep;
}

/** Whether an inherited variable is removed from a child's environment. */
export function isSensitiveEnv(key: string, value: string): boolean {
  if (ENV_ALLOWLIST.has(key)) return false;
  return looksSensitiveName(key) || credentialInValue(value) !== undefined;
}

/** Validates caller-provided variables; throws naming the first refused key. */
export function validateEnvOverrides(env: Record<string, string>): void {
  for (const key of Object.keys(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new AppError(ErrorCode.InvalidArgument, `env key '${key}' is not a valid variable name`, { hint: 'use letters, digits and _ only' });
    }
    if (FORBIDDEN_OVERRIDE.test(key)) {
      throw new AppError(ErrorCode.InvalidArgument, `env key '${key}' may not be set by a tool call`, {
        hint: 'PATH, HOME, SHELL, LD_*, DYLD_*, interpreter start-up hooks and GIT_* are fixed by the server',
      });
    }
    if (env[key]?.includes('\0')) throw new AppError(ErrorCode.InvalidArgument, `env value of '${key}' contains a NUL byte`);
  }
}

/** The environment a child starts from: sanitized inherited variables, then the overrides. */
export function childEnv(runtime: Runtime, overrides: Record<string, string> = {}): Record<string, string> {
  const passthrough = envPassthrough(runtime);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(runtime.env.toObject())) {
    if (passthrough === true || passthrough.has(key) || !isSensitiveEnv(key, value)) env[key] = value;
  }
  for (const [key, value] of Object.entries(overrides)) env[key] = value;
  return env;
}
