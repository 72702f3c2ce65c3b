#!/usr/bin/env bash
# Installs the repository's git hooks (ctxmode spec, "Git Hooks"): commit-msg refuses a message that
# holds a secret or says nothing; pre-push refuses outgoing commits whose messages do, or whose added
# lines hold a secret. Run once after cloning: bash scripts/install-hooks.sh
set -euo pipefail
repo="$(git rev-parse --show-toplevel)"
hooks="$(git rev-parse --git-path hooks)"
case "$hooks" in /*) ;; *) hooks="$repo/$hooks" ;; esac
mkdir -p "$hooks"
for name in commit-msg pre-push; do
  chmod +x "$repo/scripts/git-hooks/$name"
  if [ -e "$hooks/$name" ] && [ "$(readlink -f "$hooks/$name")" != "$repo/scripts/git-hooks/$name" ]; then
    mv "$hooks/$name" "$hooks/$name.before-ctxgate"
    echo "kept your old $name hook as $hooks/$name.before-ctxgate"
  fi
  ln -sf "$repo/scripts/git-hooks/$name" "$hooks/$name"
  echo "installed $name -> scripts/git-hooks/$name"
done
