#!/usr/bin/env bash
# Load benchmark of the API on loopback: a release `podlens serve` over a generated
# catalog (`podlens demo --no-serve`), driven by wrk (Debian `wrk`) with the Lua script
# beside this file. Measures the health route (the server's ceiling on this machine),
# podcast details, podcast search and episode search (a few realistic bodies each;
# episode search again gzip-compressed, as the Python SDK's client asks for it), and
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
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
# A limited plan's searches are charged against its cap (agency: 5,000 a month), so
# they run with keys of their own, enough for the run to stay well under the cap: 32
# agency users (at 3,500 searches/s for 20 s, about 2,200 each). Near their cap, users
# are granted ever smaller blocks, the last uses one at a time, each a wait on the store
# that shows in p99: the end of a window, not the steady state this line measures.
agency_keys=""
for n in $(seq 32); do
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
# What the Python SDK's client (httpx) asks for: its answers come gzip-compressed.
run "POST /api/v1/search/episodes (12 bodies, Accept-Encoding: gzip, deflate)" "/api/v1/search/episodes" "$bodies_episodes" "$key" "gzip, deflate"
run "POST /api/v1/search/podcasts (12 bodies, agency plan, 32 keys)" "/api/v1/search/podcasts" "$bodies_podcasts" "$agency_keys"
python3 "$here/table.py" "$results" "$(getconf CLK_TCK)"

# What the API adds to the engine: the same search bodies, one connection, one request
# at a time; the client's time for each request against the engine's own time for it
# (`totalSearchTimeMs`, measured inside the server around the index query).
echo
overhead "$bodies_podcasts" "$bodies_episodes"
