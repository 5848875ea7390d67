#!/usr/bin/env bash
# Podlens search (keyword, and hybrid on an index with vectors) against a plain tantivy
# index, SQLite FTS5 and PostgreSQL full-text search on one generated catalog; prints
# one table and writes it into RESULTS.md.
#
#   benches/search/run.sh [DATA_DIR]        (default /tmp/podlens-search-bench)
#   EPISODES=1000000 ROUNDS=2 KEEP_DATA=0   environment, with their defaults;
#   ENGINES=podlens,hybrid,tantivy,sqlite,postgres,shows  a subset to run (default all;
#                                           shows: podcast search with the encoder)
#   SHOW_TEXT_TOKENS=24                     tokens of each show's text the encoder reads
#                                           for the shows row's show vectors
#   KINDS="two words,deep page"             a subset of the query kinds (default all)
#   PODLENS_STATIC_MODEL=DIR                the static model of the hybrid row (default
#                                           ~/.cache/podlens-models/static-mpnet-768)
#
# PostgreSQL: a throwaway cluster is initialised under DATA_DIR, listens on a unix
# socket only, and is stopped and deleted on exit. It refuses to run as root, so as root
# the cluster runs as PG_OS_USER (default podlensbench, created when missing). Without
# PostgreSQL binaries the other engines still run and the table says so.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
data_dir=$(realpath -m "${1:-/tmp/podlens-search-bench}")
export EPISODES=${EPISODES:-1000000}
export ROUNDS=${ROUNDS:-2}
export BENCH_DIR="$data_dir/engines"
results="$root/benches/search/RESULTS.md"
marker='<!-- run.sh writes everything below this line -->'

mkdir -p "$data_dir"
chmod 755 "$data_dir"
pg_data="$data_dir/pg-data"
pg_socket="$data_dir/pg-socket"
pg_port=${PG_PORT:-54329}
pg_ctl=""
pg_user=""

cleanup() {
  if [[ -n "$pg_ctl" && -f "$pg_data/postmaster.pid" ]]; then
    as_pg "$pg_ctl" -D "$pg_data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$pg_data" "$pg_socket"
  if [[ "${KEEP_DATA:-0}" != 1 ]]; then
    rm -rf "$BENCH_DIR"
  fi
}
trap cleanup EXIT

as_pg() {
  if [[ -n "$pg_user" ]]; then
    runuser -u "$pg_user" -- "$@"
  else
    "$@"
  fi
}

find_pg_bin() {
  local initdb
  initdb=$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
  [[ -n "$initdb" ]] && dirname "$(realpath "$initdb")"
}

start_postgres() {
  local bin
  bin=$(find_pg_bin) || return 1
  [[ -x "$bin/pg_ctl" ]] || return 1
  if [[ $(id -u) == 0 ]]; then
    pg_user=${PG_OS_USER:-podlensbench}
    id -u "$pg_user" >/dev/null 2>&1 ||
      useradd --system --no-create-home --shell /usr/sbin/nologin "$pg_user"
  fi
  rm -rf "$pg_data" "$pg_socket"
  mkdir -p "$pg_data" "$pg_socket"
  [[ -n "$pg_user" ]] && chown "$pg_user" "$pg_data" "$pg_socket"
  as_pg "$bin/initdb" -D "$pg_data" --auth=trust --username=bench --encoding=UTF8 \
    --locale=C --no-sync >"$data_dir/pg-initdb.log"
  pg_ctl="$bin/pg_ctl"
  # Durability off (a throwaway cluster); memory sized for the build; JIT off, as
  # short full-text queries usually run.
  as_pg "$pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w start -o "\
    -k $pg_socket -p $pg_port -c listen_addresses='' \
    -c shared_buffers=1GB -c maintenance_work_mem=1GB -c work_mem=64MB \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
    -c max_wal_size=8GB -c jit=off" >/dev/null
  export PG_CONNECTION="host=$pg_socket port=$pg_port user=bench dbname=postgres"
  echo "postgres: $("$bin/postgres" --version)" >&2
}

if [[ -n "${ENGINES:-}" && ",${ENGINES// /}," != *",postgres,"* ]]; then
  unset PG_CONNECTION
elif ! start_postgres; then
  echo "postgres: binaries not found, PostgreSQL is left out of this run" >&2
  unset PG_CONNECTION
fi

echo "building and running the benchmark (EPISODES=$EPISODES, ROUNDS=$ROUNDS) …" >&2
cd "$root"
output="$data_dir/output.txt"
started=$(date -u +%Y-%m-%dT%H:%MZ)
cargo bench -p podlens-indexer --bench search_engines 2> >(grep --line-buffered -v '^\s*\(Compiling\|Finished\|Running\|Blocking\)' >&2) | tee "$output"

{
  if [[ -f "$results" ]] && grep -qF "$marker" "$results"; then
    sed "/$(printf '%s' "$marker" | sed 's/[][\/.*^$]/\\&/g')/q" "$results"
  else
    echo "# Search engines benchmark"
    echo
    echo "Reading: (to be written after a run)"
    echo
    echo "$marker"
  fi
  echo
  echo "## Raw output"
  echo
  echo "\`EPISODES=$EPISODES ROUNDS=$ROUNDS benches/search/run.sh\`, started $started," \
    "$(git rev-parse --short HEAD), $(rustc --version | cut -d' ' -f1-2)"
  echo
  cat "$output"
} >"$results.new"
mv "$results.new" "$results"
echo "wrote $results" >&2
