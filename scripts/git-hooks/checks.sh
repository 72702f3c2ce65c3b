#!/usr/bin/env bash
# Shared by the commit-msg and pre-push hooks (scripts/install-hooks.sh installs them): what may not
# leave this machine in a commit. A line that carries the mark `ctxgate-allow-secret` is not checked
# (a test fixture that must look like a key says so on its own line).

ALLOW_MARK='ctxgate-allow-secret'

# name|extended regular expression (grep -E; no backtracking engine is involved)
SECRET_RULES=(
  'AWS access key|(AKIA|ASIA)[0-9A-Z]{16}'
  'GitHub token|(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})'
  'GitLab token|glpat-[A-Za-z0-9_-]{20,}'
  'Slack token|xox[abprs]-[A-Za-z0-9-]{10,}'
  'API secret key (sk-…)|sk-[A-Za-z0-9_-]{20,}'
  'Stripe live key|(sk|rk)_live_[0-9A-Za-z]{24,}'
  'Google API key|AIza[0-9A-Za-z_-]{35}'
  'npm token|npm_[A-Za-z0-9]{36}'
  'private key block|-----BEGIN ([A-Z0-9]+ )?PRIVATE KEY-----'
  'JSON web token|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}'
)
# Case-insensitive: a password, secret, token or API key written out as a value.
ASSIGNMENT_RULE='(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)["'"'"']?[[:space:]]*[:=][[:space:]]*["'"'"'][^"'"'"'[:space:]]{12,}["'"'"']'

# Reads text on stdin; prints the name of every rule it breaks (never the secret itself).
secret_rules_broken() {
  local text
  text="$(grep -v -F -- "$ALLOW_MARK" || true)"
  [ -z "$text" ] && return 0
  local rule
  for rule in "${SECRET_RULES[@]}"; do
    if printf '%s\n' "$text" | LC_ALL=C grep -E -q -- "${rule#*|}"; then printf '%s\n' "${rule%%|*}"; fi
  done
  if printf '%s\n' "$text" | LC_ALL=C grep -E -i -q -- "$ASSIGNMENT_RULE"; then printf '%s\n' 'password/secret/token assignment'; fi
}

# Subjects that say nothing about the change.
NOISE_SUBJECT='^[[:space:]]*(wip|tmp|temp|test|tests|update|updates|changes|stuff|misc|fix|fixes|asdf|foo|[.]+)[[:space:]]*[.!]?[[:space:]]*$'

# Reads a commit message on stdin (comment lines already dropped); prints what is wrong with it.
message_problems() {
  local message subject
  message="$(cat)"
  subject="$(printf '%s\n' "$message" | grep -v '^[[:space:]]*$' | head -n 1)"
  if printf '%s\n' "$subject" | LC_ALL=C grep -E -i -q -- "$NOISE_SUBJECT"; then
    printf 'the subject "%s" says nothing about the change\n' "$subject"
  fi
  printf '%s\n' "$message" | secret_rules_broken | sed 's/^/the message holds a secret: /'
}
