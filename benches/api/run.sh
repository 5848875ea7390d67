#!/usr/bin/env bash
# Load benchmark of the API on loopback: a release `podlens serve` over a generated
# catalog (`podlens demo --no-serve`), driven by wrk (Debian `wrk`) with the Lua script
# beside this file. Measures podcast search, episode search (a few realistic bodies
# each) and podcast details; prints requests/s, p50/p90/p99 and every
# error wrk saw (non-2xx answers, connect/read/write errors, timeouts) as a table.
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
run() {
  local name="$1" paths="$2" bodies="$3"
  local line
  line="$(PODLENS_KEY="$key" PATHS="$paths" BODIES="$bodies" BENCH_LUA_DIR="$here" \
    wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$here/load.lua" "$base" | tail -n 1)"
  python3 - "$name" "$line" <<'PY'
import json, sys
name, result = sys.argv[1], json.loads(sys.argv[2])
errors = result["non_2xx"] + result["connect"] + result["read"] + result["write"] + result["timeout"]
print(f"| {name} | {result['requests']} | {result['rps']:.0f} | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} | {result['p99_ms']:.1f} | {errors} |")
if errors:
    print(f"errors in {name}: {result}", file=sys.stderr)
    sys.exit(1)
PY
}

details_paths=""
for id in $ids; do
  details_paths+="/api/v1/podcasts/$id "
done
echo "catalog: $counts ($data)"
echo "wrk: 2 threads, $connections connections, ${seconds}s per endpoint, 10 s timeout; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); loopback"
echo
echo "| endpoint | requests | requests/s | p50 ms | p90 ms | p99 ms | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|"
run "GET /api/v1/podcasts/{id} (50 podcasts)" "$details_paths" ""
run "POST /api/v1/search/podcasts (12 bodies)" "/api/v1/search/podcasts" "$bodies_podcasts"
run "POST /api/v1/search/episodes (12 bodies)" "/api/v1/search/episodes" "$bodies_episodes"
