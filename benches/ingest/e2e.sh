#!/usr/bin/env bash
# End-to-end `podlens ingest` of a generated corpus over local HTTP, release build:
# generates PODCASTS podcasts (seed 1) served from loopback by the `serve_dir` example
# (axum + ServeDir, one thread), then times `podlens ingest` of the corpus's OPML
# into a fresh data directory, then a second pass that re-polls the catalog
# (conditional GET). Prints wall time and peak RSS (/usr/bin/time -v) of each.
# Feeds only by default (--no-transcripts); TRANSCRIPTS=1 also fetches and stores the
# ~50k transcripts the feeds link to (1.4 GB of text; needs several GB of disk).
# Usage: [TRANSCRIPTS=1] [PER_HOST=4] benches/ingest/e2e.sh [PODCASTS] [CORPUS_DIR]
set -euo pipefail
podcasts="${1:-10000}"
corpus="${2:-/tmp/gen10k}"
port="${PORT:-8917}"
# Requests to one host at once. Every generated feed is served by the one loopback
# host, where real feeds come from thousands: PER_HOST=64 lets all 64 feeds in flight
# go to it, as they would to 64 different hosts; the default is `podlens ingest`'s own.
per_host="${PER_HOST:-4}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"
podlens="$target/release/podlens"
server="$target/release/examples/serve_dir"
if [ ! -x "$podlens" ] || [ ! -x "$server" ]; then
  cargo build --release --locked --manifest-path "$root/Cargo.toml" \
    -p podlens-tools --bin podlens -p podlens-ingest --example serve_dir --example parse_corpus >&2
fi
base_url="http://127.0.0.1:$port"
if [ ! -f "$corpus/feeds.opml" ] || ! grep -q "$base_url/" "$corpus/feeds.opml"; then
  "$podlens" --no-progress generate --podcasts "$podcasts" --seed 1 --out "$corpus" --base-url "$base_url"
fi
echo "corpus: $(grep -c '<outline.*xmlUrl' "$corpus/feeds.opml") feeds in $corpus/feeds.opml," \
  "$(du -sh "$corpus/feeds" | cut -f1) of feeds"
echo "machine before the run: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
transcripts=(--no-transcripts)
[ "${TRANSCRIPTS:-0}" = 1 ] && transcripts=()

"$server" "$corpus" "$port" 1 &
server_pid=$!
data="$(mktemp -d /tmp/podlens-e2e-XXXXXX)"
trap 'kill "$server_pid" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do
  curl -sf -o /dev/null "$base_url/feeds.opml" && break
  sleep 0.1
done

measure() {
  local label="$1"
  shift
  echo
  echo "== $label"
  echo "\$ podlens $*"
  /usr/bin/time -v "$podlens" --no-progress --data-dir "$data" "$@" 2> "$data/time.log"
  grep -E "Elapsed \(wall|Maximum resident|User time|System time|Percent of CPU" "$data/time.log" | sed 's/^\s*/  /'
}

measure "first ingest: every feed of the OPML" ingest --allow-private --per-host "$per_host" "${transcripts[@]}" "$corpus/feeds.opml"
measure "re-poll: every feed of the catalog again (conditional GET)" ingest --allow-private --per-host "$per_host" "${transcripts[@]}"
echo
echo "catalog: $(du -sh "$data/catalog.duckdb" 2>/dev/null | cut -f1) duckdb, $(du -sh "$data/parquet" | cut -f1) parquet"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
