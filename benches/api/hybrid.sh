#!/usr/bin/env bash
# Hybrid against keyword-only relevance searches through the API, side by side in one
# run: the catalog of run.sh served twice, first with its index as built (vectors: a
# relevance-sorted search fuses keyword and vector results), then with an index of the
# same snapshot built with `podlens index --no-vectors` (keyword ranking only). The same
# relevance-sorted bodies go to both (run.sh's podcast bodies, and its episode bodies
# without a sort order); wrk at 16 connections, then one request at a time
# (overhead.py) for the engine's own time and what the API adds to it.
#
# Usage: benches/api/hybrid.sh [PODCASTS] [SECONDS] [CONNECTIONS]
#   PODLENS_BIN, BENCH_DATA_DIR as for run.sh; the keyword-only copy is built beside the
#   catalog, in <catalog>-keyword (its Parquet hard-linked), and reused when present.
set -euo pipefail
podcasts="${1:-2000}"
seconds="${2:-20}"
connections="${3:-16}"
source "$(cd "$(dirname "$0")" && pwd)/common.sh"
results="$(mktemp)"
relevance_episodes="$(mktemp)"
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log" "$bodies_podcasts" "$bodies_episodes" "$relevance_episodes" "$results"' EXIT
grep -v '"sortOrder"' "$bodies_episodes" >"$relevance_episodes"

server_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
run() {
  local name="$1" path="$2" bodies="$3" line before after
  before="$(server_ticks)"
  line="$(PODLENS_KEYS="$key" PATHS="$path" BODIES="$bodies" BENCH_LUA_DIR="$here" \
    wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$here/load.lua" "$base" | tail -n 1)"
  after="$(server_ticks)"
  printf '%s\t%s\t%s\n' "$name" "$line" "$((after - before))" >>"$results"
}
measure() {
  local label="$1"
  run "GET /api/v1/public/health ($label)" "/api/v1/public/health" ""
  run "POST /api/v1/search/podcasts, $label" "/api/v1/search/podcasts" "$bodies_podcasts"
  run "POST /api/v1/search/episodes, $label" "/api/v1/search/episodes" "$relevance_episodes"
  echo "one connection, $label:" >"$results.$label"
  python3 "$here/overhead.py" "$base" "$key" "$bodies_podcasts" "$relevance_episodes" >>"$results.$label"
}

echo "catalog: $counts ($data)"
echo "wrk: 2 threads, $connections connections, ${seconds}s per line, 10 s timeout; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); loopback"
echo "bodies: $(wc -l <"$bodies_podcasts") podcast and $(wc -l <"$relevance_episodes") episode searches, all in relevance order"
echo
measure hybrid

# The same snapshot, indexed without vectors.
keyword="$data-keyword"
if [[ ! -d "$keyword/index" ]]; then
  rm -rf "$keyword"
  mkdir -p "$keyword"
  cp -al "$data/parquet" "$keyword/parquet"
  "$PODLENS_BIN" index --no-vectors --data-dir "$keyword" >&2
fi
kill "$server"
wait "$server" 2>/dev/null || true
key="$("$PODLENS_BIN" keys create --data-dir "$keyword" --email "bench-$$@podlens.local" --plan admin | tail -n 1)"
"$PODLENS_BIN" serve --data-dir "$keyword" --port 0 --no-poll >"$log" 2>/dev/null &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
base="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1)"
measure keyword-only

python3 - "$results" "$(getconf CLK_TCK)" <<'PY'
import json, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
ticks_per_second = int(sys.argv[2])
print("| endpoint | requests | requests/s | share of health | p50 ms | p90 ms | p99 ms | server CPU ms/request | errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
failed = False
health = None
for name, line, ticks in rows:
    result = json.loads(line)
    if name.startswith("GET /api/v1/public/health"):
        health = result["rps"]
    errors = result["non_2xx"] + result["connect"] + result["read"] + result["write"] + result["timeout"]
    cpu = 1000 * int(ticks) / ticks_per_second / max(result["requests"], 1)
    print(f"| {name} | {result['requests']} | {result['rps']:.0f} | {100 * result['rps'] / health:.1f}% | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} | {result['p99_ms']:.1f} | {cpu:.3f} | {errors} |")
    if errors:
        print(f"errors in {name}: {result}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY
echo
cat "$results.hybrid" "$results.keyword-only"
rm -f "$results.hybrid" "$results.keyword-only"
