#!/usr/bin/env bash
# A search through a cluster's root against the same search on one node, over one
# generated catalog (about 1M episodes by default), through the API over HTTP with one
# client; and the per-node figures docs/scale.md extrapolates from. Writes RESULTS.md.
#
#   benches/cluster/run.sh [WORK_DIR]          (default /tmp/podlens-cluster-bench)
#   PODCASTS=20500 SHARDS="2 4 8" QUERIES=300  environment, with their defaults
#   PODLENS_BIN=…                              default: a release build made here
#
# For each shard count K: `podlens index --shards K --statistics --no-vectors` over the
# catalog; then (a) one node, `podlens serve`, holding all K shards; (b) a root,
# `podlens serve --search-nodes A,B`, over two search nodes (`podlens search-node
# --shards …`) holding half of the shards each, on loopback. The same queries, in the
# same order, one at a time, go to (a) then (b), in two alternating passes; measure.py
# checks that both answer the same hits and reports p50/p99 and the ratio. Keyword
# search only: the vectors' steps cross the same seam and are not measured here.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(realpath -m "${1:-/tmp/podlens-cluster-bench}")"
podcasts="${PODCASTS:-20500}"
shard_counts="${SHARDS:-2 4 8}"
export QUERIES="${QUERIES:-300}"
export PODLENS_NO_PROGRESS=true
if [[ -z "${PODLENS_BIN:-}" ]]; then
  cargo build --release --locked -p podlens-tools --bin podlens --manifest-path "$root/Cargo.toml" >&2
  PODLENS_BIN="${CARGO_TARGET_DIR:-$root/target}/release/podlens"
fi
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
mkdir -p "$work"
pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap stop_all EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# `start NAME ARGS…`: podlens ARGS…, logging to $work/logs/NAME.log; waits for its
# listening line (a large catalog takes a while to open).
start() {
  local name="$1"
  shift
  "$PODLENS_BIN" "$@" >"$work/logs/$name.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 1200); do
    grep -q "listening on" "$work/logs/$name.log" && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name did not start: $(tail -n 3 "$work/logs/$name.log")" >&2
  exit 1
}
mkdir -p "$work/logs"

data="$work/data"
if [[ ! -f "$data/parquet/episodes.parquet" ]]; then
  rm -rf "$data" "$work/corpus-server"
  port=$(free_port)
  started=$(date +%s)
  "$PODLENS_BIN" generate --podcasts "$podcasts" --seed 42 --transcript-share 0.02 --chart-days 1 \
    --base-url "http://127.0.0.1:$port/demo-corpus" --out "$data/demo-corpus" >&2
  mkdir -p "$work/corpus-server"
  ln -s "$data/demo-corpus" "$work/corpus-server/demo-corpus"
  start corpus serve --data-dir "$work/corpus-server" --port "$port" --no-poll
  "$PODLENS_BIN" ingest "$data/demo-corpus/feeds.opml" --allow-private --concurrency 32 \
    --per-host 32 --data-dir "$data" >&2
  stop_all
  echo "catalog: $(( $(date +%s) - started )) s" >"$work/catalog.txt"
  rm -rf "$data/demo-corpus/feeds" "$data/demo-corpus/transcripts" "$data/demo-corpus/sites"
fi

: >"$work/runs.jsonl"
for shards in $shard_counts; do
  started=$(date +%s.%N)
  "$PODLENS_BIN" index --shards "$shards" --statistics --no-vectors --data-dir "$data" >&2
  build_seconds=$(python3 -c "import time; print(round(time.time() - $started, 1))")
  key=$("$PODLENS_BIN" keys create --email "bench-$shards@podlens.local" --plan admin \
    --data-dir "$data" | tail -n 1 | tr -d '[:space:]')

  single_port=$(free_port)
  start "single-$shards" serve --data-dir "$data" --port "$single_port" --no-poll
  single_pid="${pids[-1]}"
  half=$(( (shards + 1) / 2 ))
  first=$(seq -s, 0 $((half - 1)))
  second=$(seq -s, "$half" $((shards - 1)))
  node_urls=()
  node_pids=()
  for list in "$first" "$second"; do
    port=$(free_port)
    start "node-$shards-$port" search-node --data-dir "$data" --port "$port" \
      --shards "$list" --cluster-token "$token"
    node_urls+=("http://127.0.0.1:$port")
    node_pids+=("${pids[-1]}")
  done
  root_port=$(free_port)
  start "root-$shards" serve --data-dir "$data" --port "$root_port" --no-poll \
    --search-nodes "$(IFS=,; echo "${node_urls[*]}")" --cluster-token "$token"
  root_pid="${pids[-1]}"
  SHARDS_NOW="$shards" BUILD_SECONDS="$build_seconds" KEY="$key" DATA="$data" \
    SINGLE="http://127.0.0.1:$single_port" ROOT_URL="http://127.0.0.1:$root_port" \
    SINGLE_PID="$single_pid" ROOT_PID="$root_pid" NODE_PIDS="${node_pids[*]}" \
    PODLENS_BIN="$PODLENS_BIN" python3 "$root/benches/cluster/measure.py" >>"$work/runs.jsonl"
  stop_all
done
python3 "$root/benches/cluster/measure.py" --report "$work/runs.jsonl" "$work/catalog.txt" \
  "$root/benches/cluster/RESULTS.md"
