#!/usr/bin/env bash
# Installs Debian's PostgreSQL server, which the application store's tests run against
# (scripts/with-postgres.sh starts a throwaway cluster on loopback). Idempotent.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-postgres: no PostgreSQL server and no apt-get; install postgresql by hand" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
# Debian starts a cluster of its own; the tests use their own on another port.
service postgresql stop >/dev/null 2>&1 || true
