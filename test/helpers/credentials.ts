// Credentials from issue 11, item 6 that the ctxmode spec's name rule lets through: by name (the
// first seven) or only by value (the rest).
export const CREDENTIALS: Record<string, string> = {
  DATABASE_URL: 'postgres://u:pw@h/db',
  MYSQL_PWD: 'hunter2',
  GH_PAT: 'github_pat_11AAAA',
  DOCKER_PASS: 'dockerpw',
  CI_JOB_JWT: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2lnbmF0dXJl',
  SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/42',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
  // Names that say nothing; the value gives them away.
  MIRROR: 'https://deploy:s3cret@pypi.example.com/simple',
  CLONE_FROM: 'https://ghp_abcdef@github.com/o/r.git',
  SIGNING: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
  ID_HEADER: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc',
  ALERTS: 'https://discord.com/api/webhooks/123/abc',
  TEAMS: 'https://contoso.webhook.office.com/webhookb2/x',
};
