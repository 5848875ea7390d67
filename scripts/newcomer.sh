#!/usr/bin/env bash
# The README's main command the way a newcomer meets it, small and fast: the debug
# `podlens demo` over 200 generated podcasts with a static model of the corpus's own words
# (--small-model), on a free port, in a fresh data directory. It checks, in this order:
# - the first screen comes while the vectors are still being built (keyword search), and
#   semantic search answers by itself once they are (POST /api/v1/search/semantic, which
#   answers 503 until then);
# - Chromium opens what it serves (web/e2e/newcomer.mjs): /, a scored podcast page, a
#   directory letter, an unknown podcast's not-found page, the authority score page, the
#   search of 5 themes (4 of the top 5 shows name the theme in their own description),
#   and the API answers a semantic search and a transcript search with its matchSnippet;
# - the server is quiet: its CPU time (/proc/PID/stat) over 120 s, starting 30 s after
#   the first screen (or once the checks above are done, if later), is under 5% of a
#   core, with the multilingual encoder loaded by a podcast search;
# - SIGTERM stops it within 10 s.
# The release `scripts/demo.sh` runs the same pipeline at full size.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$HOME/.cache/podlens-target}"

cargo build --locked -p podlens-tools --bin podlens
test -f web/dist/index.html || (cd web && npm run --silent build)

data="$(mktemp -d "${TMPDIR:-/tmp}/podlens-newcomer-XXXXXX")"
demo=""
cleanup() {
  if [ -n "$demo" ]; then kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

started=$SECONDS
PODLENS_NO_PROGRESS=true "$target/debug/podlens" demo --data-dir "$data" --podcasts 200 \
  --port 0 --small-model >"$data/demo.log" 2>&1 &
demo=$!
url=""
for _ in $(seq 1 1800); do
  url="$(grep -o 'serving the app at http://127\.0\.0\.1:[0-9]*' "$data/demo.log" | grep -o 'http.*' || true)"
  [ -n "$url" ] && break
  kill -0 "$demo" 2>/dev/null || { cat "$data/demo.log" >&2; echo "podlens demo stopped" >&2; exit 1; }
  sleep 0.5
done
[ -n "$url" ] || { cat "$data/demo.log" >&2; echo "podlens demo did not serve within 15 minutes" >&2; exit 1; }
first_screen=$SECONDS
grep -E '^[0-9]/6 ' "$data/demo.log"
echo "first screen after $((first_screen - started)) s"
key="$(grep -A1 'it is shown only once' "$data/demo.log" | tail -n 1)"

# Semantic search answers by itself once the background vectors are published.
semantic_status() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "$url/api/v1/search/semantic" \
    -H "Authorization: $key" -H 'Content-Type: application/json' \
    -d '{"query": "a show about gardening", "limit": 3}'
}
echo "semantic search while the vectors are built: HTTP $(semantic_status)"
for _ in $(seq 1 600); do
  [ "$(semantic_status)" = 200 ] && break
  kill -0 "$demo" 2>/dev/null || { cat "$data/demo.log" >&2; echo "podlens demo stopped" >&2; exit 1; }
  sleep 1
done
[ "$(semantic_status)" = 200 ] || { cat "$data/demo.log" >&2; echo "semantic search did not answer within 10 minutes" >&2; exit 1; }
echo "semantic search answers $((SECONDS - first_screen)) s after the first screen"
grep -E '^(vectors|show vectors):' "$data/demo.log" || true
# A podcast search loads the multilingual encoder (when installed), so the idle window
# below measures a server that holds it.
status="$(curl -s -o "$data/search.json" -w '%{http_code}' -X POST "$url/api/v1/search/podcasts" \
  -H "Authorization: $key" -H 'Content-Type: application/json' \
  -d '{"searchTerms": [{"searchTerm": "gardening for beginners", "searchType": "text", "searchTargets": ["podcast-title", "podcast-description"]}], "pageSize": 5}')"
[ "$status" = 200 ] || { cat "$data/search.json" >&2; echo "a podcast search answered HTTP $status" >&2; exit 1; }

# Chromium, while the server settles: the idle window below starts once it is done.
screenshots="${PODLENS_E2E_SCREENSHOTS:-$PWD/web/e2e/screenshots}"
(cd web && PODLENS_E2E_SUITE=newcomer PODLENS_E2E_URL="$url" PODLENS_E2E_KEY="$key" \
  PODLENS_E2E_MANIFEST="$data/demo-corpus/manifest.json" \
  PODLENS_E2E_SCREENSHOTS="$screenshots" npm run --silent e2e)

# Idle: the server's own CPU time over 120 s.
wait_until=$((first_screen + 30))
[ "$SECONDS" -lt "$wait_until" ] && sleep $((wait_until - SECONDS))
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$demo/stat"; }
ticks_per_second="$(getconf CLK_TCK)"
before="$(cpu_ticks)"
sleep 120
after="$(cpu_ticks)"
idle_percent="$(awk -v t="$((after - before))" -v hz="$ticks_per_second" 'BEGIN { printf "%.2f", 100 * t / hz / 120 }')"
echo "idle server CPU over 120 s: ${idle_percent}% of a core"
awk -v p="$idle_percent" 'BEGIN { exit !(p < 5) }' || {
  tail -n 50 "$data/demo.log" >&2
  echo "the idle server used ${idle_percent}% of a core (the limit is 5%)" >&2
  exit 1
}

# SIGTERM: the server stops within 10 s.
kill -TERM "$demo"
stop_started=$SECONDS
for _ in $(seq 1 100); do
  kill -0 "$demo" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$demo" 2>/dev/null; then
  tail -n 30 "$data/demo.log" >&2
  echo "the server did not stop within 10 s of SIGTERM" >&2
  exit 1
fi
wait "$demo" || true
demo=""
echo "stopped $((SECONDS - stop_started)) s after SIGTERM"
