#!/usr/bin/env bash
# Two builds of `podlens` side by side over one catalog: the before and after of a
# change, measured in one session on the same machine. run.sh's podcast and episode
# search bodies, and its episode bodies again without a sort order (relevance: hybrid on
# an index with vectors), and the related podcasts of 50 podcasts (also at one
# connection). Two rounds; in each, each build in turn serves the catalog,
# is warmed up for 10 s (a fresh server's first searches read its mapped files), then
# wrk at CONNECTIONS per line (common.sh's run, table.py's table): requests/s, latency
# and server CPU per request. Then both
# serve at once and the same bodies go to one and the other in turn, one request at a
# time: the medians of the client's time, the engine's own (`totalSearchTimeMs`) and the
# stored fields and hits (`totalPostProcessingTimeMs`).
#
# Usage: benches/api/compare.sh BEFORE_BIN AFTER_BIN [PODCASTS] [SECONDS] [CONNECTIONS]
#   BENCH_DATA_DIR as for run.sh (the catalog is built by BEFORE_BIN when missing).
set -euo pipefail
before="$1"
after="$2"
shift 2
PODLENS_BIN="$before"
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
kill "$server"
wait "$server" 2>/dev/null || true
relevance_episodes="$(mktemp)"
logs=("$(mktemp)" "$(mktemp)")
temporary_files+=("$relevance_episodes" "${logs[@]}")
grep -v '"sortOrder"' "$bodies_episodes" >"$relevance_episodes"
related_paths=""
for id in $ids; do
  related_paths+="/api/v1/podcasts/$id/related-podcasts "
done

echo "catalog: $counts ($data)"
echo "before: $before"
echo "after: $after"
echo "wrk: 2 threads, $connections connections, ${seconds}s per line after 10 s of warm-up; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg)"
echo
for round in 1 2; do
  for build in before after; do
    bin="$before"
    [[ "$build" == after ]] && bin="$after"
    serve "$bin" "${logs[0]}"
    seconds=10 results=/dev/null run warm-up /api/v1/search/episodes "$bodies_episodes"
    run "round $round, $build: podcasts" /api/v1/search/podcasts "$bodies_podcasts"
    run "round $round, $build: episodes" /api/v1/search/episodes "$bodies_episodes"
    run "round $round, $build: episodes, relevance" /api/v1/search/episodes "$relevance_episodes"
    run "round $round, $build: related podcasts" "$related_paths" ""
    connections=1 run "round $round, $build: related podcasts, one connection" "$related_paths" ""
    stop_servers
  done
done
python3 "$here/table.py" "$results" "$(getconf CLK_TCK)"

echo
serve "$before" "${logs[0]}"
url_before="$base"
serve "$after" "${logs[1]}"
url_after="$base"
PYTHONPATH="$here" python3 - "$url_before" "$url_after" "$key" "$bodies_podcasts" "$bodies_episodes" "$relevance_episodes" <<'PY'
"""One request at a time, the two servers in turn (alternate.py)."""
import statistics, sys
from alternate import alternate

urls, key, files = sys.argv[1:3], sys.argv[3], sys.argv[4:7]
print("| one connection, medians | client before | client after | engine before | engine after | stored fields and hits before | after |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, path, file in (("podcasts", "/api/v1/search/podcasts", files[0]),
                         ("episodes", "/api/v1/search/episodes", files[1]),
                         ("episodes, relevance", "/api/v1/search/episodes", files[2])):
    requests = [(path, line.strip()) for line in open(file) if line.strip()]
    seen = [([], [], []), ([], [], [])]
    for _, which, elapsed, times in alternate(urls, key, requests, 20):
        seen[which][0].append(elapsed)
        seen[which][1].append(times["totalSearchTimeMs"])
        seen[which][2].append(times["totalPostProcessingTimeMs"])
    m = [[statistics.median(values) for values in server] for server in seen]
    print(f"| {name} | {m[0][0]:.2f} | {m[1][0]:.2f} | {m[0][1]:.2f} | {m[1][1]:.2f} | {m[0][2]:.2f} | {m[1][2]:.2f} |")
PY
