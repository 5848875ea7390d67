#!/usr/bin/env bash
# Side by side: `podlens ingest` (feeds + transcripts over loopback HTTP) with two builds,
# e.g. before and after a change to how the ingest store commits:
#   benches/ingest/store_batching.sh OLD_PODLENS NEW_PODLENS [PODCASTS] [CORPUS_DIR]
# The corpus is generated once (`podlens generate --base-url`) and served by Python's
# threading http.server; the local OPML file lists the feeds' HTTP URLs, so every feed and
# transcript is fetched over HTTP. Each build ingests it into a fresh data directory under
# /usr/bin/time -v. Prints wall time, CPU time and peak RSS per build.
set -euo pipefail
old="$1"
new="$2"
podcasts="${3:-500}"
corpus="${4:-/tmp/podlens-batching-corpus}"
port="${PORT:-8930}"
base_url="http://127.0.0.1:$port"
if [ ! -f "$corpus/feeds.opml" ] || ! grep -q "$base_url/" "$corpus/feeds.opml"; then
  rm -rf "$corpus"
  "$new" --no-progress generate --podcasts "$podcasts" --seed 7 --out "$corpus" --base-url "$base_url" >/dev/null
fi
(cd "$corpus" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
data="$(mktemp -d /tmp/podlens-batching-XXXXXX)"
trap 'kill "$server" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "$base_url/feeds.opml" && break; sleep 0.1; done
echo "corpus: $(grep -c 'xmlUrl' "$corpus/feeds.opml") feeds, $(find "$corpus/transcripts" -type f | wc -l) transcripts; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for build in old new; do
  binary="${!build}"
  rm -rf "$data/$build"
  # The corpus is on loopback: --allow-private (INGEST_FLAGS= for builds older than
  # the address guard, which do not know the flag).
  # shellcheck disable=SC2086
  /usr/bin/time -v "$binary" --no-progress ingest ${INGEST_FLAGS---allow-private} --data-dir "$data/$build" "$corpus/feeds.opml" \
    > "$data/$build.out" 2> "$data/$build.time"
  summary="$(grep -E ' feeds in ' "$data/$build.out" | tail -n 1 || true)"
  wall="$(grep 'Elapsed (wall' "$data/$build.time" | awk '{print $NF}')"
  user="$(grep 'User time' "$data/$build.time" | awk '{print $NF}')"
  sys="$(grep 'System time' "$data/$build.time" | awk '{print $NF}')"
  rss="$(grep 'Maximum resident' "$data/$build.time" | awk '{print $NF}')"
  echo "$build: wall $wall, user ${user}s, system ${sys}s, peak RSS $((rss / 1024)) MB; $summary"
done
