#!/usr/bin/env bash
# Hybrid against keyword-only relevance searches through the API, side by side in one
# run: the catalog of run.sh served twice, first with its index as built (vectors: a
# relevance-sorted search fuses keyword and vector results), then with an index of the
# same snapshot built with `podlens index --no-vectors` (keyword ranking only). The same
# relevance-sorted bodies go to both (run.sh's podcast bodies, and its episode bodies
# without a sort order); wrk at 16 connections after 10 s of warm-up for each kind of
# search; the related podcasts of 50 podcasts (by their vectors, or without them by text
# and genres), at 16 connections and at one; then one request at a time
# (overhead.py) for the engine's own time and what the API adds to it.
#
# Usage: benches/api/hybrid.sh [PODCASTS] [SECONDS] [CONNECTIONS]
#   PODLENS_BIN, BENCH_DATA_DIR as for run.sh; the keyword-only copy is built beside the
#   catalog, in <catalog>-keyword (its Parquet hard-linked), and reused when present.
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
relevance_episodes="$(mktemp)"
temporary_files+=("$relevance_episodes")
grep -v '"sortOrder"' "$bodies_episodes" >"$relevance_episodes"

related_paths=""
for id in $ids; do
  related_paths+="/api/v1/podcasts/$id/related-podcasts "
done

measure() {
  local label="$1"
  # A fresh server's first searches read its mapped files from disk: 10 s of each kind
  # first, not counted.
  seconds=10 results=/dev/null run warm-up /api/v1/search/podcasts "$bodies_podcasts"
  seconds=10 results=/dev/null run warm-up /api/v1/search/episodes "$relevance_episodes"
  run "GET /api/v1/public/health ($label)" "/api/v1/public/health" ""
  run "POST /api/v1/search/podcasts, $label" "/api/v1/search/podcasts" "$bodies_podcasts"
  run "POST /api/v1/search/episodes, $label" "/api/v1/search/episodes" "$relevance_episodes"
  run "GET /api/v1/podcasts/{id}/related-podcasts (50 podcasts), $label" "$related_paths" ""
  connections=1 run "GET /api/v1/podcasts/{id}/related-podcasts (50 podcasts), one connection, $label" "$related_paths" ""
  echo "one connection, $label:" >"$results.$label"
  overhead "$bodies_podcasts" "$relevance_episodes" >>"$results.$label"
}

echo "catalog: $counts ($data)"
echo "wrk: 2 threads, $connections connections, ${seconds}s per line (the one-connection lines: 1 thread), 10 s timeout; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); loopback"
echo "bodies: $(wc -l <"$bodies_podcasts") podcast and $(wc -l <"$relevance_episodes") episode searches, all in relevance order"
echo
measure hybrid

# The same snapshot, indexed without vectors.
keyword="$data-keyword"
if [[ ! -d "$keyword/index" ]]; then
  rm -rf "$keyword"
  mkdir -p "$keyword"
  # parquet is a link to the published generation: copy the files it leads to.
  mkdir -p "$keyword/parquet" && cp -al "$data/parquet/." "$keyword/parquet/"
  "$PODLENS_BIN" index --no-vectors --data-dir "$keyword" >&2
fi
kill "$server"
wait "$server" 2>/dev/null || true
key="$("$PODLENS_BIN" keys create --data-dir "$keyword" --email "bench-$$@podlens.local" --plan admin | tail -n 1)"
start_server "$keyword" --no-poll
measure keyword-only

python3 "$here/table.py" "$results" "$(getconf CLK_TCK)"
echo
cat "$results.hybrid" "$results.keyword-only"
rm -f "$results.hybrid" "$results.keyword-only"
