#!/usr/bin/env bash
# Write throughput of the application store through the API: a release `podlens serve`
# over a generated catalog, once with the default store (SQLite in the data directory)
# and once with a throwaway PostgreSQL on loopback (scripts/with-postgres.sh: fsync off;
# SQLite syncs each commit, synchronous=FULL, so the two legs are not alike), driven by
# wrk (Debian `wrk`) from CONNECTIONS connections. Three kinds of write, each for
# SECONDS on each store:
#   project create         PUT /api/v1/projects, a new name each request
#   listed-podcast status  PATCH /api/v1/projects/{slug}/podcasts/{id}, 50 listed
#                          podcasts of one project moved through the statuses
#   alert create           POST /api/v1/alerts/alert-config, a new keyword each request,
#                          over the keys of 60 teams in turn (a team may have 500 alerts)
# Every request is signed in with an admin key, so each one writes. Prints one table:
# requests/s, p50/p90/p99 and every error (any fails the run).
#
# Usage: benches/app-store/run.sh [PODCASTS] [SECONDS] [CONNECTIONS]
#   PODLENS_BIN      the release binary (default: built into $CARGO_TARGET_DIR/release)
#   BENCH_DATA_DIR   where the catalog is built (default /tmp/podlens-app-store-bench-<PODCASTS>)
set -euo pipefail
podcasts="${1:-200}"
seconds="${2:-20}"
connections="${3:-16}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
export PODLENS_NO_PROGRESS=true

# The PostgreSQL leg runs under with-postgres.sh: the script runs itself there once.
if [[ -z "${PODLENS_TEST_DATABASE_URL:-}" ]]; then
  if [[ -z "${PODLENS_BIN:-}" ]]; then
    cargo build --release --locked -p podlens-tools --bin podlens --manifest-path "$root/Cargo.toml" >&2
    export PODLENS_BIN="$target/release/podlens"
  fi
  exec "$root/scripts/with-postgres.sh" "$0" "$@"
fi

catalog="${BENCH_DATA_DIR:-/tmp/podlens-app-store-bench-$podcasts}"
if [[ ! -f "$catalog/parquet/podcasts.parquet" || ! -d "$catalog/index" ]]; then
  rm -rf "$catalog"
  "$PODLENS_BIN" demo --no-serve --port 0 --podcasts "$podcasts" --data-dir "$catalog" >&2
fi

work="$(mktemp -d)"
server=""
cleanup() {
  [[ -n "$server" ]] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
results="$work/results"
: >"$results"

# One store: a data directory of its own (the catalog's snapshot and index linked, a new
# application store), a key, a server, a project of 50 listed podcasts, three wrk runs.
bench_store() {
  local store="$1" url="$2"
  local data="$work/$store" flags=() log base key line
  mkdir -p "$data"
  # parquet is a link to the published generation: the files it leads to are linked.
  for entry in parquet index; do mkdir -p "$data/$entry" && cp -al "$catalog/$entry/." "$data/$entry/"; done
  [[ -n "$url" ]] && flags=(--database-url "$url")
  key="$("$PODLENS_BIN" keys create --data-dir "$data" "${flags[@]}" --email "bench-$store@podlens.local" --plan admin | tail -n 1)"
  local alert_keys="$key" team
  for team in $(seq 2 60); do
    alert_keys+=",$("$PODLENS_BIN" keys create --data-dir "$data" "${flags[@]}" --email "bench-$store-$team@podlens.local" --plan admin | tail -n 1)"
  done
  log="$work/$store.log"
  "$PODLENS_BIN" serve --data-dir "$data" "${flags[@]}" --port 0 --no-poll >"$log" 2>&1 &
  server=$!
  for _ in $(seq 200); do grep -q "listening on" "$log" && break; sleep 0.1; done
  base="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1)"
  [[ -n "$base" ]] || { cat "$log" >&2; exit 1; }
  python3 - "$base" "$key" "$work/$store" <<'PY'
import json, sys, urllib.request
base, key, prefix = sys.argv[1:]
def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)["data"]
ids = [p["id"] for p in call("GET", "/api/v1/podcasts/latest?limit=50")["podcasts"]][:50]
project = call("PUT", "/api/v1/projects", {"name": "Status board"})
slug = (project.get("project") or project)["slug"]
listed = [call("POST", f"/api/v1/projects/{slug}/podcasts", {"podcastId": id})["listedPodcast"]["listedPodcastId"] for id in ids]
states = ["qualified", "pitched", "booked", "prospect"]
with open(prefix + ".projects", "w") as out:
    out.write('PUT /api/v1/projects {"name": "Load {n}"}\n')
with open(prefix + ".statuses", "w") as out:
    for round_ in range(len(states)):
        for i, id in enumerate(listed):
            out.write(f'PATCH /api/v1/projects/{slug}/podcasts/{id} {{"state": "{states[(round_ + i) % len(states)]}"}}\n')
with open(prefix + ".alerts", "w") as out:
    out.write('POST /api/v1/alerts/alert-config {"alertName": "Watch {n}", "alertType": "custom-keyword", "value": "keyword{n}"}\n')
PY
  local kind keys
  for kind in projects statuses alerts; do
    keys="$key"
    [[ "$kind" == alerts ]] && keys="$alert_keys"
    line="$(PODLENS_KEYS="$keys" REQUESTS="$work/$store.$kind" BENCH_LUA_DIR="$root/benches/api" \
      wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$root/benches/api/mixed.lua" "$base" | tail -n 1)"
    printf '%s\t%s\t%s\n' "$store" "$kind" "$line" >>"$results"
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
}

bench_store sqlite ""
bench_store postgresql "$PODLENS_TEST_DATABASE_URL"

python3 - "$results" "$podcasts" "$seconds" "$connections" <<'PY'
import json, sys
path, podcasts, seconds, connections = sys.argv[1:]
names = {"projects": "project create", "statuses": "listed-podcast status change", "alerts": "alert create"}
rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
print(f"{podcasts}-podcast demo catalog, {connections} connections, {seconds} s per run, admin key")
print()
print("| write | store | requests | requests/s | p50 ms | p90 ms | p99 ms | errors |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
failed = False
for store, kind, line in rows:
    result = json.loads(line)
    errors = sum(result[k] for k in ("non_2xx", "connect", "read", "write", "timeout"))
    print(f"| {names[kind]} | {store} | {result['requests']} | {result['rps']:.0f} | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} | {result['p99_ms']:.1f} | {errors} |")
    if errors:
        print(f"errors in {store} {kind}: {result}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY
