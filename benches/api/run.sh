#!/usr/bin/env bash
# Load benchmark of the API on loopback: a release `podlens serve` over a generated
# catalog (`podlens demo --no-serve`), driven by wrk (Debian `wrk`) with the Lua script
# beside this file. Measures the health route (the server's ceiling on this machine),
# podcast details, podcast search and episode search (a few realistic bodies each), and
# podcast search again with the keys of a limited plan (every search charged to a cap);
# prints requests/s, each as a share of the health route's rate, p50/p90/p99, the
# server's CPU time per request and every error wrk saw (non-2xx answers, socket errors,
# timeouts) as a table; then what the API adds to the engine's own time at one
# connection (overhead.py).
#
# Usage: benches/api/run.sh [PODCASTS] [SECONDS] [CONNECTIONS]
#   PODLENS_BIN      the release binary (default: built into $CARGO_TARGET_DIR/release)
#   BENCH_DATA_DIR   where the catalog is built (default /tmp/podlens-api-bench-<PODCASTS>);
#                    an existing catalog there is reused
set -euo pipefail
podcasts="${1:-2000}"
seconds="${2:-20}"
connections="${3:-16}"
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
results="$(mktemp)"
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log" "$bodies_podcasts" "$bodies_episodes" "$results"' EXIT
# One wrk run: appends "name<TAB>json" to $results.
# The server's CPU time (user + system, in clock ticks) is read before and after, so each
# line also says what one request costs the server, a figure that depends far less on
# what else the machine runs than requests/s does.
server_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
run() {
  local name="$1" paths="$2" bodies="$3" keys="${4:-$key}" line before after
  before="$(server_ticks)"
  line="$(PODLENS_KEYS="$keys" PATHS="$paths" BODIES="$bodies" BENCH_LUA_DIR="$here" \
    wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$here/load.lua" "$base" | tail -n 1)"
  after="$(server_ticks)"
  printf '%s\t%s\t%s\n' "$name" "$line" "$((after - before))" >>"$results"
}

# A limited plan's searches are charged against its cap (agency: 5,000 a month), so
# they run with keys of their own, enough for the run: 16 agency users.
agency_keys=""
for n in $(seq 16); do
  agency_keys+="$("$PODLENS_BIN" keys create --data-dir "$data" --email "bench-agency-$$-$n@podlens.local" --plan agency | tail -n 1),"
done

details_paths=""
for id in $ids; do
  details_paths+="/api/v1/podcasts/$id "
done
echo "catalog: $counts ($data)"
echo "wrk: 2 threads, $connections connections, ${seconds}s per endpoint, 10 s timeout; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); loopback"
echo
run "GET /api/v1/public/health" "/api/v1/public/health" ""
run "GET /api/v1/podcasts/{id} (50 podcasts)" "$details_paths" ""
run "POST /api/v1/search/podcasts (12 bodies)" "/api/v1/search/podcasts" "$bodies_podcasts"
run "POST /api/v1/search/episodes (12 bodies)" "/api/v1/search/episodes" "$bodies_episodes"
run "POST /api/v1/search/podcasts (12 bodies, agency plan, 16 keys)" "/api/v1/search/podcasts" "$bodies_podcasts" "$agency_keys"
python3 - "$results" "$(getconf CLK_TCK)" <<'PY'
import json, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
ticks_per_second = int(sys.argv[2])
health = json.loads(rows[0][1])["rps"]
print("| endpoint | requests | requests/s | share of health | p50 ms | p90 ms | p99 ms | server CPU ms/request | errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
failed = False
for name, line, ticks in rows:
    result = json.loads(line)
    errors = result["non_2xx"] + result["connect"] + result["read"] + result["write"] + result["timeout"]
    share = 100 * result["rps"] / health
    cpu = 1000 * int(ticks) / ticks_per_second / max(result["requests"], 1)
    print(f"| {name} | {result['requests']} | {result['rps']:.0f} | {share:.1f}% | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} | {result['p99_ms']:.1f} | {cpu:.3f} | {errors} |")
    if errors:
        print(f"errors in {name}: {result}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY

# What the API adds to the engine: the same search bodies, one connection, one request
# at a time; the client's time for each request against the engine's own time for it
# (`totalSearchTimeMs`, measured inside the server around the index query).
echo
python3 "$here/overhead.py" "$base" "$key" "$bodies_podcasts" "$bodies_episodes"
