// Names that announce a secret, whether of an environment variable or of a tool argument: the ctxmode
// spec's rule (token, key, secret, password, …) plus the credential names it misses (issue 11, item 6:
// MYSQL_PWD, GH_PAT, CI_JOB_JWT, SENTRY_DSN, SLACK_WEBHOOK_URL, …). One rule for env stripping and
// log redaction.

/** The spec's rule, kept as written. */
export const SENSITIVE_NAME = /token|key|secret|password|passwd|credential|auth|cookie|session/i;
/** Names the spec's rule misses: *_PWD (not PWD itself), *_PW, *_PASS, PGPASS, *_PAT, *_JWT, *_DSN, *WEBHOOK(_URL). */
const CREDENTIAL_NAME = /_PWD$|(^|_)(PASS|PW|PASSPHRASE|PAT|JWT|DSN|CREDS)$|^PGPASS$|WEBHOOK(_URL)?$/i;

export function looksSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name) || CREDENTIAL_NAME.test(name);
}
