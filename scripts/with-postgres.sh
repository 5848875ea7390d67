#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on loopback:
#   scripts/with-postgres.sh cargo test -p podlens-store
# The command sees PODLENS_TEST_DATABASE_URL (a superuser URL of the cluster). initdb
# refuses root, so the cluster belongs to the `postgres` user when run as root. The
# cluster and its files are removed when the command ends.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "with-postgres: no PostgreSQL server (scripts/install-postgres.sh)" >&2; exit 1; }
dir=$(mktemp -d /tmp/podlens-pg.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"
stop() {
  as_owner "'$bin/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
as_owner "'$bin/initdb' -D '$dir/data' -A trust -U postgres" >/dev/null
start_cmd="'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start"
as_owner "$start_cmd" >/dev/null
export PODLENS_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
# `$PODLENS_TEST_POSTGRES_CONTROL stop|start` stops (fast: sessions are cut, open
# transactions roll back) or starts the cluster again, for the outage tests.
control="$dir/control"
cat > "$control" <<EOF
#!/bin/sh
as_owner() { if [ "\$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "\$1"; else sh -c "\$1"; fi; }
case "\$1" in
  stop) as_owner "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" ;;
  start) as_owner "${start_cmd//\"/\\\"}" ;;
  *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
EOF
chmod +x "$control"
export PODLENS_TEST_POSTGRES_CONTROL="$control"
"$@"
