#!/usr/bin/env bash
# Mixed load on the API for SECONDS per phase (default 60): podcast searches, episode
# searches, podcast pages and writes (new projects, one request in ten) from 16
# connections, in three phases: quiet; while `podlens index` builds and publishes new
# index generations one after another; while `podlens ingest` re-polls every feed of the
# catalog (the demo corpus served again on its original loopback port, every feed
# touched so that each is fetched, parsed and stored again, then the snapshot
# republished). Prints one table: requests/s, p50/p90/p99, errors (any fails the run),
# the server's resident memory at the start and end of each phase and its peak, and what
# the background job did. Same catalog and binary as run.sh (see common.sh).
#
# Usage: benches/api/mixed.sh [PODCASTS] [SECONDS] [CONNECTIONS]
set -euo pipefail
default_seconds=60
source "$(cd "$(dirname "$0")" && pwd)/common.sh"

requests="$(mktemp)"
rss_log="$(mktemp)"
temporary_files+=("$requests" "$rss_log")
feed_server=""
cleanup() {
  [[ -n "$feed_server" ]] && kill "$feed_server" 2>/dev/null || true
  on_exit
  wait 2>/dev/null || true
}
trap cleanup EXIT

# 20 requests per round: 8 podcast searches, 6 episode searches, 4 podcast pages and
# 2 project creations (names unique per thread and request).
python3 - "$requests" "$bodies_podcasts" "$bodies_episodes" $ids <<'PY'
import sys
out, podcasts_file, episodes_file, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
podcast_bodies = [l.strip() for l in open(podcasts_file) if l.strip()]
episode_bodies = [l.strip() for l in open(episodes_file) if l.strip()]
with open(out, "w") as f:
    for round_ in range(12):
        lines = [f"POST /api/v1/search/podcasts {podcast_bodies[(round_ + i) % len(podcast_bodies)]}" for i in range(8)]
        lines += [f"POST /api/v1/search/episodes {episode_bodies[(round_ + i) % len(episode_bodies)]}" for i in range(6)]
        lines += [f"GET /api/v1/podcasts/{ids[(round_ * 4 + i) % len(ids)]}" for i in range(4)]
        lines += ['PUT /api/v1/projects {"name": "Load {n}"}'] * 2
        # Interleave writes among reads.
        order = [0, 8, 14, 1, 9, 18, 2, 10, 15, 3, 11, 4, 12, 16, 5, 13, 19, 6, 17, 7]
        f.write("\n".join(lines[i] for i in order) + "\n")
PY

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }

# One phase: wrk for $seconds while RSS is sampled every second; prints the table row.
phase() {
  local name="$1" note="$2" line
  : >"$rss_log"
  (while kill -0 "$server" 2>/dev/null; do rss_kb >>"$rss_log"; sleep 1; done) &
  local sampler=$!
  line="$(PODLENS_KEY="$key" REQUESTS="$requests" BENCH_LUA_DIR="$here" \
    wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$here/mixed.lua" "$base" | tail -n 1)"
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  python3 - "$name" "$line" "$rss_log" "$note" <<'PY'
import json, sys
name, result, rss_file, note = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
rss = [int(x) / 1024 for x in open(rss_file).read().split()]
errors = result["non_2xx"] + result["connect"] + result["read"] + result["write"] + result["timeout"]
print(f"| {name} | {result['requests']} | {result['rps']:.0f} | {result['p50_ms']:.1f} | {result['p90_ms']:.1f} "
      f"| {result['p99_ms']:.1f} | {errors} | {rss[0]:.0f} → {rss[-1]:.0f} (peak {max(rss):.0f}) | {note} |")
if errors:
    print(f"errors in {name}: {result}", file=sys.stderr)
    sys.exit(1)
PY
}

echo "catalog: $counts ($data)"
echo "wrk: 2 threads, $connections connections, ${seconds}s per phase, 10 s timeout; $(nproc) cores, load average before the run: $(cut -d" " -f1 /proc/loadavg); loopback"
echo "mix per 20 requests: 8 POST /api/v1/search/podcasts, 6 POST /api/v1/search/episodes, 4 GET /api/v1/podcasts/{id}, 2 PUT /api/v1/projects"
echo
echo "| phase | requests | requests/s | p50 ms | p90 ms | p99 ms | errors | server RSS MB | background |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---|"
phase "quiet" "—"

# While indexes are rebuilt and published, one after another.
published=0
(
  end=$((SECONDS + seconds))
  while ((SECONDS < end)); do
    "$PODLENS_BIN" --no-progress index --data-dir "$data" >/dev/null 2>&1 && echo ok
  done
) >"$rss_log.index" &
indexer=$!
phase "while index generations publish" "see below" >"$rss_log.row"
wait "$indexer" || true
published="$(grep -c ok "$rss_log.index" || true)"
sed "s/| see below |/| $published generations published |/" "$rss_log.row"
rm -f "$rss_log.index" "$rss_log.row"

# While ingest re-polls every feed: the corpus served again where the feeds say it is.
port="$(grep -m1 -o 'http://127.0.0.1:[0-9]*' "$data/demo-corpus/feeds.opml" | head -n 1 | cut -d: -f3)"
find "$data/demo-corpus" -name '*.xml' -exec touch {} +
# (The feeds' URLs are under /demo-corpus/: serve the data directory.)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$data" >/dev/null 2>&1 &
feed_server=$!
sleep 1
ingest_log="$(mktemp)"
( /usr/bin/time -f "%e" "$PODLENS_BIN" --no-progress ingest --data-dir "$data" --allow-private --no-transcripts \
    >"$ingest_log" 2>"$ingest_log.time" ) &
ingester=$!
phase "while ingest re-polls every feed" "see below" >"$rss_log.row"
wait "$ingester" || { echo "ingest failed: $(tail -n 3 "$ingest_log")" >&2; exit 1; }
summary="$(grep -m1 -iE "fetched|feeds" "$ingest_log" | tr '|' '/' | cut -c1-80)"
sed "s|\| see below \||\| ingest: ${summary:-done} in $(tail -n 1 "$ingest_log.time") s \||" "$rss_log.row"
rm -f "$ingest_log" "$ingest_log.time" "$rss_log.row"
echo
echo "load average after the run: $(cut -d" " -f1-3 /proc/loadavg)"
