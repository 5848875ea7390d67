#!/usr/bin/env bash
# Installs what the web app needs to build and test (idempotent): its npm packages
# (from web/package-lock.json, only when missing or when the lock file changed) and
# Debian's Chromium for the end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/../web"

stamp=node_modules/.package-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  npm ci --no-audit --no-fund
  echo "$want" > "$stamp"
fi

if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends chromium
fi
